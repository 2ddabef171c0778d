import type { SessionState } from './state';
/** How many history entries a session keeps unless configured otherwise. */
export declare const DEFAULT_HISTORY_CAP = 200;
/**
 * Keeps the newest `cap` history entries and adds the dropped ones to `history_dropped` (and the dropped resumes
 * to `resumes_dropped`), so a long-lived session never grows without bound. Dropping from the old end keeps the
 * chain (each from_phase is the previous to_phase, the last to_phase is the phase) intact over the kept entries.
 */
export declare function capHistory(state: SessionState, cap: number): SessionState;
/**
 * Records that a hook approved resuming the session: a history entry from and to the current phase with
 * `event: 'resume'`, and the session marked active. The phase does not change. A session waiting after an
 * interruption is carried on: it waits no more (interruption.ts `carriedOn`).
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final (a final session is never resumed)
 */
export declare function withResume(state: SessionState, now: Date): SessionState;
/** How many resumes a session has had: those its history keeps, and those the history cap dropped. */
export declare function resumeCount(state: SessionState): number;
/**
 * The time a change to `state` is stamped with: `now`, or the newest time the state already records when that is
 * later by at most `boundMs`. A writer reads its clock before it waits for the session's lock; when another writer
 * got the lock first and stamped a later time, stamping `now` would put this change before that one in the history
 * (an order `import` and the coherence rules refuse). A recorded time further ahead than the bound is a clock that
 * ran ahead (`clock_skew`), not a race: it is not copied.
 */
export declare function stampAfter(state: SessionState, now: Date, boundMs: number): Date;
