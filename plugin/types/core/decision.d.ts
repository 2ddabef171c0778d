import { type DecisionOrigin } from './origin';
import { type Decision, type SessionState } from './state';
/** Where a rejection sends a session: back to planning (the default), or ended as abandoned. */
export declare const REJECT_TARGETS: readonly ["planning", "abandoned"];
export type RejectTarget = (typeof REJECT_TARGETS)[number];
/**
 * A user's approval: an optional note, and optionally a name to record as the decider (`--by`: claimed, never
 * checked; without it the decision is the OS user's).
 */
export interface ApproveInput {
    readonly by?: string;
    readonly note?: string;
    /** How long the grant of a pending permission request lasts (core/permission.ts); default 24 hours. */
    readonly grantTtlHours?: number;
}
/** A user's rejection: why (required), where the session goes, and optionally a claimed name (as ApproveInput). */
export interface RejectInput {
    readonly by?: string;
    readonly reason: string;
    readonly to?: RejectTarget;
}
/**
 * Approves a session parked in approval: records the decision, with where it came from, grants its pending permission
 * request if it has one (core/permission.ts), and moves the session to executing, in one new state (the caller writes it under the session's lock: decision and phase are one write). With `sign` (this user's MAC, core/seal.ts:
 * a file store's), the decision and the grant are sealed, so they count here.
 * @throws SessionError E_AGENT_SHELL when `origin` is an AI agent's shell; E_ILLEGAL_TRANSITION when the session is
 *   not in approval; E_USAGE for a blank `by` or note
 */
export declare function approveState(state: SessionState, input: ApproveInput, origin: DecisionOrigin, now: Date, sign?: (text: string) => string): SessionState;
/**
 * Rejects a session parked in approval: records the decision with its reason and where it came from (its pending
 * permission request, if any, refused with that reason), and sends the
 * session back to planning, or finalizes it abandoned (the reason as summary), in one new state (sealed with `sign`, as
 * approveState's).
 * @throws SessionError E_AGENT_SHELL when `origin` is an AI agent's shell; E_ILLEGAL_TRANSITION when the session is
 *   not in approval; E_USAGE for a blank `by`, a blank reason or another target
 */
export declare function rejectState(state: SessionState, input: RejectInput, origin: DecisionOrigin, now: Date, sign?: (text: string) => string): SessionState;
/**
 * Checks `--to` of a rejection.
 * @throws SessionError E_USAGE naming the value and the targets
 */
export declare function parseRejectTarget(value: unknown): RejectTarget;
/**
 * Since when a session has waited in its current phase: the time of the last history entry that moved it there
 * (a resume does not restart the wait), else its creation (an uncapped history without such an entry), else the
 * oldest kept entry (the history cap dropped the move).
 */
export declare function waitingSince(state: SessionState): string;
/**
 * A decision in one sentence for an agent's resume context, every recorded text quoted (JSON-style, so a claimed name
 * or a note cannot pose as our words): `rejected by "alice" (claimed; OS user "bob", at a terminal) at
 * 2026-11-23T14:00:00.000Z (sent to planning); note: "split it in two"`. The time is ISO, as the contexts' history
 * lines give it: the hooks' bundles stay without date-fns' formatter and its locale (start-up cost on every call).
 */
export declare function decisionSentence(decision: Decision, noteLimit?: number): string;
/** What an agent is told of a decision not verified here (core/seal.ts), in place of what it claims. */
export declare const NOT_VERIFIED_SENTENCE: string;
/** How every view marks a decision or grant not verified here. */
export declare const NOT_VERIFIED = "not verified here";
/**
 * Who decided and where the decision came from, as `show` and the CLI say it: `alice (claimed; OS user bob, at a
 * terminal)`, `bob (OS user, recorded without a terminal)`, `bob (OS user, in the browser)` (the page of a `serve`
 * started at a terminal; else `in the browser, page of a server started without a terminal`), or `alice (origin not
 * recorded)` for a decision of an older version; `…; not verified here: it counts for nothing` when its MAC does not
 * check out here (core/seal.ts). `quote` renders the recorded names (the hooks' contexts quote them; a terminal escapes them).
 */
export declare function deciderText(decision: Decision, quote?: (text: string) => string): string;
/**
 * Who a decision recorded with `origin` is by, as deciderText says it: `bob (OS user, in the browser)` (the live page
 * says so beside its buttons).
 */
export declare function recordedAsText(origin: DecisionOrigin): string;
/**
 * A session as it comes into a store by `import` or `copy`: each of its decisions marked imported (by the importing
 * OS user, at the target's clock, from the file or store), its version stamped. A session without decisions is
 * returned as it is. Refused from a detected AI agent's shell (its decisions would pass for the user's, as `approve`
 * from there would).
 * @throws SessionError E_AGENT_SHELL when `origin` is an agent's shell and the session holds a decision
 */
export declare function importedState(state: SessionState, origin: DecisionOrigin, at: Date, from: string, verb: 'import' | 'copy'): SessionState;
/** The newest decision on a session, or null when none was recorded. */
export declare function lastDecision(state: SessionState): Decision | null;
