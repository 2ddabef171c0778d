import { SessionError } from '../core/errors';
/** Aborts a locked write when the re-check under the lock says no (resume, cleanup's abandon): nothing is written. */
export declare class NotResumable extends Error {
}
/** Aborts a stop's write when, under the lock, the session is linked to another Claude agent: nothing is written. */
export declare class SupersededStop extends Error {
}
/**
 * A session named by id belongs to another project than the service's, or to none (E_OTHER_PROJECT): a decision on it
 * (approve, reject, a seed stop) is refused unless asked for across projects; nothing was changed.
 */
export declare class OtherProjectError extends SessionError {
    /** The session's project; undefined: none (unassigned). */
    readonly owner: string | undefined;
    constructor(id: string, 
    /** The session's project; undefined: none (unassigned). */
    owner: string | undefined, project: string);
}
/** Aborts a write that would change nothing (a failure reported twice): nothing is written. */
export declare class Unchanged extends Error {
}
/** A session named by id belongs to another agent than the caller said (E_USAGE): nothing was changed. */
export declare class AgentMismatchError extends SessionError {
    constructor(id: string, owner: string, claimed: string);
}
