import type { Limits } from '../limits';
import type { SessionState } from '../state';
/** Characters of what one decision would allow, in the line (`show` has it whole). */
export declare const WHAT_LIMIT = 100;
/** Decisions named in one line; the rest are counted. */
export declare const NAMED_LIMIT = 3;
/** One decision waiting for the person: a plan to approve, or a sub-agent's permission request (issue 33). */
export interface WaitingDecision {
    readonly id: string;
    readonly agent: string;
    readonly kind: 'approval' | 'permission';
    /**
     * What deciding allows, one escaped line cut at WHAT_LIMIT: the call asked for (`Bash {"command":"…"}`), or the
     * plan (`its plan: …`, else `its findings: …`); null: nothing recorded.
     */
    readonly what: string | null;
    /** Since when it waits: with the id, the item a person is told of once (a new plan later is a new item). */
    readonly waiting_since: string;
}
/**
 * The decisions waiting among `states` (sessions parked in approval that a delegation would still take up), oldest
 * first: what `approve` or `reject` decides.
 */
export declare function waitingDecisions(states: readonly SessionState[], now: Date, limits: Limits): WaitingDecision[];
/** The key that makes a decision told once: the session and since when it waits (as `notify`'s notificationKey). */
export declare function toldKey(decision: Pick<WaitingDecision, 'id' | 'waiting_since'>): string;
/**
 * The line that tells the person of `decisions` (at least one): what waits, and how to decide it: the command, and the
 * page of the `serve` running for this store (`page`, its address; null: how to start it).
 */
export declare function toldLine(decisions: readonly WaitingDecision[], page: string | null): string;
/**
 * The status line's text: how many sessions are parked and how many decisions wait for the person
 * (`2 parked · 1 waits for you`); empty when nothing is parked.
 */
export declare function statusText(parked: number, waiting: number): string;
