import type { Limits } from './limits';
import type { SessionState } from './state';
/**
 * Checks the rules that hold across a state's fields for every session the machine produces: `resume_ready`
 * matches the phase, `finalized_at` is there exactly when the phase is final, and the history is a chain of
 * legal moves (from `initializing` unless the cap dropped its start, each `from_phase` the previous `to_phase`,
 * the last `to_phase` the phase; a resume stays in its resumable phase, or picks up an approval or an interruption; an
 * interruption stays in its phase and comes with the `interruption` record, whose counts agree); times in order (created ≤ last updated,
 * created ≤ finalized, history entries from created on and in order, `duration_seconds` their difference), a
 * purpose `create` takes, `resumes_dropped` ≤ `history_dropped`, `last_error`
 * exactly when `error_count` > 0, an agent name `create` takes, and metadata `create` takes (depth and size). The schema checks each field; this is
 * for states made elsewhere (imports), which must not bring in a session the machine could never reach.
 * @throws SessionError E_CORRUPT naming the first rule broken, what was expected and what was found
 */
export declare function assertCoherent(state: SessionState): void;
/**
 * Checks that no timestamp of `state` lies ahead of `now` beyond the clock-skew bound: such a session would be the
 * "newest" of its agent and never expire (imports; the machine itself writes only its own clock's times).
 * @throws SessionError E_CORRUPT naming the field, its value and the latest time accepted
 */
export declare function assertNotAhead(state: SessionState, now: Date, limits: Pick<Limits, 'clockSkewMinutes'>): void;
