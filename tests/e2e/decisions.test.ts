import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';

// show, pending, approve, reject, should-resume --explain, machine and stats through the built CLI, as a user runs
// them, each test in its own project folder (the default store: <project>/.claude/session).
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-decisions-'));
  mkdirSync(join(dir, '.claude'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const projectEnv = (extra: Record<string, string | undefined> = {}) => ({
  CLAUDE_PROJECT_DIR: dir,
  AGENT_SESSION_CONFIG: undefined,
  USER: 'carol',
  ...extra,
});
// approve and reject as a user runs them: outside any agent's shell (the test runner may run in one).
const cli = (args: readonly string[], extra: Record<string, string | undefined> = {}) =>
  ['approve', 'reject'].includes(args[0]!)
    ? runOutsideAgent(BIN.cli, args, { cwd: dir, env: projectEnv(extra) })
    : run(BIN.cli, args, { cwd: dir, env: projectEnv(extra) });
const osUser = userInfo().username;
const preDelegate = (input: unknown) =>
  run(BIN.preDelegate, [], { cwd: dir, env: projectEnv(), input: JSON.stringify(input) });

function waiting(agent = 'terraform-architect', metadata = '{"plan":"3 storage buckets"}'): string {
  const id = cli(['create', '--agent', agent, '--purpose', 'approval_workflow']).stdout.trim();
  expect(cli(['update', id, '--phase', 'approval', '--metadata', metadata]).status).toBe(0);
  return id;
}

const stateOf = (id: string) => JSON.parse(cli(['get', id]).stdout);

describe('approve and reject', () => {
  it('approve records the decision and moves to executing in one write; pending no longer lists it', () => {
    const id = waiting();
    expect(cli(['pending', '--json']).stdout).toContain(id);
    const approved = cli(['approve', id, '--note', 'ship it']);
    expect(approved.status).toBe(0);
    // The decider is the OS user, never $USER (carol here): the environment is the caller's to set.
    expect(approved.stdout).toBe(
      `Approved session ${id} by ${osUser} (OS user, recorded without a terminal): phase executing\n`,
    );
    const state = stateOf(id);
    // Version 13 for the decision's seal (issue 40 item 3: the MAC of this user's key).
    expect(state).toMatchObject({ phase: 'executing', schema_version: 13 });
    expect(state.decisions).toEqual([
      expect.objectContaining({
        decision: 'approved',
        by: osUser,
        note: 'ship it',
        to_phase: 'executing',
        origin: { os_user: osUser, terminal: false, claimed: false },
      }),
    ]);
    expect(state.history.at(-1).timestamp).toBe(state.decisions[0].at);
    expect(JSON.parse(cli(['pending', '--json']).stdout)).toEqual([]);
    // The agent picks the approval up once: the next delegation resumes it in executing and is told the decision.
    const ask = () => JSON.parse(preDelegate({ agent_name: 'terraform-architect' }).stdout);
    const first = ask();
    expect(first).toMatchObject({ should_resume: true, agent_id: id });
    expect(first.resume_metadata).toMatchObject({ previous_phase: 'executing', decision: { decision: 'approved' } });
    expect(ask()).toMatchObject({ should_resume: false, reason: 'phase_not_resumable' });
    const stats = JSON.parse(cli(['stats', '--json']).stdout);
    expect(stats.overall).toMatchObject({ approvals: 1, rejections: 0 });
    expect(stats.overall.median_decision_seconds).toEqual(expect.any(Number));
  });

  it('reject sends it back to planning, and the resume context of both hook protocols tells the decision', () => {
    const id = waiting();
    const rejected = cli(['reject', id, '--by', 'alice', '--reason', 'split it in two']);
    expect(rejected.status).toBe(0);
    expect(stateOf(id)).toMatchObject({ phase: 'planning', resume_ready: true });
    const hook = preDelegate({ agent_name: 'terraform-architect', agent_id: id });
    const answer = JSON.parse(hook.stdout);
    expect(answer.should_resume).toBe(true);
    expect(answer.resume_metadata.decision).toMatchObject({
      decision: 'rejected',
      by: 'alice',
      note: 'split it in two',
      to_phase: 'planning',
    });
  });

  it('reject --to abandoned ends the session with the reason as summary', () => {
    const id = waiting();
    expect(cli(['reject', id, '--reason', 'not needed', '--to', 'abandoned']).status).toBe(0);
    expect(stateOf(id)).toMatchObject({ phase: 'abandoned', summary: `Rejected by ${osUser}: not needed` });
  });

  it.each([
    ['approve of a session not in approval', 4, 'planning', (id: string) => ['approve', id]],
    ['reject of a session not in approval', 4, 'planning', (id: string) => ['reject', id, '--reason', 'x']],
    ['reject without a reason', 2, 'approval', (id: string) => ['reject', id]],
    ['reject with a blank reason', 2, 'approval', (id: string) => ['reject', id, '--reason', '  ']],
    ['reject --to executing', 2, 'approval', (id: string) => ['reject', id, '--reason', 'x', '--to', 'executing']],
    ['approve --by ""', 2, 'approval', (id: string) => ['approve', id, '--by', '']],
    ['approve of an unknown id', 3, 'approval', () => ['approve', 'no-such-session']],
    ['approve of a bad id', 2, 'approval', () => ['approve', '../x']],
  ] as const)('%s: exit %d, one line on stderr, nothing written', (_label, code, phase, args) => {
    const id = waiting();
    if (phase === 'planning') cli(['update', id, '--phase', 'planning']);
    const before = readFileSync(join(dir, '.claude', 'session', id, 'state.json'), 'utf8');
    const result = cli(args(id));
    expect(result.status).toBe(code);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, '.claude', 'session', id, 'state.json'), 'utf8')).toBe(before);
  });

  // Containers, CI and cron often set neither: the OS user comes from the password database, not the environment.
  it('without USER or LOGNAME, approve records the OS user (exit 0)', () => {
    const id = waiting();
    const result = cli(['approve', id], { USER: undefined, LOGNAME: undefined });
    expect(result.status).toBe(0);
    expect(stateOf(id).decisions[0]).toMatchObject({ by: osUser, origin: { os_user: osUser, claimed: false } });
  });
});

