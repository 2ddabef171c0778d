import { SessionError } from './errors';
import { carriedOn } from './interruption';
import { isFinalPhase } from './phase-names';
import type { SessionState } from './state';

/** How many history entries a session keeps unless configured otherwise. */
export const DEFAULT_HISTORY_CAP = 200;

/**
 * Keeps the newest `cap` history entries and adds the dropped ones to `history_dropped` (and the dropped resumes
 * to `resumes_dropped`), so a long-lived session never grows without bound. Dropping from the old end keeps the
 * chain (each from_phase is the previous to_phase, the last to_phase is the phase) intact over the kept entries.
 */
export function capHistory(state: SessionState, cap: number): SessionState {
  const excess = state.history.length - cap;
  if (excess <= 0) return state;
  const capped: SessionState = {
    ...state,
    history: state.history.slice(excess),
    history_dropped: (state.history_dropped ?? 0) + excess,
  };
  // The resumes among the dropped entries stay counted, so `stats` never loses a long-lived session's resumes.
  const resumes = resumeEntries(state.history.slice(0, excess));
  return resumes === 0 ? capped : { ...capped, resumes_dropped: (state.resumes_dropped ?? 0) + resumes };
}

/**
 * Records that a hook approved resuming the session: a history entry from and to the current phase with
 * `event: 'resume'`, and the session marked active. The phase does not change. A session waiting after an
 * interruption is carried on: it waits no more (interruption.ts `carriedOn`).
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final (a final session is never resumed)
 */
export function withResume(state: SessionState, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot be resumed`,
    );
  }
  const at = now.toISOString();
  return {
    ...carriedOn(state),
    last_updated: at,
    history: [...state.history, { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'resume' }],
  };
}

/** How many resumes a session has had: those its history keeps, and those the history cap dropped. */
export function resumeCount(state: SessionState): number {
  return resumeEntries(state.history) + (state.resumes_dropped ?? 0);
}

// --- internal ---

function resumeEntries(history: SessionState['history']): number {
  return history.filter((entry) => entry.event === 'resume').length;
}

/**
 * The time a change to `state` is stamped with: `now`, or the newest time the state already records when that is
 * later by at most `boundMs`. A writer reads its clock before it waits for the session's lock; when another writer
 * got the lock first and stamped a later time, stamping `now` would put this change before that one in the history
 * (an order `import` and the coherence rules refuse). A recorded time further ahead than the bound is a clock that
 * ran ahead (`clock_skew`), not a race: it is not copied.
 */
export function stampAfter(state: SessionState, now: Date, boundMs: number): Date {
  const recorded = [state.last_updated, state.history.at(-1)?.timestamp, state.decisions?.at(-1)?.at];
  let newest = now.getTime();
  for (const time of recorded) {
    const at = time === undefined ? Number.NaN : Date.parse(time);
    if (at > newest && at - now.getTime() <= boundMs) newest = at;
  }
  return newest === now.getTime() ? now : new Date(newest);
}
