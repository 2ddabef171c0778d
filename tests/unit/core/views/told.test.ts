import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { parkForPermission } from '../../../../src/core/permission';
import { applyChange, newSession } from '../../../../src/core/session';
import type { SessionState } from '../../../../src/core/state';
import {
  NAMED_LIMIT,
  statusText,
  toldKey,
  toldLine,
  waitingDecisions,
  WHAT_LIMIT,
  type WaitingDecision,
} from '../../../../src/core/views/told';

const earlier = new Date('2026-11-28T06:50:00.000Z');
const now = new Date('2026-11-28T07:00:00.000Z');
let counter = 0;

function session(phase: SessionState['phase'], metadata: Record<string, unknown> = {}, name?: string): SessionState {
  counter += 1;
  const id = `agent-20261128-065000-${counter.toString(16).padStart(8, '0')}`;
  let state = newSession({ agent_id: id, agent_name: name ?? `agent-${counter}`, purpose: 'p' }, earlier);
  state = applyChange(state, { phase: 'planning', metadata }, earlier);
  if (phase !== 'planning') state = applyChange(state, { phase }, earlier);
  return state;
}

const decision = (extra: Partial<WaitingDecision> = {}): WaitingDecision => ({
  id: 'agent-x-20261128-065000-cb8ce8ff',
  agent: 'terraform-architect',
  kind: 'approval',
  what: 'its plan: 3 resources',
  waiting_since: earlier.toISOString(),
  ...extra,
});

describe('waitingDecisions', () => {
  it.each<[string, SessionState, Partial<WaitingDecision> | null]>([
    [
      'a plan to approve',
      session('approval', { plan: '3  resources\nto add' }),
      { kind: 'approval', what: 'its plan: 3 resources to add' },
    ],
    ['findings when no plan', session('approval', { findings: 'f' }), { what: 'its findings: f' }],
    ['nothing said', session('approval'), { what: null }],
    [
      'a permission request: the call',
      parkForPermission(
        session('executing'),
        { tool: 'Bash', input: { command: 'touch x' }, claudeAgentId: 'a01' },
        earlier,
      ),
      { kind: 'permission', what: 'Bash {"command":"touch x"}' },
    ],
    ['planning waits for an agent, not a person', session('planning', { plan: 'x' }), null],
    ['executing waits for nobody', session('executing'), null],
  ])('%s', (_name, state, expected) => {
    const found = waitingDecisions([state], now, DEFAULT_LIMITS);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.objectContaining({ id: state.agent_id, agent: state.agent_name, ...expected })]);
  });

  it('leaves out an approval idle past the resume timeout (no delegation takes it up)', () => {
    const later = new Date(earlier.getTime() + (DEFAULT_LIMITS.resumeTimeoutMinutes + 1) * 60_000);
    expect(waitingDecisions([session('approval')], later, DEFAULT_LIMITS)).toEqual([]);
  });

  it('escapes what would hide or reorder the text, and cuts a long one', () => {
    const [found] = waitingDecisions(
      [session('approval', { plan: `\u202e${'x'.repeat(500)}` }, 'evil\u001b[2J')],
      now,
      DEFAULT_LIMITS,
    );
    expect(found!.agent).toBe('evil\\u001b[2J');
    expect(found!.what).toMatch(/^its plan: \\u202ex+…$/);
    expect(found!.what!.length).toBeLessThanOrEqual(`its plan: `.length + WHAT_LIMIT + 5);
  });
});

describe('toldLine', () => {
  it('names one decision, the command that decides it and where the page is', () => {
    const one = decision();
    expect(toldLine([one], null)).toBe(
      'agent-session: 1 decision waits — terraform-architect (cb8ce8ff) waits for approval of its plan: 3 resources · ' +
        `decide with \`agent-session approve ${one.id}\` or \`reject ${one.id}\` or on the page (\`agent-session serve\`)`,
    );
    expect(toldLine([one], 'http://127.0.0.1:4242/')).toMatch(
      new RegExp(`or on the page http://127\\.0\\.0\\.1:4242/#session=${one.id}$`),
    );
  });

  it('names a permission request by its call', () => {
    expect(toldLine([decision({ kind: 'permission', what: 'Bash {"command":"touch x"}' })], null)).toContain(
      'terraform-architect (cb8ce8ff) asks to run Bash {"command":"touch x"} · decide with',
    );
  });

  it(`names at most ${NAMED_LIMIT} and counts the rest, pointing to pending`, () => {
    const many = Array.from({ length: NAMED_LIMIT + 2 }, (_, i) =>
      decision({ id: `agent-${i}-0000000${i}`, agent: `a${i}` }),
    );
    const line = toldLine(many, 'http://127.0.0.1:4242/');
    expect(line).toMatch(new RegExp(`^agent-session: ${NAMED_LIMIT + 2} decisions wait — a0 `));
    expect(line).toContain(`a${NAMED_LIMIT - 1} (`);
    expect(line).not.toContain(`a${NAMED_LIMIT} (`);
    expect(line).toContain('; and 2 more · decide each with `agent-session approve ID`');
    expect(line).toContain('`agent-session pending` lists them');
    expect(line).toMatch(/or on the page http:\/\/127\.0\.0\.1:4242\/$/);
  });

  it('is one line', () => {
    expect(toldLine([decision(), decision({ id: 'agent-y-00000001' })], null)).not.toContain('\n');
  });
});

describe('toldKey', () => {
  it('is the session and since when it waits: a new wait of the same session is a new item', () => {
    expect(toldKey(decision())).not.toBe(toldKey(decision({ waiting_since: now.toISOString() })));
    expect(toldKey(decision())).toBe(toldKey(decision({ what: 'other' })));
  });
});

describe('statusText', () => {
  it.each([
    [0, 0, ''],
    [2, 0, '2 parked'],
    [2, 1, '2 parked · 1 waits for you'],
    [3, 2, '3 parked · 2 wait for you'],
  ])('%i parked, %i waiting: %j', (parked, waiting, text) => {
    expect(statusText(parked, waiting)).toBe(text);
  });
});
