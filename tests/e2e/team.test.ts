// Issues 32 and 44 (a team can adopt it; a team's set-up that holds, an uninstall that leaves nothing), end to end as
// a newcomer runs it: a fresh HOME that has Claude Code's own `~/.claude/`, a real git repository (`git init`), the
// built bins spawned from its subfolders, README's lines run as written (tests/support/install.ts), and the newest
// native Claude Code where the claim is about Claude Code.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN, binEnv, run, tempDir } from '../helpers';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';
import { PLUGIN_ID } from '../../src/cli/init/plugin-settings';
import { eventsOf, knownRows } from '../../src/core/events';
import { claudeCodeVersion } from '../../src/platform/host-version';
import { stringsIn } from '../host/claude-host';
import { startModelServer, type ModelServer } from '../host/model-server';
import { nativeClaude } from '../support/claude-native';
import {
  freshMachine,
  installedCli,
  installRoute,
  readmeInstall,
  runLine,
  type Machine,
  type Route,
} from '../support/install';

const base = tempDir();
let n = 0;

/** A fresh HOME (with `~/.claude/`, as every Claude Code user has) and a git repository `work/repo` inside it. */
function world(): { home: string; repo: string; env: Record<string, string | undefined> } {
  const home = join(base, `w${n++}`);
  mkdirSync(join(home, '.claude'), { recursive: true });
  // What a desktop HOME has already (the uninstall removes ours inside them, never the folders themselves).
  for (const folder of ['.cache', '.local/bin']) mkdirSync(join(home, folder), { recursive: true });
  const repo = join(home, 'work', 'repo');
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  git(repo, 'init', '-q');
  // This HOME's own user folders (not the test run's: tests/support/cache-dir.cjs).
  const env = {
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENT_SESSION_LOG_DIR: undefined,
    AGENT_SESSION_CACHE_DIR: undefined,
    XDG_DATA_HOME: undefined,
    XDG_CONFIG_HOME: undefined,
  };
  return { home, repo, env };
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  expect({ args, status: result.status, stderr: result.stderr }).toEqual({ args, status: 0, stderr: '' });
  return result.stdout;
}

/** How many hooks init wires for the Claude Code the PATH of `env` finds (an event it predates is left out). */
function wiredFor(env: Readonly<Record<string, string | undefined>>): number {
  return knownRows(eventsOf('claude-code'), 'claude-code', claudeCodeVersion(env)).length;
}

describe('item 3: the store is at the git top, never in ~/.claude nor above the repository', () => {
  it('a CLI run in a subfolder of a repository without .claude/ keeps its session at <top>/.claude/session', () => {
    const { home, repo, env } = world();
    // A stranger's `.claude/` above the repository does not capture the session either.
    mkdirSync(join(home, 'work', '.claude'));
    const cwd = join(repo, 'src', 'deep');
    const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd, env });
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: '' });
    const id = created.stdout.trim();
    expect(existsSync(join(repo, '.claude', 'session', id))).toBe(true);
    expect(readdirSync(join(home, '.claude'))).toEqual([]);
    expect(readdirSync(join(home, 'work', '.claude'))).toEqual([]);
    const config = run(BIN.cli, ['config'], { cwd, env });
    expect(config.stdout).toContain(join(repo, '.claude', 'session'));
  });

  it('outside any repository, without a .claude/ there: a refusal naming init (exit 2), nothing written', () => {
    const { home, env } = world();
    for (const cwd of [home, join(home, 'work')]) {
      const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd, env });
      expect(created.status).toBe(2);
      expect(created.stderr).toMatch(/^agent-session: .*`agent-session init`.*\n$/);
      expect(readdirSync(join(home, '.claude'))).toEqual([]);
      expect(existsSync(join(home, 'work', '.claude'))).toBe(false);
    }
  });

  it('outside any repository, a folder with its own .claude/ (init ran there) is the project', () => {
    const { home, env } = world();
    const folder = join(home, 'plain');
    mkdirSync(join(folder, '.claude'), { recursive: true });
    const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: folder, env });
    expect(created.status).toBe(0);
    expect(existsSync(join(folder, '.claude', 'session', created.stdout.trim()))).toBe(true);
  });

  it('init run from a subfolder wires the repository top, where Claude Code starts', () => {
    const { repo, env } = world();
    const result = run(BIN.cli, ['init'], { cwd: join(repo, 'src'), env });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(existsSync(join(repo, '.claude'))).toBe(true);
    expect(existsSync(join(repo, 'src', '.claude'))).toBe(false);
  });
});

