import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { isParked, isRunning, newestVerdict } from '../../../src/core/parking';
import { relativeTime } from '../../../src/core/relative-time';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';

const now = new Date('2026-01-08T18:30:00.000Z');
const MIN = 60_000;
const created = newSession({ agent_id: 's1', agent_name: 'Explore', purpose: 'p' }, new Date(now.getTime() - 5 * MIN));
const linked = { agent_id: 'claude-1', agent_type: 'Explore', linked_at: created.created_at };
const stopped = { ...linked, stopped_at: created.created_at };

/** `created` moved to `phase` with `patch` applied, still last active 5 minutes ago. */
function state(phase: SessionState['phase'], patch: Partial<SessionState> = {}): SessionState {
  return {
    ...created,
    phase,
    resume_ready: ['investigating', 'planning', 'approval'].includes(phase),
    ...patch,
  } as SessionState;
}

describe('the one rule for an agent newest session (core/parking)', () => {
  it.each([
    ['planning, never linked', state('planning'), false, 'session_resumable'],
    ['planning, run by a Claude agent now', state('planning', { claude: linked }), true, 'session_running'],
    ['planning, its Claude agent stopped', state('planning', { claude: stopped }), false, 'session_resumable'],
    ['approval, run now', state('approval', { claude: linked }), true, 'session_running'],
    [
      'executing, run now: the phase answers first',
      state('executing', { claude: linked }),
      true,
      'phase_not_resumable',
    ],
    [
      'planning with 3 errors, run now: the rules answer first',
      state('planning', { claude: linked, error_count: 3 }),
      true,
      'too_many_errors',
    ],
    ['initializing, stopped', state('initializing', { claude: stopped }), false, 'phase_not_resumable'],
  ] as const)('%s → running %p, %s', (_label, session, running, reason) => {
    expect(isRunning(session)).toBe(running);
    expect(newestVerdict(session, now, DEFAULT_LIMITS)).toBe(reason);
    expect(isParked(session, now, DEFAULT_LIMITS)).toBe(reason === 'session_resumable');
  });
});

describe('relativeTime (date-fns, the one wording)', () => {
  it.each([
    ['2026-01-08T18:18:00.000Z', '12 minutes ago'],
    ['2026-01-08T18:29:30.000Z', '30 seconds ago'],
    ['2026-01-08T18:28:30.000Z', '2 minutes ago'],
    ['2026-01-08T18:32:00.000Z', 'in 2 minutes'],
    ['2026-01-08T15:30:00.000Z', '3 hours ago'],
    ['not a time', 'unknown'],
  ])('%s → %s', (at, expected) => {
    expect(relativeTime(at, now)).toBe(expected);
    if (expected !== 'unknown') expect(relativeTime(new Date(at), now)).toBe(expected);
  });
});
