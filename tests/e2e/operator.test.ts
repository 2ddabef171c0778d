import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const PRE_DELEGATE = join(ROOT, 'dist', 'pre-delegate.cjs');

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  // The default layout: the store is <project>/.claude/session and the config <project>/.claude/agent-session.json.
  env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    CLAUDE_PROJECT_DIR: dir,
    AGENT_SESSION_DIR: '',
    AGENT_SESSION_CONFIG: '',
    NO_COLOR: '',
  };
  for (const name of [
    'AGENT_SESSION_RESUME_TIMEOUT_MINUTES',
    'AGENT_SESSION_MAX_ERRORS',
    'AGENT_SESSION_CLEANUP_HOURS',
    'AGENT_SESSION_HISTORY_CAP',
    'AGENT_SESSION_LOG_LEVEL',
  ])
    delete env[name];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[], extra: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' });
}

function hook(input: unknown, extra: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [PRE_DELEGATE], {
    cwd: dir,
    env: { ...env, ...extra },
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
}

function create(agent = 'terraform-architect'): string {
  const result = cli(['create', '--agent', agent, '--purpose', 'approval_workflow']);
  expect(result.status).toBe(0);
  return result.stdout.trim();
}

function writeConfig(content: unknown): void {
  const claude = join(dir, '.claude');
  spawnSync('mkdir', ['-p', claude]);
  writeFileSync(join(claude, 'agent-session.json'), typeof content === 'string' ? content : JSON.stringify(content));
}

describe('stats', () => {
  it('counts outcomes and the resumes pre-delegate approved, as JSON and as a table', () => {
    const a = create('alpha');
    const b = create('alpha');
    const c = create('beta');
    expect(cli(['update', a, '--phase', 'approval']).status).toBe(0);
    const answer = JSON.parse(hook({ agent_name: 'alpha', agent_id: a }).stdout);
    expect(answer.should_resume).toBe(true);
    // The answer shows the state the decision saw; the session's history now holds the resume it recorded.
    expect(answer.resume_metadata.history.at(-1)).toMatchObject({ from_phase: 'initializing', to_phase: 'approval' });
    expect(JSON.parse(cli(['get', a]).stdout).history.at(-1)).toMatchObject({
      from_phase: 'approval',
      to_phase: 'approval',
      event: 'resume',
    });
    expect(cli(['finalize', a, 'completed']).status).toBe(0);
    expect(cli(['finalize', b, 'failed']).status).toBe(0);
    expect(cli(['update', c, '--error', 'boom']).status).toBe(0);
    // A refused resume records nothing.
    expect(JSON.parse(hook({ agent_name: 'beta', agent_id: c }).stdout).should_resume).toBe(false);

    const result = cli(['stats', '--json']);
    expect(result.status).toBe(0);
    const stats = JSON.parse(result.stdout);
    expect(stats.overall).toMatchObject({
      sessions: 3,
      active: 1,
      completed: 1,
      failed: 1,
      abandoned: 0,
      success_rate: 0.5,
      resumes: 1,
      resume_rate: 0.333,
      by_error_count: { 0: 2, 1: 1 },
    });
    expect(stats.agents.alpha).toMatchObject({ sessions: 2, resumes: 1, resume_rate: 0.5 });
    expect(stats.agents.beta).toMatchObject({ sessions: 1, resumes: 0, active: 1 });
    expect(typeof stats.overall.mean_duration_seconds).toBe('number');

    const byAgent = JSON.parse(cli(['stats', '--json', '--agent', 'beta']).stdout);
    expect(Object.keys(byAgent.agents)).toEqual(['beta']);
    expect(byAgent.overall.sessions).toBe(1);

    const table = cli(['stats']);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^AGENT\s+SESSIONS/);
    expect(table.stdout).toMatch(/\nalpha\s+2\s/);
    expect(table.stdout).toMatch(/\(all\)\s+3\s/);
    expect(table.stdout).toMatch(/ago\n/);
  });

  it('filters with --since and refuses a bad window with exit 2', () => {
    create();
    expect(JSON.parse(cli(['stats', '--json', '--since', '1h']).stdout).overall.sessions).toBe(1);
    expect(JSON.parse(cli(['stats', '--json', '--since', '2999-01-01T00:00:00Z']).stdout).overall.sessions).toBe(0);
    expect(cli(['stats', '--since', 'yesterday']).status).toBe(2);
    // Past the earliest time a Date holds, or a day that does not exist: a usage error, not an I/O error.
    for (const since of ['99999999999d', '2026-02-30']) {
      const refused = cli(['stats', '--since', since]);
      expect(refused.status).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringContaining(since)]);
    }
  });

  it('still counts the resumes the history cap dropped', () => {
    writeConfig({ history_cap: 3 });
    const id = create();
    expect(cli(['update', id, '--phase', 'planning']).status).toBe(0);
    expect(JSON.parse(hook({ agent_name: 'terraform-architect', agent_id: id }).stdout).should_resume).toBe(true);
    for (const phase of ['approval', 'planning', 'approval', 'planning', 'approval'])
      expect(cli(['update', id, '--phase', phase]).status).toBe(0);
    const state = JSON.parse(cli(['get', id]).stdout);
    expect(state.history.some((entry: { event?: string }) => entry.event === 'resume')).toBe(false);
    expect(state.resumes_dropped).toBe(1);
    expect(JSON.parse(cli(['stats', '--json']).stdout).overall.resumes).toBe(1);
  });
});

