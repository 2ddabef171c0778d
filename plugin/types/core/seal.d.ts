import { type Decision, type PermissionRequest, type SessionState } from './state';
/**
 * The text a decision's MAC is over: what the decision says (verdict, who, where, when, the note, where it sent the
 * session, since when it waited) and the session it was made on. `imported` is left out: a decision made here and
 * brought back by `import` is still this machine's.
 */
export declare function decisionSealText(state: Pick<SessionState, 'agent_id'>, decision: Decision): string;
/**
 * The text a grant's MAC is over: the session, the exact call (tool, input as canonical JSON, the folder), who asked it
 * and when, and when it was granted until.
 */
export declare function grantSealText(state: Pick<SessionState, 'agent_id'>, request: PermissionRequest): string;
/**
 * `after` (approveState's or rejectState's result on `before`) with its new decision and its new grant sealed: the
 * decision appended since `before`, and each request `before` had pending that is approved now.
 */
export declare function sealNew(before: SessionState, after: SessionState, sign: (text: string) => string): SessionState;
/**
 * The state as this machine counts it (`verify` checks a MAC under its user's key): each decision and each approved
 * request whose MAC does not check out is marked `unverified` (one that does is unmarked), so it never counts
 * (rules.ts awaitsPickup, permission.ts grantFor) and every view says so. A session an unverified approval moved on
 * and nothing since (approval → executing, waiting for its agent) reads as still waiting in approval, its unverified
 * grant pending: the user decides again. A state with nothing to judge is returned as it is (no MAC computed).
 */
export declare function countedHere(state: SessionState, verify: (text: string, mac: string) => boolean): SessionState;
/** The state without the `unverified` marks (what a store writes: they are judged on every read, never kept). */
export declare function withoutUnverifiedMarks(state: SessionState): SessionState;
/**
 * JSON with every object's keys sorted (recursively), so equal values give equal texts whatever their key order (a
 * tool input is compared deep-equal, not by its text).
 */
export declare function canonicalJson(value: unknown): string;
