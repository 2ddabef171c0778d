import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { parkForPermission } from '../../../../src/core/permission';
import { withProject } from '../../../../src/core/project';
import { applyChange, newSession } from '../../../../src/core/session';
import type { SessionState } from '../../../../src/core/state';
import { ALLOWS_LIMIT, liveModel, SESSIONS_LIMIT } from '../../../../src/core/views/live';
import { LIVE_SCRIPT, livePage } from '../../../../src/core/views/live-page';

const now = new Date('2026-11-28T07:00:00.000Z');
const earlier = new Date('2026-11-28T06:50:00.000Z');
let counter = 0;

function session(phase: SessionState['phase'], metadata: Record<string, unknown> = {}, project = 'acme/api') {
  counter += 1;
  const id = `agent-20261128-065000-${counter.toString(16).padStart(8, '0')}`;
  let state = withProject(newSession({ agent_id: id, agent_name: `agent-${counter}`, purpose: 'p' }, earlier), project);
  if (phase !== 'initializing') state = applyChange(state, { phase: 'planning', metadata }, earlier);
  if (phase !== 'planning' && phase !== 'initializing') state = applyChange(state, { phase }, earlier);
  return state;
}

describe('liveModel', () => {
  it.each<[string, SessionState, string | null, Partial<Record<string, unknown>> | null]>([
    [
      'an approval: its plan verbatim, approve first',
      session('approval', { plan: 'line 1\n  <b>line 2</b>' }),
      'acme/api',
      { kind: 'approval', allows: 'line 1\n  <b>line 2</b>' },
    ],
    ['an approval without a plan: its findings', session('approval', { findings: 'f' }), 'acme/api', { allows: 'f' }],
    [
      'a plan that is not text: JSON',
      session('approval', { plan: { steps: [1, 2] } }),
      'acme/api',
      { allows: JSON.stringify({ steps: [1, 2] }, null, 2) },
    ],
    ['an approval with nothing said', session('approval'), 'acme/api', { allows: null }],
    [
      'a session waiting in planning',
      session('planning', { plan: 'x' }),
      'acme/api',
      { kind: 'waiting', allows: null },
    ],
    [
      'a permission request (issue 33): the call verbatim, approve and reject first',
      parkForPermission(
        session('executing'),
        { tool: 'Bash', input: { command: 'touch <x>' }, claudeAgentId: 'a0000000000000001' },
        earlier,
      ),
      'acme/api',
      { kind: 'permission', allows: `Bash ${JSON.stringify({ command: 'touch <x>' }, null, 2)}` },
    ],
    ['executing: no decision row', session('executing'), 'acme/api', null],
  ])('%s', (_name, state, project, expected) => {
    const model = liveModel({ states: [state], now, limits: DEFAULT_LIMITS, project });
    if (expected === null) expect(model.decisions).toEqual([]);
    else expect(model.decisions).toEqual([expect.objectContaining({ id: state.agent_id, ...expected })]);
    expect(model.sessions.map((row) => row.id)).toEqual([state.agent_id]);
    expect(model.by_phase[state.phase]).toBe(1);
  });

  it('names --all-projects in the commands when the page shows every project, or the session is another’s', () => {
    const state = session('approval');
    const own = liveModel({ states: [state], now, limits: DEFAULT_LIMITS, project: 'acme/api' });
    expect(own.decisions[0]!.commands[0]).toBe(`agent-session approve ${state.agent_id}`);
    const all = liveModel({ states: [state], now, limits: DEFAULT_LIMITS, project: null });
    expect(all.decisions[0]!.commands[0]).toBe(`agent-session approve ${state.agent_id} --all-projects`);
  });

  it('cuts a long plan and lists at most SESSIONS_LIMIT sessions, counting the rest', () => {
    const long = session('approval', { plan: 'x'.repeat(ALLOWS_LIMIT + 5) });
    const model = liveModel({ states: [long], now, limits: DEFAULT_LIMITS, project: null });
    expect(model.decisions[0]!.allows!.startsWith('x'.repeat(ALLOWS_LIMIT))).toBe(true);
    expect(model.decisions[0]!.allows!.length).toBeLessThan(ALLOWS_LIMIT + 60);
    const many = Array.from({ length: SESSIONS_LIMIT + 3 }, () => session('executing'));
    const big = liveModel({ states: many, now, limits: DEFAULT_LIMITS, project: null });
    expect(big.sessions).toHaveLength(SESSIONS_LIMIT);
    expect(big.sessions_left_out).toBe(3);
    expect(big.total).toBe(SESSIONS_LIMIT + 3);
  });
});

describe('the page', () => {
  it('has no inline script or style, escapes its title and token, and its script builds no markup from text', () => {
    const page = livePage('to"ken<', 'agent-session: <b>x</b>');
    expect(page).not.toMatch(/<script>|<style>|\sstyle=|\son\w+=/);
    expect(page).toContain('content="to&quot;ken&lt;"');
    expect(page).toContain('agent-session: &lt;b&gt;x&lt;/b&gt;');
    expect(LIVE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});