describe('export and import', () => {
  it('round-trips a session, refuses a duplicate id, and imports under a new id with --new-id', () => {
    const id = create();
    expect(cli(['update', id, '--phase', 'planning', '--metadata', '{"task_id":"T1"}']).status).toBe(0);
    const exported = cli(['export', id]);
    expect(exported.status).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.format).toBe('agent-session/1');
    expect(typeof document.exported_at).toBe('string');
    expect(document.session).toEqual(JSON.parse(cli(['get', id]).stdout));

    const file = join(dir, 'export.json');
    expect(cli(['export', id, '--out', file]).status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).session.agent_id).toBe(id);
    // --out never overwrites.
    expect(cli(['export', id, '--out', file]).status).toBe(4);

    const before = cli(['get', id]).stdout;
    expect(cli(['import', file]).status).toBe(4);
    expect(cli(['get', id]).stdout).toBe(before);

    const copy = cli(['import', file, '--new-id']);
    expect(copy.status).toBe(0);
    const newId = copy.stdout.trim();
    expect(newId).not.toBe(id);
    const imported = JSON.parse(cli(['get', newId]).stdout);
    expect(imported).toEqual({ ...document.session, agent_id: newId });

    // Into an empty store, the original id is kept.
    const other = join(dir, 'other');
    const into = cli(['import', file, '--dir', other]);
    expect(into.status).toBe(0);
    expect(into.stdout.trim()).toBe(id);
  });

  it('validates with the store schema and refuses what is not an export', () => {
    const id = create();
    const document = JSON.parse(cli(['export', id]).stdout);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...document, session: { ...document.session, phase: 'dancing' } }));
    expect(cli(['import', bad, '--new-id']).status).toBe(4);
    writeFileSync(bad, JSON.stringify({ ...document, format: 'other/1' }));
    expect(cli(['import', bad]).status).toBe(2);
    writeFileSync(bad, '{not json');
    expect(cli(['import', bad]).status).toBe(2);
    expect(cli(['import', join(dir, 'missing.json')]).status).toBe(2);
    expect(cli(['export', 'no-such-session']).status).toBe(3);
    expect(JSON.parse(cli(['list', '--json']).stdout)).toHaveLength(1);
  });

  it('refuses a session the machine could not have produced, and stores nothing', () => {
    const id = create();
    expect(cli(['finalize', id, 'completed']).status).toBe(0);
    const document = JSON.parse(cli(['export', id]).stdout);
    const bad = join(dir, 'bad.json');
    const { finalized_at: _dropped, ...unfinalized } = document.session;
    for (const session of [
      unfinalized,
      { ...document.session, resume_ready: true },
      { ...document.session, history: [{ ...document.session.history[0], from_phase: 'planning' }] },
    ]) {
      writeFileSync(bad, JSON.stringify({ ...document, session }));
      const refused = cli(['import', bad, '--new-id']);
      expect(refused.status).toBe(4);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(JSON.parse(cli(['list', '--json']).stdout)).toHaveLength(1);
  });
});

