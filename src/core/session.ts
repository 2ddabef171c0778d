import { SessionError, show } from './errors';
import { assertMergedMetadata } from './input';
import { movePhase } from './phases';
import { isFinalPhase, isPhase, isResumablePhase, PHASES, type FinalPhase, type Phase } from './phase-names';
import { PROJECT_SCHEMA_VERSION, SCHEMA_VERSION, type Metadata, type SessionState } from './state';

/** What `create` needs; the id is chosen (and checked) by the caller. */
export interface NewSession {
  readonly agent_id: string;
  readonly agent_name: string;
  readonly purpose: string;
  readonly metadata?: Metadata;
  /** The project it belongs to (core/project.ts); absent: none (the file store's folder's, for that store). */
  readonly project?: string;
}

/** One update: any mix of a phase change, a metadata merge and an error. None of them is a touch. */
export interface SessionChange {
  readonly phase?: Phase;
  readonly metadata?: Metadata;
  readonly error?: string;
}

/** A fresh session in `initializing`. */
export function newSession(input: NewSession, now: Date): SessionState {
  const at = now.toISOString();
  return {
    schema_version: input.project === undefined ? SCHEMA_VERSION : PROJECT_SCHEMA_VERSION,
    agent_id: input.agent_id,
    agent_name: input.agent_name,
    purpose: input.purpose,
    created_at: at,
    last_updated: at,
    phase: 'initializing',
    metadata: { ...input.metadata },
    resume_ready: false,
    history: [],
    error_count: 0,
    last_error: null,
    ...(input.project === undefined ? {} : { project: input.project }),
  };
}

/**
 * Applies one update. A move to the current working phase adds no history entry; a move to a final
 * phase finalizes the session. Metadata is shallow-merged, and the merge stays within MAX_METADATA_BYTES; an error
 * adds 1 to `error_count`.
 * @throws SessionError E_ILLEGAL_TRANSITION when the machine refuses the move, or the session is final; E_USAGE when
 *   the merged metadata would pass the limit
 */
export function applyChange(state: SessionState, change: SessionChange, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot change`,
    );
  }
  const at = now.toISOString();
  let next: SessionState = { ...state, last_updated: at };
  if (change.metadata) {
    next.metadata = { ...state.metadata, ...change.metadata };
    assertMergedMetadata(next.metadata, state.metadata, state.agent_id);
  }
  if (change.error !== undefined) {
    next.error_count = state.error_count + 1;
    next.last_error = { message: change.error, timestamp: at };
  }
  if (change.phase !== undefined && change.phase !== state.phase) {
    if (isFinalPhase(change.phase)) return finalizeState(next, change.phase, undefined, now);
    next = withPhase(next, movePhase(state.phase, change.phase), at);
  }
  return next;
}

/**
 * Ends a session in `outcome`, recording finalized_at, duration_seconds, a history entry and the summary.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is already final
 */
export function finalizeState(
  state: SessionState,
  outcome: FinalPhase,
  summary: string | undefined,
  now: Date,
): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` is already final (\`${state.phase}\`)`,
    );
  }
  const at = now.toISOString();
  const next = withPhase({ ...state, last_updated: at }, movePhase(state.phase, outcome), at);
  const durationMs = Math.max(0, now.getTime() - Date.parse(state.created_at));
  return {
    ...next,
    finalized_at: at,
    duration_seconds: Math.round(durationMs) / 1000,
    ...(summary === undefined ? {} : { summary }),
  };
}

/**
 * Checks a user-given phase name.
 * @throws SessionError E_USAGE naming the value and the phases
 */
export function parsePhase(value: unknown, name = 'phase'): Phase {
  if (!isPhase(value))
    throw new SessionError('E_USAGE', `Expected \`${name}\` to be one of ${PHASES.join(', ')}, got ${show(value)}`);
  return value;
}

// --- internal ---

function withPhase(state: SessionState, phase: Phase, at: string): SessionState {
  return {
    ...state,
    phase,
    resume_ready: isResumablePhase(phase),
    history: [...state.history, { from_phase: state.phase, to_phase: phase, timestamp: at }],
  };
}
