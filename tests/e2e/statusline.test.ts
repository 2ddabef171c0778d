import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';

// Issue 44 item 2: `agent-session statusline`, for Claude Code's statusLine setting: how many sessions are parked and
// how many decisions wait for the person, in one line, nothing when nothing is parked; run in the project folder, as
// Claude Code runs it, with the JSON Claude Code sends on stdin; its own HOME.
let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-statusline-'));
  project = join(dir, 'project');
  mkdirSync(join(project, '.claude'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({ HOME: join(dir, 'home'), AGENT_SESSION_DIR: undefined, AGENT_SESSION_PROJECT: undefined });
// What Claude Code writes on the command's stdin (its docs' shape, shortened).
const claudeInput = () =>
  JSON.stringify({
    hook_event_name: 'Status',
    session_id: 's1',
    cwd: project,
    model: { id: 'claude-x', display_name: 'X' },
    workspace: { current_dir: project, project_dir: project },
  });
const cli = (args: readonly string[], input = '') => run(BIN.cli, args, { cwd: project, env: env(), input });
function ok(args: readonly string[]): string {
  const result = cli(args);
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}
function session(agent: string, phase: 'investigating' | 'approval', plan = 'p'): string {
  const id = ok(['create', '--agent', agent, '--purpose', 'statusline test']);
  if (phase === 'approval') ok(['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan })]);
  ok(['update', id, '--phase', phase]);
  return id;
}

it('prints nothing when nothing is parked, then how many are parked and how many wait for you', () => {
  const empty = cli(['statusline'], claudeInput());
  expect(empty).toMatchObject({ status: 0, stdout: '', stderr: '' });
  session('explorer', 'investigating');
  expect(cli(['statusline'], claudeInput()).stdout).toBe('1 parked\n');
  session('terraform-architect', 'approval');
  const line = cli(['statusline'], claudeInput());
  expect(line).toMatchObject({ status: 0, stdout: '2 parked · 1 waits for you\n', stderr: '' });
  // Every form of the words prints the same line: the quick path's, and the parser's.
  const store = join(project, '.claude', 'session');
  for (const args of [
    ['statusline', '--dir', store],
    [`statusline`, `--dir=${store}`],
    ['--dir', store, 'statusline'],
  ])
    expect(cli(args).stdout).toBe('2 parked · 1 waits for you\n');
  // A finished session is no longer parked.
  const done = session('reviewer', 'approval');
  expect(ok(['statusline'])).toBe('3 parked · 2 wait for you');
  ok(['approve', done]);
  ok(['finalize', done, 'completed']);
  expect(ok(['statusline'])).toBe('2 parked · 1 waits for you');
});

it.each([
  [['statusline', '--bogus'], 2, /got `--bogus`/],
  [['statusline', '--dir', ''], 2, /--dir/],
  [['statusline', 'extra'], 2, /extra/],
])('refuses %j: one line on stderr, exit %i, nothing on stdout', (args, status, message) => {
  const result = cli(args);
  expect(result.status).toBe(status);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
});

it('says once what is wrong with the configuration (exit 2), as every command does, never with a stack', () => {
  writeFileSync(join(project, '.claude', 'agent-session.json'), '{"resume_timeout_minutes": "soon"');
  const result = cli(['statusline']);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^agent-session: .*agent-session\.json/);
  expect(result.stderr).not.toMatch(/\n\s+at /);
});

it('is listed by --help', () => {
  expect(ok(['--help'])).toMatch(/^\s+agent-session statusline\s+One line for Claude Code's statusLine setting/m);
});