describe('config', () => {
  it('prints defaults, file values and environment overrides with their sources', () => {
    writeConfig({ resume_timeout_minutes: 10, history_cap: 50 });
    const result = cli(['config', '--json'], { AGENT_SESSION_HISTORY_CAP: '7' });
    expect(result.status).toBe(0);
    const config = JSON.parse(result.stdout);
    expect(config.file).toEqual({ path: join(dir, '.claude', 'agent-session.json'), found: true });
    expect(config.settings.resume_timeout_minutes).toEqual({
      value: 10,
      source: { kind: 'file', path: join(dir, '.claude', 'agent-session.json') },
    });
    expect(config.settings.history_cap).toEqual({
      value: 7,
      source: { kind: 'env', variable: 'AGENT_SESSION_HISTORY_CAP' },
    });
    expect(config.settings.max_errors).toEqual({ value: 3, source: { kind: 'default' } });
    const table = cli(['config']);
    expect(table.stdout).toMatch(/resume_timeout_minutes\s+10\s+file /);
    expect(table.stdout).toMatch(/max_errors\s+3\s+default/);
  });

  it('AGENT_SESSION_CONFIG points at another file', () => {
    const file = join(dir, 'elsewhere.json');
    writeFileSync(file, JSON.stringify({ log_level: 'warn' }));
    const config = JSON.parse(cli(['config', '--json'], { AGENT_SESSION_CONFIG: file }).stdout);
    expect(config.settings.log_level.value).toBe('warn');
    // A named file that is not there is an error, not a silent fall back to the defaults.
    const missing = cli(['config'], { AGENT_SESSION_CONFIG: join(dir, 'missing.json') });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('AGENT_SESSION_CONFIG');
    const answer = hook({ agent_name: 'x' }, { AGENT_SESSION_CONFIG: join(dir, 'missing.json') });
    expect(answer.status).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({ should_resume: false, reason: 'no_existing_session' });
  });

  it('refuses an invalid file or variable with exit 2, and the hooks still answer with the defaults', () => {
    writeConfig({ history_cap: 0 });
    expect(cli(['config']).status).toBe(2);
    expect(cli(['list']).status).toBe(2);
    writeConfig('{"history_cap": ');
    expect(cli(['config']).status).toBe(2);
    writeConfig({ histroy_cap: 5 });
    expect(cli(['config']).status).toBe(2);
    const answer = hook({ agent_name: 'x' });
    expect(answer.status).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({ should_resume: false, reason: 'no_existing_session' });
    writeConfig({});
    expect(cli(['config'], { AGENT_SESSION_MAX_ERRORS: 'three' }).status).toBe(2);
    expect(cli(['config'], { AGENT_SESSION_HISTORY_CAP: '0x10' }).status).toBe(2);
  });

  it('applies the configured limits, history cap and cleanup retention', () => {
    writeConfig({ max_errors: 1, history_cap: 3, cleanup_hours: 0 });
    const id = create();
    expect(cli(['update', id, '--phase', 'approval', '--error', 'x']).status).toBe(0);
    expect(cli(['should-resume', id]).stdout.trim()).toBe('false too_many_errors');
    for (const phase of ['planning', 'approval', 'planning', 'approval'])
      expect(cli(['update', id, '--phase', phase]).status).toBe(0);
    const state = JSON.parse(cli(['get', id]).stdout);
    expect(state.history).toHaveLength(3);
    expect(state.history_dropped).toBe(2);
    expect(state.history.at(-1).to_phase).toBe(state.phase);
    // cleanup without --hours uses cleanup_hours (0: everything idle at all); --dry-run removes nothing.
    const dry = JSON.parse(cli(['cleanup', '--dry-run', '--json']).stdout);
    expect(dry).toMatchObject({ hours: 0, removed: [id] });
  });

  it('log_level silent keeps the hook log empty', () => {
    writeConfig({ log_level: 'silent' });
    expect(hook({ agent_name: 'x' }).status).toBe(0);
    expect(existsSync(join(dir, '.claude', 'logs', 'pre_delegate.log'))).toBe(false);
    writeConfig({});
    expect(hook({ agent_name: 'x' }).status).toBe(0);
    expect(readFileSync(join(dir, '.claude', 'logs', 'pre_delegate.log'), 'utf8')).toContain('no_existing_session');
  });
});

