// Issue 10 items 2, 3, 11, 16: what the hooks write. No link is followed on write, no log line is runnable shell
// text, every folder and file is private whatever the umask, a mistyped project folder is never created, and the
// logs are capped. Every case runs the built bins in its own temp folder with its own HOME.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const BIN = {
  cli: join(ROOT, 'dist', 'agent-session.cjs'),
  pre: join(ROOT, 'dist', 'pre-delegate.cjs'),
  stop: join(ROOT, 'dist', 'subagent-stop.cjs'),
} as const;

let dir: string;
let home: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  home = join(dir, 'home');
  project = join(dir, 'project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(
  bin: string,
  args: readonly string[],
  input: unknown,
  extra: NodeJS.ProcessEnv = {},
  mask?: string,
): SpawnSyncReturns<string> {
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    AGENT_SESSION_DIR: '',
    AGENT_SESSION_LOG_DIR: '',
    AGENT_SESSION_CONFIG: '',
    AGENT_SESSION_LOG_MAX_BYTES: '',
    ...extra,
  };
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  const options = { cwd: project, env, input: text, encoding: 'utf8' } as const;
  if (mask === undefined) return spawnSync(process.execPath, [bin, ...args], options);
  return spawnSync('sh', ['-c', `umask ${mask}; exec "$@"`, 'sh', process.execPath, bin, ...args], options);
}

const preToolUse = (subagentType: string) => ({
  session_id: 'abc123',
  transcript_path: '/x.jsonl',
  cwd: project,
  hook_event_name: 'PreToolUse',
  tool_name: 'Agent',
  tool_input: { description: 'd', prompt: 'p', subagent_type: subagentType },
  tool_use_id: 'toolu_1',
});
const subagentStart = (agentId: string) => ({
  session_id: 'abc123',
  transcript_path: '/x.jsonl',
  cwd: project,
  hook_event_name: 'SubagentStart',
  agent_id: agentId,
  agent_type: 'Explore',
});

/** Exit 0 and at most one JSON object on stdout: the hook answered. */
function answered(result: SpawnSyncReturns<string>): void {
  expect(result.status).toBe(0);
  const lines = result.stdout.split('\n').filter(Boolean);
  expect(lines.length).toBeLessThanOrEqual(1);
  for (const line of lines) expect(typeof JSON.parse(line)).toBe('object');
}

function logLines(): string[] {
  const logs = join(project, '.claude', 'logs');
  // The log folder's .gitignore (keeping it out of git) is no log.
  return readdirSync(logs)
    .filter((name) => name !== '.gitignore')
    .flatMap((name) => readFileSync(join(logs, name), 'utf8').split('\n').filter(Boolean));
}

