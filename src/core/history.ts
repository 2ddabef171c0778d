import { SessionError } from './errors';
import { isFinalPhase } from './phase-names';
import type { SessionState } from './state';

/** How many history entries a session keeps unless configured otherwise. */
export const DEFAULT_HISTORY_CAP = 200;

/**
 * Keeps the newest `cap` history entries and adds the dropped ones to `history_dropped`, so a long-lived
 * session never grows without bound. Dropping from the old end keeps the chain (each from_phase is the
 * previous to_phase, the last to_phase is the phase) intact over the kept entries.
 */
export function capHistory(state: SessionState, cap: number): SessionState {
  const excess = state.history.length - cap;
  if (excess <= 0) return state;
  return { ...state, history: state.history.slice(excess), history_dropped: (state.history_dropped ?? 0) + excess };
}

/**
 * Records that a hook approved resuming the session: a history entry from and to the current phase with
 * `event: 'resume'`, and the session marked active. The phase does not change.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final (a final session is never resumed)
 */
export function withResume(state: SessionState, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError('E_ILLEGAL_TRANSITION', `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot be resumed`);
  }
  const at = now.toISOString();
  return { ...state, last_updated: at, history: [...state.history, { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'resume' }] };
}

/** How many resumes a session's (kept) history records. */
export function resumeCount(state: SessionState): number {
  return state.history.filter((entry) => entry.event === 'resume').length;
}