/** A Claude Code payload of the fixtures, run in `repo` as Claude Code runs the hooks (CLAUDE_PROJECT_DIR). */
function hook(bin: string, name: string, repo: string, env: Record<string, string | undefined>) {
  const fixtures = resolve(__dirname, '../fixtures/claude-code');
  const payload = { ...JSON.parse(readFileSync(join(fixtures, name), 'utf8')), cwd: repo };
  const result = run(bin, [], {
    cwd: repo,
    env: { ...env, CLAUDE_PROJECT_DIR: repo, AGENT_SESSION_DEBUG: '1' },
    input: JSON.stringify(payload),
  });
  expect(result.status).toBe(0);
  return result;
}

describe('item 4: the store, logs and backups are ignored by git from their first write', () => {
  it('after a hook run, a CLI create and init, git status shows nothing of ours', () => {
    const { repo, env } = world();
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
    hook(BIN.preDelegate, 'subagent-start.json', repo, env);
    expect(readdirSync(join(repo, '.claude')).sort()).toEqual(['logs', 'session']);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: join(repo, 'src'), env });
    expect(created.status).toBe(0);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    for (const folder of ['session', 'logs'])
      expect(readFileSync(join(repo, '.claude', folder, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    // init, then a change to a settings file holding the user's own settings too: its backup goes where git ignores.
    expect(run(BIN.cli, ['init'], { cwd: repo, env }).status).toBe(0);
    const local = join(repo, '.claude', 'settings.local.json');
    writeFileSync(local, JSON.stringify({ ...JSON.parse(readFileSync(local, 'utf8')), model: 'opus' }));
    expect(run(BIN.cli, ['init', '--uninstall'], { cwd: repo, env }).status).toBe(0);
    expect(readdirSync(join(repo, '.claude', 'agent-session-backups'))).toContain('.gitignore');
    expect(readdirSync(join(repo, '.claude', 'agent-session-backups'))).toHaveLength(2);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('the CLI alone makes a store git ignores, and cleanup does not call its .gitignore foreign', () => {
    const { repo, env } = world();
    expect(run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: repo, env }).status).toBe(0);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const cleanup = run(BIN.cli, ['cleanup', '--dry-run', '--json'], { cwd: repo, env });
    expect(cleanup.status).toBe(0);
    expect(JSON.stringify(JSON.parse(cleanup.stdout))).not.toContain('.gitignore');
  });
});

/** The hook commands of a settings file (every event), or [] when it has none. */
function commandsIn(file: string): string[] {
  if (!existsSync(file)) return [];
  const settings = JSON.parse(readFileSync(file, 'utf8')) as {
    hooks?: Record<string, { hooks: { command: string }[] }[]>;
  };
  return Object.values(settings.hooks ?? {}).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
}

describe('item 5: init keeps machine-bound paths out of the shared settings.json', () => {
  it('wires settings.local.json (git-excluded in this clone); a teammate who pulls gets no broken hooks', () => {
    const { home, repo, env } = world();
    const shared = join(repo, '.claude', 'settings.json');
    mkdirSync(join(repo, '.claude'));
    writeFileSync(shared, '{"model":"opus"}\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'team settings');
    const result = run(BIN.cli, ['init'], { cwd: repo, env });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(readFileSync(shared, 'utf8')).toBe('{"model":"opus"}\n');
    const local = join(repo, '.claude', 'settings.local.json');
    expect(commandsIn(local)).toHaveLength(wiredFor(env));
    for (const command of commandsIn(local)) expect(command).toContain(process.execPath);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    // The teammate's clone: the team's file, no hooks of this machine.
    git(home, 'clone', '-q', repo, 'mate');
    expect(commandsIn(join(home, 'mate', '.claude', 'settings.json'))).toEqual([]);
    expect(existsSync(join(home, 'mate', '.claude', 'settings.local.json'))).toBe(false);
  });

  it('moves an earlier init’s absolute-path hooks out of settings.json', () => {
    const { repo, env } = world();
    const shared = join(repo, '.claude', 'settings.json');
    mkdirSync(join(repo, '.claude'));
    // What an earlier init wrote: this machine's node and bins, in the shared file.
    const pre = `"${process.execPath}" "${BIN.preDelegate}"`;
    const old = {
      model: 'opus',
      hooks: { SubagentStart: [{ hooks: [{ type: 'command', command: pre, timeout: 30 }] }] },
    };
    writeFileSync(shared, JSON.stringify(old));
    const result = run(BIN.cli, ['init'], { cwd: repo, env });
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(shared, 'utf8'))).toEqual({ model: 'opus' });
    expect(commandsIn(join(repo, '.claude', 'settings.local.json'))).toHaveLength(wiredFor(env));
  });

  it('--uninstall removes what init added from both files, the file it created and the .claude/ left empty', () => {
    const { repo, env } = world();
    const exclude = join(repo, '.git', 'info', 'exclude');
    const excludeBefore = readFileSync(exclude, 'utf8');
    expect(run(BIN.cli, ['init'], { cwd: repo, env }).status).toBe(0);
    expect(readFileSync(exclude, 'utf8')).toContain('/.claude/settings.local.json');
    const result = run(BIN.cli, ['init', '--uninstall'], { cwd: repo, env });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(existsSync(join(repo, '.claude'))).toBe(false);
    expect(readFileSync(exclude, 'utf8')).toBe(excludeBefore);
  });
});

