// A session's Claude agent carried on with its context (issue 34): the choice between continuing the stopped agent
// itself (SendMessage to its id: Claude Code re-sends its whole transcript) and priming a fresh agent with what the
// session holds, recorded on the session (schema_version 9), and the agent's return (its SubagentStart again, with the
// same agent id) recorded as a `continue` in the same session: one session whatever the path.
import { SessionError } from './errors';
import { carriedOn } from './interruption';
import { isFinalPhase } from './phase-names';
import { versionFor, type Continuation, type SessionState } from './state';

/** What a choice records: continue or prime, why, the agent, and the transcript looked at. */
export interface ContinuationChoiceFacts {
  readonly choice: Continuation['choice'];
  readonly reason: string;
  readonly claude_agent_id: string;
  readonly transcript_path?: string;
  readonly transcript_bytes?: number;
}

/**
 * The session with its latest continuation choice: `continuing` while a continuation is asked and its agent has not
 * started again; the count and the last return are kept. Not activity: `last_updated` stays (the resume timeout runs
 * from the agent's work, not from our looking).
 */
export function withContinuationChoice(state: SessionState, facts: ContinuationChoiceFacts, now: Date): SessionState {
  const previous = state.continuation;
  const continuation: Continuation = {
    choice: facts.choice,
    reason: facts.reason,
    decided_at: now.toISOString(),
    claude_agent_id: facts.claude_agent_id,
    ...(facts.transcript_path === undefined ? {} : { transcript_path: facts.transcript_path }),
    ...(facts.transcript_bytes === undefined ? {} : { transcript_bytes: facts.transcript_bytes }),
    continuing: facts.choice === 'continue',
    ...(previous?.continued_at === undefined ? {} : { continued_at: previous.continued_at }),
    count: previous?.count ?? 0,
  };
  const next = { ...state, continuation };
  return { ...next, schema_version: versionFor(next) };
}

/**
 * True when a start of Claude agent `claudeAgentId` is that agent coming back with its context: the session is linked
 * to that very agent, which had stopped, is not final, and a continuation of that agent was asked (`continuing`: our
 * SendMessage hook or the offer chose it). A start nobody asked for is the same run's own start arriving after its
 * stop or failure (a background agent's hooks run at once, in any order: tests/stress/claude-race.stress.ts), which
 * must not run the session again.
 */
export function isContinuationOf(state: SessionState, claudeAgentId: string): boolean {
  const link = state.claude;
  return (
    link !== undefined &&
    link.agent_id === claudeAgentId &&
    link.stopped_at !== undefined &&
    !isFinalPhase(state.phase) &&
    state.continuation?.continuing === true &&
    state.continuation.claude_agent_id === claudeAgentId
  );
}

/**
 * The session as its stopped Claude agent's return leaves it: the link runs again (no `stopped_at`: the stop policy
 * and the interruption rules apply to its next stop as to any), a `continue` history entry in its phase, an
 * interruption it waited after carried on, and the continuation record's return (`continuing` over, one more).
 * @throws SessionError E_ILLEGAL_TRANSITION when it is not a continuation of that agent (isContinuationOf)
 */
export function withContinued(state: SessionState, claudeAgentId: string, now: Date): SessionState {
  if (!isContinuationOf(state, claudeAgentId)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` has no stopped Claude agent \`${claudeAgentId}\` to continue`,
    );
  }
  const at = now.toISOString();
  const { stopped_at: _stopped, ...link } = state.claude!;
  // isContinuationOf: the asked continuation of this very agent.
  const previous = state.continuation!;
  const continuation: Continuation = { ...previous, continuing: false, continued_at: at, count: previous.count + 1 };
  const next: SessionState = {
    ...carriedOn(state),
    last_updated: at,
    claude: link,
    history: [...state.history, { from_phase: state.phase, to_phase: state.phase, timestamp: at, event: 'continue' }],
    continuation,
  };
  return { ...next, schema_version: versionFor(next) };
}

/** How many times the session's agents came back with their context (the record's count). */
export function continuationCount(state: SessionState): number {
  return state.continuation?.count ?? 0;
}
