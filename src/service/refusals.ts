import { SessionError, show } from '../core/errors';

// Why a use case wrote nothing: the refusals callers see (exported by the service), and the aborts a locked write
// throws to leave the state as it was (caught by the use case that threw them).

/** Aborts a locked write when the re-check under the lock says no (resume, cleanup's abandon): nothing is written. */
export class NotResumable extends Error {}

/** Aborts a stop's write when, under the lock, the session is linked to another Claude agent: nothing is written. */
export class SupersededStop extends Error {}

/**
 * A session named by id belongs to another project than the service's, or to none (E_OTHER_PROJECT): a decision on it
 * (approve, reject, a seed stop) is refused unless asked for across projects; nothing was changed.
 */
export class OtherProjectError extends SessionError {
  constructor(
    id: string,
    /** The session's project; undefined: none (unassigned). */
    readonly owner: string | undefined,
    project: string,
  ) {
    super(
      'E_OTHER_PROJECT',
      `Session \`${id}\` belongs to ${owner === undefined ? 'no project (unassigned: `adopt` gives it one)' : `project ${show(owner)}`}, not to this project ${show(project)}; --all-projects decides on it anyway`,
    );
  }
}

/** Aborts a write that would change nothing (a failure reported twice): nothing is written. */
export class Unchanged extends Error {}

/** A session named by id belongs to another agent than the caller said (E_USAGE): nothing was changed. */
export class AgentMismatchError extends SessionError {
  constructor(id: string, owner: string, claimed: string) {
    super('E_USAGE', `Session \`${id}\` belongs to agent ${show(owner)}, not ${show(claimed)}`);
  }
}
