import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { newSession } from '../../../../src/core/session';
import { computeStats, parseSince } from '../../../../src/core/views/stats';
import type { SessionState } from '../../../../src/core/state';

const NOW = new Date('2026-01-08T12:00:00.000Z');

function session(id: string, agent: string, fields: Partial<SessionState>): SessionState {
  return {
    schema_version: 1,
    agent_id: id,
    agent_name: agent,
    purpose: 'p',
    created_at: '2026-01-08T11:00:00.000Z',
    last_updated: '2026-01-08T11:50:00.000Z',
    phase: 'initializing',
    metadata: {},
    resume_ready: false,
    history: [],
    error_count: 0,
    last_error: null,
    ...fields,
  };
}

const resume = (phase: SessionState['phase']) => ({
  from_phase: phase,
  to_phase: phase,
  timestamp: '2026-01-08T11:40:00.000Z',
  event: 'resume' as const,
});

describe('stats "active": sessions that can still make progress', () => {
  const stopped = { agent_id: 'a1', linked_at: '2026-01-08T11:00:00.000Z', stopped_at: '2026-01-08T11:50:00.000Z' };
  const running = { agent_id: 'a1', linked_at: '2026-01-08T11:00:00.000Z' };
  it.each([
    ['resumable now (approval, fresh)', { phase: 'approval', resume_ready: true }, 1],
    ['parked by a stopped agent, fresh', { phase: 'approval', resume_ready: true, claude: stopped }, 1],
    [
      'approval idle past the timeout',
      { phase: 'approval', resume_ready: true, last_updated: '2026-01-08T10:00:00.000Z' },
      0,
    ],
    ['approval at the error limit', { phase: 'approval', resume_ready: true, error_count: 3 }, 0],
    ['executing, fresh, agent running', { phase: 'executing', claude: running }, 1],
    ['executing, idle past the timeout', { phase: 'executing', last_updated: '2026-01-08T10:00:00.000Z' }, 0],
    ['initializing left by a stopped agent', { phase: 'initializing', claude: stopped }, 0],
    ['initializing, fresh (CLI)', { phase: 'initializing' }, 1],
    ['completed', { phase: 'completed', finalized_at: '2026-01-08T11:50:00.000Z' }, 0],
  ] as const)('%s → %i', (_label, fields, expected) => {
    const stats = computeStats([session('x', 'a', fields as Partial<SessionState>)], {
      now: NOW,
      limits: DEFAULT_LIMITS,
    });
    expect(stats.overall.active).toBe(expected);
  });
});

describe('computeStats', () => {
  const states = [
    session('a1', 'alpha', {
      phase: 'completed',
      duration_seconds: 10,
      history: [resume('approval'), resume('approval')],
    }),
    session('a2', 'alpha', { phase: 'failed', duration_seconds: 30, error_count: 2 }),
    session('a3', 'alpha', { phase: 'approval', resume_ready: true, history: [resume('approval')] }),
    session('b1', 'beta', { phase: 'completed', duration_seconds: 20, created_at: '2026-01-01T00:00:00.000Z' }),
    session('b2', 'beta', {
      phase: 'planning',
      resume_ready: true,
      last_updated: '2026-01-08T10:00:00.000Z',
      error_count: 3,
    }),
  ];

  it('counts per agent and overall', () => {
    const stats = computeStats(states, { now: NOW, limits: DEFAULT_LIMITS });
    expect(Object.keys(stats.agents)).toEqual(['alpha', 'beta']);
    expect(stats.agents.alpha).toMatchObject({
      sessions: 3,
      active: 1,
      resumable_now: 1,
      completed: 1,
      failed: 1,
      abandoned: 0,
      success_rate: 0.5,
      resumes: 3,
      resume_rate: 0.667,
      mean_duration_seconds: 20,
      median_duration_seconds: 20,
      by_error_count: { 0: 2, 2: 1 },
      last_activity: '2026-01-08T11:50:00.000Z',
    });
    expect(stats.overall).toMatchObject({
      sessions: 5,
      active: 1, // b2 is open but cannot make progress: expired, too many errors
      resumable_now: 1, // b2 is expired (and has too many errors)
      completed: 2,
      failed: 1,
      success_rate: 0.667,
      resumes: 3,
      resume_rate: 0.4,
      mean_duration_seconds: 20,
      median_duration_seconds: 20,
      by_error_count: { 0: 3, 2: 1, 3: 1 },
    });
    expect(stats.since).toBeNull();
  });

  it('keeps sessions created since a time', () => {
    const stats = computeStats(states, { now: NOW, limits: DEFAULT_LIMITS, since: parseSince('24h', NOW) });
    expect(stats.overall.sessions).toBe(4);
    expect(stats.agents.beta!.sessions).toBe(1);
    expect(stats.since).toBe('2026-01-07T12:00:00.000Z');
  });

  it('gives null rates and durations without sessions', () => {
    const stats = computeStats([], { now: NOW, limits: DEFAULT_LIMITS });
    expect(stats.overall).toMatchObject({
      sessions: 0,
      success_rate: null,
      resume_rate: null,
      mean_duration_seconds: null,
      median_duration_seconds: null,
      last_activity: null,
    });
  });

  it('takes the mean of the middle two for an even median', () => {
    const even = [10, 20, 40, 100].map((d, i) => session(`s${i}`, 'x', { phase: 'completed', duration_seconds: d }));
    const stats = computeStats(even, { now: NOW, limits: DEFAULT_LIMITS });
    expect(stats.overall.median_duration_seconds).toBe(30);
    expect(stats.overall.mean_duration_seconds).toBe(42.5);
  });
});

describe('parseSince', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['1.5h', 5_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
  ])('reads %s', (text, ms) => {
    expect(NOW.getTime() - parseSince(text, NOW).getTime()).toBe(ms);
  });

  it('reads an ISO time', () => {
    expect(parseSince('2026-01-01T00:00:00Z', NOW).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseSince('2024-02-29T12:00:00+02:00', NOW).toISOString()).toBe('2024-02-29T10:00:00.000Z');
  });

  it.each([
    '',
    'yesterday',
    '24',
    'h',
    '-1h',
    '24x',
    '99999999999d',
    '9999999999999999999999s',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2025-02-29T00:00:00Z',
  ])('refuses %p with E_USAGE', (text) => {
    expect(() => parseSince(text, NOW)).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
  });
});

describe('names that are Object.prototype keys (issue 10 item 8)', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'keeps an agent named %s in the table and the JSON',
    (name) => {
      const states = [
        newSession({ agent_id: 'x1', agent_name: name, purpose: 'p' }, NOW),
        newSession({ agent_id: 'x2', agent_name: 'other', purpose: 'p' }, NOW),
      ];
      const stats = computeStats(states, { now: NOW, limits: DEFAULT_LIMITS });
      expect(Object.keys(stats.agents)).toEqual([name, 'other'].sort());
      expect(Object.getOwnPropertyDescriptor(stats.agents, name)?.value).toMatchObject({ sessions: 1 });
      const json = JSON.parse(JSON.stringify(stats)) as { agents: Record<string, unknown> };
      expect(Object.keys(json.agents)).toEqual([name, 'other'].sort());
      expect(Object.keys(stats.overall.by_error_count)).toEqual(['0']);
    },
  );
});