describe('show, pending, should-resume --explain', () => {
  it('show tells the story; --json gives the same facts', () => {
    const id = waiting();
    cli(['reject', id, '--reason', 'again']);
    cli(['update', id, '--phase', 'approval']);
    const text = cli(['show', id]);
    expect(text.status).toBe(0);
    for (const part of [
      `Session        ${id}`,
      'Resume now     yes (session_resumable)',
      'rejected',
      'Timeline',
      'Decisions',
    ])
      expect(text.stdout).toContain(part);
    expect(text.stdout).toMatch(/idle \d+ seconds? of 30 minutes allowed/);
    const json = JSON.parse(cli(['show', id, '--json']).stdout);
    expect(json.session.agent_id).toBe(id);
    expect(json.resume).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    expect(json.timeline.spans.map((span: { phase: string }) => span.phase)).toEqual([
      'initializing',
      'approval',
      'planning',
      'approval',
    ]);
  });

  it('should-resume --explain gives the facts: idle past the timeout, errors at the limit', () => {
    const id = waiting();
    for (const n of [1, 2, 3]) cli(['update', id, '--error', `e${n}`]);
    const result = cli(['should-resume', id, '--explain'], { AGENT_SESSION_RESUME_TIMEOUT_MINUTES: '30' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('false too_many_errors\n');
    expect(result.stdout).toContain('  NO  3 errors of 3\n');
    const json = JSON.parse(cli(['should-resume', id, '--explain', '--json']).stdout);
    expect(json.checks.find((check: { rule: string }) => check.rule === 'errors')).toMatchObject({
      ok: false,
      value: 3,
      limit: 3,
    });
  });

  it('a corrupt session: show exits 4 and should-resume --explain names the path, never the content', () => {
    const id = waiting();
    const file = join(dir, '.claude', 'session', id, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...state, phase: 'sk-secret-123' }));
    const shown = cli(['show', id]);
    expect(shown.status).toBe(4);
    expect(shown.stderr).toContain('phase');
    expect(shown.stderr).not.toContain('sk-secret-123');
    const explained = cli(['should-resume', id, '--explain']);
    expect(explained.stdout).toMatch(/^false invalid_state\n {2}problem: .*phase/);
    expect(explained.stdout).not.toContain('sk-secret-123');
  });

  it('pending lists waiting sessions newest first with what they wait on; hostile text is escaped', () => {
    const first = waiting('planner', '{"plan":"line one\\nline two \\u001b[31mred"}');
    const second = waiting('<img src=x onerror=alert(1)>', '{"findings":"two issues"}');
    const result = cli(['pending'], { COLUMNS: '200' });
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^ID +AGENT +WAITING +EXPIRES +DECIDE +WAITS ON$/);
    expect(lines[2]).toContain(`agent-session approve ${second.slice(-8)}`);
    expect(lines[3]).toContain(`agent-session approve ${first.slice(-8)}`);
    expect(lines[3]).toContain('plan: line one line two \\u001b[31mred');
    expect(result.stdout).not.toContain('\u001b');
  });
});

describe('machine', () => {
  it('prints the table, --mermaid and --json from the definition; both flags at once is exit 2', () => {
    expect(cli(['machine']).stdout).toContain('| approval | investigating, planning, executing |');
    expect(cli(['machine', '--mermaid']).stdout).toMatch(/^stateDiagram-v2\n {2}\[\*\] --> initializing\n/);
    const json = JSON.parse(cli(['machine', '--json']).stdout);
    expect(json.final_states).toEqual(['completed', 'failed', 'abandoned']);
    expect(cli(['machine', '--json', '--mermaid']).status).toBe(2);
  });
});
