// Issue 34: a session's stopped Claude agent continued with its context. The pure rules: the choice recorded
// (schema_version 9), the agent's return in the same session (the link runs again, a `continue` entry, an interruption
// carried on), coherence, and what the timeline makes of it.
import { withClaudeLink } from '../../../src/core/claude-link';
import { assertCoherent } from '../../../src/core/coherence';
import {
  continuationCount,
  isContinuationOf,
  withContinuationChoice,
  withContinued,
} from '../../../src/core/continuation';
import { isInterrupted, withInterruption } from '../../../src/core/interruption';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { isParked, isRunning } from '../../../src/core/parking';
import { CONTINUATION_SCHEMA_VERSION } from '../../../src/core/schema-version';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';
import { parseState, type SessionState } from '../../../src/core/state';
import { timelineOf } from '../../../src/core/views/timeline';
import { codeOf } from '../../helpers';

const t0 = new Date('2026-01-08T18:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/** A session in planning linked to Claude agent a1, which stopped at minute 3 (parked). */
function parked(): SessionState {
  const fresh = newSession({ agent_id: 'agent-1', agent_name: 'architect', purpose: 'p' }, t0);
  const linked = withClaudeLink(fresh, { agent_id: 'a1', session_id: 's1', agent_type: 'architect' }, at(1));
  const planned = applyChange(linked, { phase: 'planning' }, at(2));
  return withClaudeLink(planned, { stopped: true }, at(3));
}

/** The continuation of `a1` asked (our SendMessage hook's choice), as it comes before the agent's return. */
function ask(state: SessionState): SessionState {
  return withContinuationChoice(state, { choice: 'continue', reason: 'r', claude_agent_id: 'a1' }, at(4));
}

function roundTrip(state: SessionState): SessionState {
  const read = parseState(JSON.parse(JSON.stringify(state)));
  assertCoherent(read);
  return read;
}

describe('withContinuationChoice', () => {
  it.each([
    ['continue', true],
    ['prime', false],
  ] as const)('records a %s choice with its reason, continuing %s, at schema_version 9', (choice, continuing) => {
    const state = withContinuationChoice(
      parked(),
      { choice, reason: 'why', claude_agent_id: 'a1', transcript_path: '/p/agent-a1.jsonl', transcript_bytes: 30_000 },
      at(4),
    );
    expect(state.continuation).toEqual({
      choice,
      reason: 'why',
      decided_at: at(4).toISOString(),
      claude_agent_id: 'a1',
      transcript_path: '/p/agent-a1.jsonl',
      transcript_bytes: 30_000,
      continuing,
      count: 0,
    });
    expect(state.schema_version).toBe(CONTINUATION_SCHEMA_VERSION);
    // Not activity: the resume timeout still runs from the agent's last work.
    expect(state.last_updated).toBe(at(3).toISOString());
    expect(roundTrip(state)).toEqual(state);
  });
});

describe('withContinued', () => {
  it('runs the stopped agent again in the same session, with a continue entry in its phase', () => {
    const asked = withContinuationChoice(parked(), { choice: 'continue', reason: 'r', claude_agent_id: 'a1' }, at(4));
    expect(isContinuationOf(asked, 'a1')).toBe(true);
    expect(isParked(asked, at(4), DEFAULT_LIMITS)).toBe(true);
    const back = withContinued(asked, 'a1', at(5));
    expect(back.claude?.stopped_at).toBeUndefined();
    expect(back.claude?.agent_id).toBe('a1');
    expect(isRunning(back)).toBe(true);
    expect(isParked(back, at(5), DEFAULT_LIMITS)).toBe(false);
    expect(back.phase).toBe('planning');
    expect(back.history.at(-1)).toEqual({
      from_phase: 'planning',
      to_phase: 'planning',
      timestamp: at(5).toISOString(),
      event: 'continue',
    });
    expect(back.continuation).toMatchObject({ continuing: false, continued_at: at(5).toISOString(), count: 1 });
    expect(continuationCount(back)).toBe(1);
    expect(roundTrip(back)).toEqual(back);
    // Its next stop stops it again: the sticky stop belongs to each run.
    const stoppedAgain = withClaudeLink(back, { stopped: true }, at(6));
    expect(stoppedAgain.claude?.stopped_at).toBe(at(6).toISOString());
    expect(isContinuationOf(stoppedAgain, 'a1')).toBe(false);
    expect(continuationCount(withContinued(ask(stoppedAgain), 'a1', at(7)))).toBe(2);
  });

  it("takes a start nobody asked for as the same run's late start, not a continuation (events in any order)", () => {
    expect(isContinuationOf(parked(), 'a1')).toBe(false);
    expect(codeOf(() => withContinued(parked(), 'a1', at(5)))).toBe('E_ILLEGAL_TRANSITION');
    const primed = withContinuationChoice(parked(), { choice: 'prime', reason: 'r', claude_agent_id: 'a1' }, at(4));
    expect(isContinuationOf(primed, 'a1')).toBe(false);
    const back = withContinued(ask(parked()), 'a1', at(5));
    expect(back.schema_version).toBe(CONTINUATION_SCHEMA_VERSION);
    expect(roundTrip(back)).toEqual(back);
  });

  it('carries on an interruption the session waited after', () => {
    const failed = withInterruption(withClaudeLink(parked(), {}, at(3)), { error: 'unknown', agent_id: 'a1' }, at(4));
    expect(isInterrupted(failed)).toBe(true);
    const back = withContinued(ask(failed), 'a1', at(5));
    expect(isInterrupted(back)).toBe(false);
    expect(back.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
    expect(roundTrip(back)).toEqual(back);
    // Killed again: a new interruption is recorded.
    const again = withInterruption(withClaudeLink(back, { stopped: true }, at(6)), { error: 'unknown' }, at(6));
    expect(again.interruption).toMatchObject({ count: 2, waiting: true });
    expect(roundTrip(again)).toEqual(again);
  });

  it.each([
    ['another agent', (s: SessionState) => s, 'a2'],
    ['an agent still running', (s: SessionState) => withContinued(ask(s), 'a1', at(4)), 'a1'],
    ['a final session', (s: SessionState) => finalizeState(s, 'completed', 'done', at(4)), 'a1'],
  ])('refuses %s (E_ILLEGAL_TRANSITION)', (_name, make, agent) => {
    const state = make(parked());
    expect(isContinuationOf(state, agent)).toBe(false);
    expect(codeOf(() => withContinued(state, agent, at(5)))).toBe('E_ILLEGAL_TRANSITION');
  });
});

describe('coherence and the timeline', () => {
  it('refuses a continue entry that moves the phase', () => {
    const back = withContinued(ask(parked()), 'a1', at(5));
    const moved = {
      ...back,
      history: [...back.history.slice(0, -1), { ...back.history.at(-1)!, to_phase: 'approval' }],
    };
    expect(codeOf(() => assertCoherent(parseState(moved)))).toBe('E_CORRUPT');
  });

  it('shows the return as a continued event', () => {
    const back = withContinued(ask(parked()), 'a1', at(5));
    expect(timelineOf(back, at(6)).events.filter((event) => event.kind === 'continued')).toEqual([
      { kind: 'continued', at: at(5).toISOString(), phase: 'planning', span: 1 },
    ]);
  });
});