describe('completion, version and colour', () => {
  it('prints a bash script that completes commands through the bin', () => {
    const script = cli(['completion'], { SHELL: '/bin/bash' });
    expect(script.status).toBe(0);
    expect(script.stdout).toContain(
      'complete -o bashdefault -o default -F _agent-session_yargs_completions agent-session',
    );
    const file = join(dir, 'completion.bash');
    writeFileSync(file, script.stdout);
    // A wrapper named agent-session on PATH, as `npm link` would install.
    const bin = join(dir, 'bin');
    spawnSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'agent-session'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    const run = spawnSync(
      'bash',
      [
        '-c',
        `source ${file}; COMP_WORDS=(agent-session st); COMP_CWORD=1; _agent-session_yargs_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      {
        cwd: dir,
        env: { ...env, PATH: `${bin}:${env.PATH}` },
        encoding: 'utf8',
      },
    );
    expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual(['stats', 'statusline']);
  });

  it('prints a zsh script when the shell is zsh', () => {
    const script = cli(['completion'], { SHELL: '/usr/bin/zsh' });
    expect(script.status).toBe(0);
    expect(script.stdout).toContain('#compdef agent-session');
    expect(script.stdout).toContain('agent-session --get-yargs-completions');
  });

  it('takes the shell by name, whatever $SHELL says', () => {
    const zsh = cli(['completion', 'zsh'], { SHELL: '/bin/bash' });
    expect(zsh.status).toBe(0);
    expect(zsh.stdout).toContain('#compdef agent-session');
    const bash = cli(['completion', 'bash'], { SHELL: '/usr/bin/zsh' });
    expect(bash.status).toBe(0);
    expect(bash.stdout).toContain(
      'complete -o bashdefault -o default -F _agent-session_yargs_completions agent-session',
    );
    const fish = cli(['completion', 'fish']);
    expect(fish.status).toBe(2);
    expect(fish.stdout).toBe('');
    expect(fish.stderr.trim().split('\n')).toEqual([expect.stringContaining('`fish`')]);
  });

  it('lists every command for completion', () => {
    const result = cli(['--get-yargs-completions', 'agent-session', '']);
    expect(result.stdout.split('\n')).toEqual(
      expect.arrayContaining(['stats', 'export', 'import', 'config', 'completion', 'list']),
    );
  });

  it('keeps --version', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(cli(['--version']).stdout.trim()).toBe(version);
  });

  it('prints no colour codes into a pipe', () => {
    create();
    for (const args of [['list'], ['stats'], ['config']]) expect(cli(args).stdout).not.toContain('\u001b[');
  });

  // `script` gives the CLI a real terminal; without it the pipe test above still runs.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('colours a terminal, except with NO_COLOR', () => {
    create();
    const inTerminal = (extra: NodeJS.ProcessEnv): string =>
      spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" list`, '/dev/null'], {
        cwd: dir,
        env: { ...env, ...extra },
        encoding: 'utf8',
      }).stdout;
    expect(inTerminal({})).toContain('\u001b[');
    expect(inTerminal({ NO_COLOR: '1' })).not.toContain('\u001b[');
  });
});