describe('log lines are never shell', () => {
  const HOSTILE: readonly (readonly [string, string, unknown])[] = [
    ['seed agent_name $(…)', BIN.pre, { agent_name: '$(touch ~/pwned)' }],
    [
      'seed backticks, quotes, newline',
      BIN.pre,
      { agent_name: 'a" `touch ~/pwned3` "\necho; touch ~/pwned6', task_id: "';touch ~/p4;'" },
    ],
    ['seed agent_id for subagent-stop', BIN.stop, { agent_id: '$(touch ~/pwned7)' }],
    ['Claude Code subagent_type x;…;', BIN.pre, preToolUse('x;touch ~/pwned2;')],
    ['Claude Code subagent_type $(…)', BIN.pre, preToolUse('$(touch ~/pwned5)')],
  ];

  it.each(HOSTILE)('%s: one line, and running it in a shell creates nothing', (_name, bin, input) => {
    answered(run(bin, [], input));
    const lines = logLines();
    expect(lines).toHaveLength(1);
    for (const line of lines) {
      const shell = spawnSync('bash', ['-c', line], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: home },
        encoding: 'utf8',
      });
      expect(shell.error).toBeUndefined();
    }
    expect(readdirSync(home)).toEqual([]);
    expect(lines[0]).not.toMatch(/[$`]/);
  });
});

describe('no link is followed on write', () => {
  it('a log that is a link to ~/.bashrc is refused once on stderr; the hook still answers; .bashrc is unchanged', () => {
    writeFileSync(join(home, '.bashrc'), 'export A=1\n');
    mkdirSync(join(project, '.claude', 'logs'), { recursive: true });
    symlinkSync(join(home, '.bashrc'), join(project, '.claude', 'logs', 'pre_delegate.log'));
    const result = run(BIN.pre, [], { agent_name: '$(touch ~/pwned)' });
    answered(result);
    expect(JSON.parse(result.stdout)).toMatchObject({ should_resume: false, reason: 'no_existing_session' });
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/symbolic link/);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('export A=1\n');
  });

  it('a logs folder that is a link: nothing is written where it points', () => {
    mkdirSync(join(project, '.claude'));
    symlinkSync(home, join(project, '.claude', 'logs'));
    answered(run(BIN.pre, [], { agent_name: 'a' }));
    expect(readdirSync(home)).toEqual([]);
  });

  it('.agents and .claude-agents as links: no pointer, lock or temp file lands where they point; answers still right', () => {
    const made = run(BIN.cli, ['create', '--agent', 'Explore', '--purpose', 'p'], '');
    expect(made.status).toBe(0);
    const id = made.stdout.trim();
    expect(run(BIN.cli, ['update', id, '--phase', 'planning'], '').status).toBe(0);
    const store = join(project, '.claude', 'session');
    rmSync(join(store, '.agents'), { recursive: true, force: true });
    mkdirSync(join(home, 'a'));
    mkdirSync(join(home, 'c'));
    symlinkSync(join(home, 'a'), join(store, '.agents'));
    symlinkSync(join(home, 'c'), join(store, '.claude-agents'));
    const byName = run(BIN.pre, [], { agent_name: 'Explore' });
    answered(byName);
    expect(JSON.parse(byName.stdout)).toMatchObject({ should_resume: true, agent_id: id });
    answered(run(BIN.pre, [], subagentStart('claude-agent-1')));
    expect(JSON.parse(run(BIN.cli, ['get', id], '').stdout)).toMatchObject({ claude: { agent_id: 'claude-agent-1' } });
    expect({ a: readdirSync(join(home, 'a')), c: readdirSync(join(home, 'c')) }).toEqual({ a: [], c: [] });
    // cleanup does not sweep through the linked pointer folder either.
    writeFileSync(join(home, 'c', 'ff'), 'nothing');
    expect(run(BIN.cli, ['cleanup', '--hours', '24'], '').status).toBe(0);
    expect(readdirSync(join(home, 'c'))).toEqual(['ff']);
  });
});

describe('a linked .claude/ or store root: nothing is written through it', () => {
  it.each([
    [
      'SubagentStart through a linked .claude/',
      '.claude',
      BIN.pre,
      [] as string[],
      subagentStart('a0123456789abcdef'),
      0,
    ],
    ['create through a linked .claude/', '.claude', BIN.cli, ['create', '--agent', 'a', '--purpose', 'p'], '', 4],
    [
      'SubagentStart through a linked store root',
      '.claude/session',
      BIN.pre,
      [] as string[],
      subagentStart('a0123456789abcdef'),
      0,
    ],
    [
      'create through a linked store root',
      '.claude/session',
      BIN.cli,
      ['create', '--agent', 'a', '--purpose', 'p'],
      '',
      4,
    ],
  ])(
    '%s: refused (hooks fail open), one stderr line, nothing lands where it points',
    (_name, linked, bin, args, input, status) => {
      const out = join(dir, 'out');
      mkdirSync(out);
      mkdirSync(join(project, linked, '..'), { recursive: true });
      symlinkSync(out, join(project, linked));
      const result = run(bin, args, input);
      expect(result.status).toBe(status);
      if (status === 0) expect(result.stdout).toBe('');
      // One line saying so: on stderr, or in the hook's log when the log folder itself is real.
      const said = linked === '.claude' || bin === BIN.cli ? result.stderr.trimEnd().split('\n') : logLines();
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/symbolic link/);
      expect(readdirSync(out)).toEqual([]);
    },
  );

  it('--dir at the real folder still works', () => {
    const out = join(dir, 'out');
    mkdirSync(join(out, 'session'), { recursive: true });
    mkdirSync(join(project, '.claude'), { recursive: true });
    symlinkSync(out, join(project, '.claude', 'x'));
    expect(run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'p', '--dir', join(out, 'session')], '').status).toBe(
      0,
    );
  });
});

describe('private whatever the umask', () => {
  it('under umask 000 every folder is 0700 and every file 0600 (store, .agents, .claude-agents, logs, pointers)', () => {
    const made = run(BIN.cli, ['create', '--agent', 'Explore', '--purpose', 'p'], '', {}, '000');
    expect(made.status).toBe(0);
    expect(run(BIN.cli, ['update', made.stdout.trim(), '--phase', 'planning'], '', {}, '000').status).toBe(0);
    answered(run(BIN.pre, [], { agent_name: 'Explore' }, {}, '000'));
    answered(run(BIN.pre, [], subagentStart('claude-agent-2'), {}, '000'));
    answered(run(BIN.stop, [], { agent_id: 'nope' }, {}, '000'));
    const modes: Record<string, string> = {};
    const walk = (path: string, name: string): void => {
      const stats = lstatSync(path);
      modes[name] = (stats.mode & 0o777).toString(8);
      if (stats.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry), `${name}/${entry}`);
    };
    walk(join(project, '.claude'), '.claude');
    const names = Object.keys(modes);
    const session = '.claude/session';
    const expected = [
      session,
      `${session}/.agents`,
      `${session}/.claude-agents`,
      '.claude/logs',
      '.claude/logs/pre_delegate.log',
    ];
    for (const name of expected) expect(names).toContain(name);
    const wrong = Object.entries(modes).filter(
      ([name, mode]) => mode !== (statSync(join(project, name)).isDirectory() ? '700' : '600'),
    );
    expect(wrong).toEqual([]);
  });
});

describe('a mistyped project folder is never created', () => {
  it.each([
    ['seed pre-delegate by name', BIN.pre, { agent_name: 'a' }],
    ['seed pre-delegate by id', BIN.pre, { agent_name: 'a', agent_id: 'some-id' }],
    ['seed subagent-stop', BIN.stop, { agent_id: 'some-id' }],
    ['Claude Code PreToolUse', BIN.pre, preToolUse('Explore')],
    ['Claude Code SubagentStart (which would create a session)', BIN.pre, subagentStart('claude-agent-3')],
  ])('%s: answers, and creates no folder for it', (_name, bin, input) => {
    const typo = join(dir, 'projcet');
    answered(run(bin, [], input, { CLAUDE_PROJECT_DIR: typo }));
    expect(existsSync(typo)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['home', 'project']);
  });
});

describe('hook logs are capped', () => {
  it.each([
    ['the variable', { AGENT_SESSION_LOG_MAX_BYTES: '400' }, null],
    ['the config file', {}, { log_max_bytes: 400 }],
  ])('through %s: past the size the log rotates to one .1 file', (_name, extra, config) => {
    if (config !== null) {
      mkdirSync(join(project, '.claude'), { recursive: true });
      writeFileSync(join(project, '.claude', 'agent-session.json'), JSON.stringify(config));
    }
    for (let i = 0; i < 12; i++) answered(run(BIN.pre, [], { agent_name: `agent-${i}` }, extra));
    const logs = join(project, '.claude', 'logs');
    expect(readdirSync(logs).sort()).toEqual(['.gitignore', 'pre_delegate.log', 'pre_delegate.log.1']);
    for (const name of readdirSync(logs).filter((n) => n !== '.gitignore'))
      expect(statSync(join(logs, name)).size).toBeLessThanOrEqual(400);
    // The newest line is in the current log, and the rotated one holds whole lines.
    expect(readFileSync(join(logs, 'pre_delegate.log'), 'utf8')).toContain('agent-11');
    expect(readFileSync(join(logs, 'pre_delegate.log.1'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('an invalid size is refused like any setting (exit 2 in the CLI)', () => {
    const result = run(BIN.cli, ['config'], '', { AGENT_SESSION_LOG_MAX_BYTES: '1.5' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/AGENT_SESSION_LOG_MAX_BYTES/);
  });
});
