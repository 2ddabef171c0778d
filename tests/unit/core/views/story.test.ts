import { approveState, rejectState } from '../../../../src/core/decision';
import { AT_TERMINAL } from '../../../support/origin';
import { explainResume } from '../../../../src/core/views/explain';
import { withResume } from '../../../../src/core/history';
import { inboxOf } from '../../../../src/core/views/inbox';
import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { applyChange, finalizeState, newSession } from '../../../../src/core/session';
import type { SessionState } from '../../../../src/core/state';
import { timelineOf } from '../../../../src/core/views/timeline';
import { capHistory } from '../../../../src/core/history';

const t0 = new Date('2026-01-08T18:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();
const session = (id = 'agent-1', name = 'terraform-architect', metadata = {}) =>
  newSession({ agent_id: id, agent_name: name, purpose: 'p', metadata }, t0);
const move = (state: SessionState, phase: SessionState['phase'], minutes: number) =>
  applyChange(state, { phase }, at(minutes));

describe('explainResume: the facts behind the verdict', () => {
  const approval = move(session(), 'approval', 0);
  it.each([
    ['idle 41 of 30', approval, 41, 'session_expired', 'idle', 'idle 41 minutes of 30 minutes allowed'],
    [
      '3 errors of 3',
      [1, 2, 3].reduce((s, n) => applyChange(s, { error: `e${n}` }, at(0)), approval),
      1,
      'too_many_errors',
      'errors',
      '3 errors of 3',
    ],
    [
      'clock ahead by 5 min',
      { ...approval, last_updated: iso(5) },
      0,
      'clock_skew',
      'clock',
      'clock ahead by 5 minutes (bound 1 minute)',
    ],
    [
      'executing',
      move(approval, 'executing', 0),
      1,
      'phase_not_resumable',
      'phase',
      'phase executing is not resumable (only investigating, planning, approval, executing just after an approval, or any working phase after an interruption)',
    ],
  ] as const)('%s', (_label, state, minutes, reason, rule, text) => {
    const explained = explainResume(state, at(minutes), DEFAULT_LIMITS);
    expect(explained.reason).toBe(reason);
    expect(explained.should_resume).toBe(false);
    const failing = explained.checks.find((check) => check.rule === rule)!;
    expect(failing).toMatchObject({ ok: false, text });
  });

  it('every check passes for a resumable session, with the measured values', () => {
    const explained = explainResume(approval, at(12), DEFAULT_LIMITS);
    expect(explained).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    expect(explained.checks.every((check) => check.ok)).toBe(true);
    expect(explained.checks.find((check) => check.rule === 'idle')).toMatchObject({ value: 720, limit: 30 });
  });
});

describe('timelineOf', () => {
  it('one span per stay in a phase with its duration, resumes on their span, decisions, errors and the end', () => {
    let state = move(session(), 'planning', 2);
    state = move(state, 'approval', 10);
    state = withResume(state, at(15));
    state = applyChange(state, { error: 'boom' }, at(16));
    state = rejectState(state, { by: 'bob', reason: 'again' }, AT_TERMINAL, at(20));
    state = move(state, 'approval', 25);
    state = approveState(state, { by: 'alice' }, AT_TERMINAL, at(30));
    state = finalizeState(state, 'completed', 'done', at(50));
    const timeline = timelineOf(state, at(60));
    expect(timeline.spans.map((s) => [s.phase, s.started_at, s.seconds, s.resumes.length])).toEqual([
      ['initializing', iso(0), 120, 0],
      ['planning', iso(2), 480, 0],
      ['approval', iso(10), 600, 1],
      ['planning', iso(20), 300, 0],
      ['approval', iso(25), 300, 0],
      ['executing', iso(30), 1200, 0],
      ['completed', iso(50), null, 0],
    ]);
    // Each event in the stay it happened in: a decision ends its approval stay, though the next one starts with it.
    expect(timeline.events.map((e) => [e.kind, e.at, e.span])).toEqual([
      ['created', iso(0), 0],
      ['resume', iso(15), 2],
      ['error', iso(16), 2],
      ['decision', iso(20), 2],
      ['decision', iso(30), 4],
      ['finalized', iso(50), 6],
    ]);
  });

  it('measures the current phase up to now, and says how much the history cap dropped', () => {
    let state = session();
    for (let i = 0; i < 6; i++) state = move(state, i % 2 === 0 ? 'planning' : 'investigating', i + 1);
    const capped = capHistory(state, 2);
    const timeline = timelineOf(capped, at(10));
    expect(timeline.dropped).toBe(4);
    expect(timeline.spans[0]).toMatchObject({ started_at: null, seconds: null });
    expect(timeline.spans.at(-1)).toMatchObject({ phase: 'investigating', ended_at: null, seconds: 240 });
  });
});

describe('inboxOf', () => {
  it('keeps waiting sessions only, oldest waiting first, with what they wait on and the time left', () => {
    const a = applyChange(move(session('a', 'x'), 'approval', 20), { metadata: { plan: 'three\nbuckets' } }, at(21));
    const b = move(session('b', 'y', { findings: { n: 2 } }), 'investigating', 5);
    const c = {
      ...move(session('c', 'z'), 'planning', 1),
      claude: { agent_id: 'a1', linked_at: iso(1), last_message: 'done?' },
    };
    const done = finalizeState(move(session('d', 'x'), 'approval', 2), 'completed', undefined, at(3));
    const running = move(session('e', 'x'), 'executing', 1);
    const inbox = inboxOf([a, b, done, c, running], at(40), DEFAULT_LIMITS);
    expect(inbox.map((entry) => entry.agent_id)).toEqual(['c', 'b', 'a']);
    expect(inbox.map((entry) => entry.waits_on)).toEqual([
      { source: 'last_message', text: 'done?' },
      { source: 'findings', text: '{"n":2}' },
      { source: 'plan', text: 'three buckets' },
    ]);
    expect(inbox[2]).toMatchObject({ waited_seconds: 1200, expires_in_seconds: 660, resumable: true });
    expect(inbox[0]).toMatchObject({ resumable: false, reason: 'session_expired', expires_in_seconds: -540 });
    expect(inboxOf([a, b, c], at(40), DEFAULT_LIMITS, ['approval']).map((entry) => entry.agent_id)).toEqual(['a']);
  });
});