const PLUGIN = resolve(__dirname, '../../plugin');

/** The command the plugin's hooks.json runs for an event, as Claude Code runs it (CLAUDE_PLUGIN_ROOT in the env). */
function pluginCommand(event: string): string {
  const { hooks } = JSON.parse(readFileSync(join(PLUGIN, 'hooks', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  return hooks[event]![0]!.hooks[0]!.command;
}

/** A folder holding only `sh`. */
function shOnly(): string {
  const dir = join(base, 'sh-only');
  if (!existsSync(dir)) {
    mkdirSync(dir);
    spawnSync('ln', ['-s', '/bin/sh', join(dir, 'sh')]);
  }
  return dir;
}

describe("item 2: the plugin's hooks find node as init's do, or say so", () => {
  const payload = () =>
    JSON.stringify({
      ...JSON.parse(readFileSync(resolve(__dirname, '../fixtures/claude-code/subagent-start.json'), 'utf8')),
    });
  const runHook = (home: string, repo: string) =>
    spawnSync('/bin/sh', ['-c', pluginCommand('SubagentStart')], {
      cwd: repo,
      // A desktop launcher's PATH: the shell, no node (this machine's /usr/bin has one: a folder of sh alone).
      env: { PATH: shOnly(), HOME: home, CLAUDE_PROJECT_DIR: repo, CLAUDE_PLUGIN_ROOT: PLUGIN },
      input: payload(),
      encoding: 'utf8',
    });

  it('without node on PATH, it runs the node of a version manager (volta here)', () => {
    const { home, repo } = world();
    mkdirSync(join(home, '.volta', 'bin'), { recursive: true });
    spawnSync('ln', ['-s', process.execPath, join(home, '.volta', 'bin', 'node')]);
    const result = runHook(home, repo);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('hookSpecificOutput');
  });

  const elsewhere = ['/usr/local/bin/node', '/opt/homebrew/bin/node'].filter((path) => existsSync(path));
  (elsewhere.length > 0 ? it.skip : it)('with no node anywhere: exit 0, nothing on stdout, one line saying so', () => {
    const { home, repo } = world();
    const result = runHook(home, repo);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 0, stdout: '' });
    expect(result.stderr).toMatch(/^agent-session: no node found .*hook skipped.*\n$/);
  });
});

/** Every entry under `dir` (relative path, and a file's text), `.git/` left out but its exclude file. */
function tree(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (skip.includes(path)) continue;
      if (path === '.git') {
        const exclude = join(dir, '.git', 'info', 'exclude');
        out['.git/info/exclude'] = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
        continue;
      }
      if (entry.isDirectory()) {
        out[`${path}/`] = '';
        walk(path);
      } else out[path] = entry.isSymbolicLink() ? 'link' : readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}

/** A machine of README's (tests/support/install.ts) with a stand-in `claude`: Claude Code's own plugin commands. */
function stubbedMachine(): Machine & { repo: string } {
  const at = join(base, `m${n++}`);
  const stub = join(at, 'stub');
  mkdirSync(stub, { recursive: true });
  writeFileSync(join(stub, 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const machine = freshMachine(at, join(stub, 'claude'));
  // npm's global folders, as every machine with npm has them (an uninstall empties them, never removes them).
  for (const folder of ['bin', 'lib/node_modules']) mkdirSync(join(machine.prefix, folder), { recursive: true });
  const repo = join(machine.home, 'work', 'repo');
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
  return { ...machine, repo };
}

/** A day's use on a route: one hook as Claude Code runs it, the CLI in a subfolder, a config file, the report. */
function aDaysUse(route: Route, machine: Machine, repo: string): void {
  const hookCommand =
    route === 'npm'
      ? commandsIn(join(repo, '.claude', 'settings.local.json')).find((c) => c.includes('pre-delegate'))!
      : pluginCommand('SubagentStart');
  const payload = {
    ...JSON.parse(readFileSync(resolve(__dirname, '../fixtures/claude-code/subagent-start.json'), 'utf8')),
    cwd: repo,
  };
  const hooked = spawnSync('sh', ['-c', hookCommand], {
    cwd: repo,
    env: {
      ...machine.env,
      CLAUDE_PROJECT_DIR: repo,
      CLAUDE_PLUGIN_ROOT: join(machine.home, 'agent-session', 'plugin'),
      AGENT_SESSION_DEBUG: '1',
    },
    input: JSON.stringify(payload),
    encoding: 'utf8',
  });
  expect(hooked.stdout).toContain('hookSpecificOutput');
  runLine('agent-session create --agent a --purpose b', join(repo, 'src'), machine.env);
  writeFileSync(join(repo, '.claude', 'agent-session.json'), '{"resume_timeout_minutes": 45}\n');
  runLine('agent-session report', repo, machine.env);
  expect(existsSync(join(machine.home, '.cache', 'agent-session'))).toBe(true);
  expect(existsSync(join(machine.home, '.local', 'share', 'agent-session', 'wired.json'))).toBe(true);
}

/** The project, HOME and npm's global folder: what an install may touch. */
function snapshot(machine: Machine, repo: string) {
  return { project: tree(repo), home: tree(machine.home), npm: tree(machine.prefix) };
}

describe("issue 44 item 6: README's uninstall leaves nothing, in any order of its lines", () => {
  const orders = [
    [0, 1],
    [1, 0],
  ];
  const cases = (['npm', 'plugin'] as const).flatMap((route) =>
    orders.flatMap((order) =>
      [true, false].map((hadSettings) => [route, order.join(','), hadSettings] as [Route, string, boolean]),
    ),
  );
  it.each(cases)('the %s route, lines in order %s, a settings.json of the team’s before: %s', (route, order, had) => {
    const machine = stubbedMachine();
    const { repo } = machine;
    if (had) {
      // The team's own settings, in a layout of its own (JSON.stringify would write it otherwise).
      mkdirSync(join(repo, '.claude'));
      writeFileSync(join(repo, '.claude', 'settings.json'), '{"model":"opus",  "permissions": {"allow": []}}\n');
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', 'team settings');
    }
    const before = snapshot(machine, repo);
    installRoute(route, machine, repo);
    if (route === 'plugin')
      expect(JSON.parse(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')).enabledPlugins).toEqual({
        [PLUGIN_ID]: true,
      });
    aDaysUse(route, machine, repo);
    const lines = readmeInstall().uninstall;
    expect(lines).toHaveLength(2);
    for (const at of order.split(',').map(Number)) runLine(lines[at]!, repo, machine.env);
    expect(snapshot(machine, repo)).toEqual(before);
  });

  it('`--purge` needs `--uninstall` (and no `--dry-run`), `--plugin` is Claude Code’s: exit 2, one line, nothing written', () => {
    const { repo, env } = world();
    for (const args of [['--purge'], ['--uninstall', '--purge', '--dry-run'], ['--plugin', '--host', 'codex']]) {
      const result = run(BIN.cli, ['init', ...args], { cwd: repo, env });
      expect({ args, status: result.status, stdout: result.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(result.stderr).toMatch(/^agent-session: Expected --(purge|plugin) with .*\n$/);
    }
    expect(existsSync(join(repo, '.claude'))).toBe(false);
  });

  it('--purge removes nothing through a .claude/ that is a link (what is there is not a store of ours)', () => {
    const { home, repo, env } = world();
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(join(elsewhere, 'session', 'keep'), { recursive: true });
    symlinkSync(elsewhere, join(repo, '.claude'));
    const purged = run(BIN.cli, ['init', '--uninstall', '--purge'], { cwd: repo, env });
    expect(purged.status).toBe(0);
    expect(purged.stdout).toContain(`! ${join(repo, '.claude', 'session')}: in a folder that is a link, left alone`);
    expect(existsSync(join(elsewhere, 'session', 'keep'))).toBe(true);
  });

  it('refuses to remove agent-session while another project still runs its hooks: the package stays, no dead hooks', () => {
    const machine = stubbedMachine();
    const other = join(machine.home, 'work', 'other');
    mkdirSync(other, { recursive: true });
    git(other, 'init', '-q');
    const before = { ...snapshot(machine, machine.repo), other: tree(other) };
    installRoute('npm', machine, machine.repo);
    runLine('agent-session init', other, machine.env);
    const [line] = readmeInstall().uninstall;
    const first = spawnSync('sh', ['-c', line!], { cwd: machine.repo, env: machine.env, encoding: 'utf8' });
    expect(first.status).toBe(4);
    expect(first.stderr).toMatch(new RegExp(`^agent-session: Expected no other project .*got ${other}.*\n$`));
    // This project is done; the other's hooks still have their package.
    expect(tree(machine.repo)).toEqual(before.project);
    expect(existsSync(installedCli(machine))).toBe(true);
    for (const command of commandsIn(join(other, '.claude', 'settings.local.json')))
      expect(existsSync(/"([^"]+\.cjs)"$/.exec(command)![1]!)).toBe(true);
    runLine(line!, other, machine.env);
    expect({ ...snapshot(machine, machine.repo), other: tree(other) }).toEqual(before);
  });

  it('the package removed first by hand: its hooks still run (they name the clone), and the clone’s CLI takes them out', () => {
    const machine = stubbedMachine();
    const { repo } = machine;
    const before = snapshot(machine, repo);
    installRoute('npm', machine, repo);
    aDaysUse('npm', machine, repo);
    runLine('npm uninstall -g agent-session', repo, machine.env);
    const hook = commandsIn(join(repo, '.claude', 'settings.local.json')).find((c) => c.includes('pre-delegate'))!;
    const hooked = spawnSync('sh', ['-c', hook], {
      cwd: repo,
      env: { ...machine.env, CLAUDE_PROJECT_DIR: repo },
      input: readFileSync(resolve(__dirname, '../fixtures/claude-code/subagent-start.json'), 'utf8'),
      encoding: 'utf8',
    });
    expect({ status: hooked.status, stderr: hooked.stderr }).toEqual({ status: 0, stderr: '' });
    expect(hooked.stdout).toContain('hookSpecificOutput');
    runLine('node ~/agent-session/plugin/dist/agent-session.cjs init --uninstall --purge', repo, machine.env);
    expect(snapshot(machine, repo)).toEqual(before);
  });
});

/** The lines of a log file of the project's (`pre_delegate.log`…), or []. */
function logLines(repo: string, file: string): string[] {
  const path = join(repo, '.claude', 'logs', file);
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n') : [];
}

/** A Claude Code payload of the fixtures for `repo`, as a hook reads it. */
function payloadFor(name: string, repo: string): string {
  return JSON.stringify({
    ...JSON.parse(readFileSync(resolve(__dirname, '../fixtures/claude-code', name), 'utf8')),
    cwd: repo,
  });
}

describe('issue 44 item 1: init and the plugin never wire twice; each notices the other and says so', () => {
  const runPluginHook = (machine: Machine, repo: string, event: string, fixture: string) =>
    spawnSync('sh', ['-c', pluginCommand(event)], {
      cwd: repo,
      env: {
        ...machine.env,
        CLAUDE_PROJECT_DIR: repo,
        CLAUDE_PLUGIN_ROOT: join(machine.home, 'agent-session', 'plugin'),
      },
      input: payloadFor(fixture, repo),
      encoding: 'utf8',
    });

  it("the plugin's hook yields to init's wiring of the same event, with a log line; alone, it answers", () => {
    const machine = stubbedMachine();
    const { repo } = machine;
    installRoute('plugin', machine, repo);
    const alone = runPluginHook(machine, repo, 'SubagentStart', 'subagent-start.json');
    expect(alone.stdout).toContain('hookSpecificOutput');
    const init = runLine('agent-session init', repo, machine.env).stdout;
    // init says the plugin is enabled too, and which one answers.
    expect(init).toMatch(/enables the agent-session plugin too: where it loads, its hooks yield to these/);
    const yielded = runPluginHook(machine, repo, 'SubagentStart', 'subagent-start.json');
    expect({ status: yielded.status, stdout: yielded.stdout }).toEqual({ status: 0, stdout: '' });
    expect(logLines(repo, 'pre_delegate.log').at(-1)).toMatch(
      /claude-code event="SubagentStart" plugin_yields to=".*\/\.claude\/settings\.local\.json"$/,
    );
    // init's own hook answers that event (one answer per event).
    const hook = commandsIn(join(repo, '.claude', 'settings.local.json')).find((c) => c.includes('pre-delegate'))!;
    const answered = spawnSync('sh', ['-c', hook], {
      cwd: repo,
      env: { ...machine.env, CLAUDE_PROJECT_DIR: repo },
      input: payloadFor('subagent-start.json', repo),
      encoding: 'utf8',
    });
    expect(answered.stdout).toContain('hookSpecificOutput');
  });

  it("init's hooks whose bins are gone do not silence the plugin", () => {
    const machine = stubbedMachine();
    const { repo } = machine;
    installRoute('plugin', machine, repo);
    const gone = join(base, 'gone', 'pre-delegate.cjs');
    writeFileSync(
      join(repo, '.claude', 'settings.local.json'),
      JSON.stringify({ hooks: { SubagentStart: [{ hooks: [{ type: 'command', command: `"node" "${gone}"` }] }] } }),
    );
    expect(runPluginHook(machine, repo, 'SubagentStart', 'subagent-start.json').stdout).toContain('hookSpecificOutput');
  });

  it('init --plugin moves init’s hooks out (the plugin runs the same ones), and says what it changed', () => {
    const machine = stubbedMachine();
    const { repo } = machine;
    installRoute('npm', machine, repo);
    expect(commandsIn(join(repo, '.claude', 'settings.local.json'))).toHaveLength(wiredFor(machine.env));
    const out = runLine('agent-session init --plugin', repo, machine.env).stdout;
    expect(out).toContain("Moving init's hooks out (the plugin runs the same ones):");
    expect(out).toContain(`enabledPlugins ${PLUGIN_ID}`);
    // A marketplace this machine's Claude Code does not know yet is named, with the line that adds it.
    expect(out).toContain('claude plugin marketplace add ~/agent-session --scope user');
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .claude/settings.json\n');
  });

  it('a teammate’s clone: the team enabled the plugin, this clone’s uninstall leaves the team’s file alone', () => {
    const machine = stubbedMachine();
    const { repo } = machine;
    mkdirSync(join(repo, '.claude'));
    const team = `${JSON.stringify({ enabledPlugins: { [PLUGIN_ID]: true } }, null, 2)}\n`;
    writeFileSync(join(repo, '.claude', 'settings.json'), team);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'the team enables agent-session');
    installRoute('plugin', machine, repo, true);
    const out = runLine('agent-session init --uninstall --purge', repo, machine.env).stdout;
    expect(out).toMatch(
      /enables the agent-session plugin \(not by init in this clone: the team's, committed\), left alone/,
    );
    expect(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')).toBe(team);
  });
});

describe('issue 44 item 1: a team on the plugin route, with the real Claude Code (newest native build)', () => {
  let claude: string;
  beforeAll(() => {
    claude = nativeClaude().path;
  }, 600_000);

  /** What a user's one acceptance of the trust dialog leaves (`-p` cannot show it), as the host suite writes it. */
  function trust(machine: Machine, repo: string): void {
    const path = join(machine.home, '.claude.json');
    const saved = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
    const projects = (saved.projects as Record<string, unknown> | undefined) ?? {};
    writeFileSync(
      path,
      JSON.stringify({ ...saved, projects: { ...projects, [repo]: { hasTrustDialogAccepted: true } } }),
    );
  }

  /**
   * `claude -p prompt` in `repo` against the scripted model (spawned, not spawnSync: the model answers from this
   * process); the debug file's text.
   */
  async function claudeP(machine: Machine, repo: string, server: ModelServer, prompt: string, label: string) {
    const debug = join(base, `${label}.debug.log`);
    server.setRun(label);
    const child = spawn(claude, ['-p', prompt, '--debug-file', debug], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...machine.env,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test',
        CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const timer = setTimeout(() => child.kill(), 120_000);
    const status = await new Promise<number | null>((done) => child.on('close', done));
    clearTimeout(timer);
    expect({ label, status, stderr }).toEqual({ label, status: 0, stderr: '' });
    return readFileSync(debug, 'utf8');
  }

  /** The plugin's hooks Claude Code ran for `event`, as its debug file names them, and with what status. */
  function pluginHookRuns(debug: string, event: string): string[] {
    return [
      ...debug.matchAll(
        new RegExp(`Hooks: ${event}[^\\n]*\\(plugin agent-session@agent-session\\) finished with status (\\d+)`, 'g'),
      ),
    ].map((m) => m[1]!);
  }

  it("alice's README lines leave no machine's path in the shared file; bob's fresh clone and HOME load the plugin", async () => {
    const server = await startModelServer(() => ({ role: 'main', reply: { blocks: [{ type: 'text', text: 'ok' }] } }));
    try {
      const alice = freshMachine(join(base, 'alice'), claude);
      const repo = join(alice.home, 'work', 'repo');
      mkdirSync(repo, { recursive: true });
      git(repo, 'init', '-q');
      git(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
      installRoute('plugin', alice, repo);
      // The shared file: the plugin enabled, nothing of alice's machine.
      const shared = readFileSync(join(repo, '.claude', 'settings.json'), 'utf8');
      expect(JSON.parse(shared)).toEqual({ enabledPlugins: { [PLUGIN_ID]: true } });
      expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .claude/settings.json\n');
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', 'enable agent-session');

      const bob = freshMachine(join(base, 'bob'), claude);
      const clone = join(bob.home, 'work', 'repo');
      git(bob.home, 'clone', '-q', repo, clone);
      installRoute('plugin', bob, clone, true);
      trust(bob, clone);
      const debug = await claudeP(bob, clone, server, 'hello', 'bob');
      for (const event of ['SessionStart', 'UserPromptSubmit']) expect(pluginHookRuns(debug, event)).toEqual(['0']);
      expect(logLines(clone, 'pre_delegate.log').join('\n')).toMatch(/claude-code event="SessionStart"/);
      // Bob's plugin is his own copy's (the clone's origin names alice's folder; the plugin nothing of hers).
      expect(debug).toContain(
        `Read hooks.json for plugin agent-session (enabled=true): ${join(bob.home, 'agent-session', 'plugin')}`,
      );
      expect(git(clone, 'status', '--porcelain', '--untracked-files=all')).toBe('');

      // Issue 44 item 8: the plugin's read-only slash command, run by Claude Code, its output in the model's prompt.
      const cli = installedCli(bob);
      const id = runLine(`${cli} create --agent terraform-architect --purpose p`, clone, bob.env).stdout.trim();
      runLine(`${cli} update ${id} --phase approval`, clone, bob.env);
      server.requests.length = 0;
      await claudeP(bob, clone, server, '/agent-session:pending', 'bob-pending');
      const asked = server.requests.map((r) => stringsIn(r.body).join('\n')).join('\n');
      expect(asked).toContain('<command-name>/agent-session:pending</command-name>');
      expect(asked).toContain(`agent-session approve ${id.slice(-8)}`);

      // Alice wires init's hooks too: Claude Code runs both, ours answers each event once (the plugin's yields).
      runLine('agent-session init', repo, alice.env);
      trust(alice, repo);
      const both = await claudeP(alice, repo, server, 'hello', 'alice-both');
      expect(pluginHookRuns(both, 'SessionStart')).toEqual(['0']);
      const starts = logLines(repo, 'pre_delegate.log').filter((l) => l.includes('event="SessionStart"'));
      expect(starts.filter((l) => l.includes('plugin_yields'))).toHaveLength(1);
      expect(starts.filter((l) => !l.includes('plugin_yields'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 600_000);
});

describe('issue 44 item 6: outside git, a subfolder finds its project’s .claude/ (never the home folder’s)', () => {
  it('init in a plain folder, then the CLI from a subfolder uses that folder’s store', () => {
    const { home, env } = world();
    const plain = join(home, 'plain');
    mkdirSync(join(plain, 'src', 'deep'), { recursive: true });
    expect(run(BIN.cli, ['init'], { cwd: plain, env }).status).toBe(0);
    const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], {
      cwd: join(plain, 'src', 'deep'),
      env,
    });
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: '' });
    expect(existsSync(join(plain, '.claude', 'session', created.stdout.trim()))).toBe(true);
    expect(readdirSync(join(home, '.claude'))).toEqual([]);
    // A plain folder of the home folder that is no project: refused, as before (never ~/.claude).
    mkdirSync(join(home, 'other', 'deep'), { recursive: true });
    expect(
      run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: join(home, 'other', 'deep'), env }).status,
    ).toBe(2);
    expect(readdirSync(join(home, '.claude'))).toEqual([]);
  });
});

describe('issue 44 item 8: report without --out writes a file, out of git, and says where', () => {
  it('writes <project>/.claude/logs/report.html (replaced each time), `--out -` prints it', () => {
    const { repo, env } = world();
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
    expect(run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: repo, env }).status).toBe(0);
    const path = join(repo, '.claude', 'logs', 'report.html');
    for (let time = 0; time < 2; time++) {
      const report = run(BIN.cli, ['report'], { cwd: join(repo, 'src'), env });
      expect({ status: report.status, stderr: report.stderr }).toEqual({ status: 0, stderr: '' });
      expect(report.stdout).toBe(
        `Wrote the report of 1 session to ${path} (${readFileSync(path).length} bytes): open file://${path} in a browser\n`,
      );
    }
    expect(readFileSync(path, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const printed = run(BIN.cli, ['report', '--out', '-'], { cwd: repo, env });
    expect(printed.stdout).toMatch(/^<!doctype html>/i);
  });
});

describeWithDatabase('issue 44 item 6: switching to PostgreSQL says where the file store’s sessions are', (db) => {
  it('an empty list on the database names the file store and the copy command, which brings them over', () => {
    const { repo, env } = world();
    const created = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'b'], { cwd: repo, env });
    expect(created.status).toBe(0);
    const pg = { ...env, AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: freshSchemaName() };
    expect(run(BIN.cli, ['migrate'], { cwd: repo, env: pg }).status).toBe(0);
    const empty = run(BIN.cli, ['list'], { cwd: repo, env: pg });
    expect(empty.stdout).toBe('No sessions found\n');
    const root = join(repo, '.claude', 'session');
    expect(empty.stderr).toBe(
      `note: the file store ${root} holds 1 session of before the switch to PostgreSQL: ` +
        `\`agent-session copy --from ${root} --to "$AGENT_SESSION_DATABASE_URL"\` copies them here\n`,
    );
    const command = /`(agent-session copy [^`]+)`/.exec(empty.stderr)![1]!.replace('agent-session', `node ${BIN.cli}`);
    expect(spawnSync('sh', ['-c', command], { cwd: repo, env: binEnv(pg), encoding: 'utf8' }).status).toBe(0);
    const listed = run(BIN.cli, ['list'], { cwd: repo, env: pg });
    expect({ stdout: listed.stdout, stderr: listed.stderr }).toMatchObject({ stderr: '' });
    expect(listed.stdout).toContain(created.stdout.trim().slice(-8));
    spawnSync('psql', [db.url, '-c', `DROP SCHEMA IF EXISTS "${pg.AGENT_SESSION_DATABASE_SCHEMA}" CASCADE`]);
  });
});
