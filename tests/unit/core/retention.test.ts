import { codeOf } from '../../helpers';
import { cappable, overCap, parseDays } from '../../../src/core/retention';
import { applyChange, finalizeState, newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import type { Phase } from '../../../src/core/phase-names';

const t0 = new Date('2026-12-01T00:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/** A session of `phase`, last active `minutes` after t0. */
function session(id: string, phase: Phase, minutes: number): { id: string; state: SessionState } {
  const fresh = newSession({ agent_id: id, agent_name: 'a', purpose: 'p', project: 'proj' }, t0);
  const state =
    phase === 'completed' || phase === 'failed' || phase === 'abandoned'
      ? finalizeState(fresh, phase, 'done', at(minutes))
      : phase === 'initializing'
        ? { ...fresh, last_updated: at(minutes).toISOString() }
        : applyChange(fresh, { phase }, at(minutes));
  return { id, state };
}

describe('parseDays', () => {
  it.each([
    ['30', 720],
    ['0', 0],
    ['1.5', 36],
    [' 2 ', 48],
    [7, 168],
  ])('%p days → %p hours', (raw, hours) => {
    expect(parseDays(raw)).toBe(hours);
  });

  it.each([['-1'], ['abc'], [''], ['1e3'], ['0x10'], ['Infinity'], [`1${'0'.repeat(400)}`], [null]])(
    'refuses %p naming the flag',
    (raw) => {
      expect(codeOf(() => parseDays(raw))).toBe('E_USAGE');
      expect(() => parseDays(raw)).toThrow(/`--older-than` to be a number of days, 0 or more/);
    },
  );
});

describe('cappable', () => {
  it.each<[Phase, boolean]>([
    ['completed', true],
    ['failed', true],
    ['abandoned', true],
    ['approval', false],
    ['planning', false],
    ['executing', false],
    ['initializing', false],
  ])('a %s session: %p', (phase, expected) => {
    expect(cappable(session('x', phase, 1).state)).toBe(expected);
  });

  it('never a finished session that still holds a request waiting for the person', () => {
    const { state } = session('x', 'completed', 1);
    const pending = {
      ...state,
      permission_requests: [
        {
          tool: 'Bash',
          input: { command: 'ls' },
          claude_agent_id: 'a1',
          asked_at: t0.toISOString(),
          status: 'pending' as const,
        },
      ],
    } as unknown as SessionState;
    expect(cappable(pending)).toBe(false);
    const decided = {
      ...pending,
      permission_requests: [{ ...pending.permission_requests![0]!, status: 'rejected' as const }],
    } as SessionState;
    expect(cappable(decided)).toBe(true);
  });
});

describe('overCap', () => {
  const sessions = [
    session('new-done', 'completed', 50),
    session('old-approval', 'approval', 1),
    session('old-done', 'completed', 2),
    session('mid-failed', 'failed', 10),
    session('working', 'executing', 3),
    session('tie-b', 'abandoned', 20),
    session('tie-a', 'abandoned', 20),
  ];

  it.each([
    [7, []],
    [100, []],
    [6, ['old-done']],
    [5, ['old-done', 'mid-failed']],
    [3, ['old-done', 'mid-failed', 'tie-a', 'tie-b']],
    // Above the finished ones: the cap stops short of the approval and the working session.
    [1, ['old-done', 'mid-failed', 'tie-a', 'tie-b', 'new-done']],
  ])('a cap of %p removes %p (oldest finished first, never one waiting)', (max, expected) => {
    expect(overCap(sessions, max)).toEqual(expected);
  });
});
