// Issue 32 (a team can adopt it), end to end as a newcomer runs it: a fresh HOME that has Claude Code's own
// `~/.claude/`, a real git repository (`git init`), the built bins spawned from its subfolders.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, run, tempDir } from '../helpers';

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
  const env = { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), AGENT_SESSION_LOG_DIR: undefined };
  return { home, repo, env };
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  expect({ args, status: result.status, stderr: result.stderr }).toEqual({ args, status: 0, stderr: '' });
  return result.stdout;
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
    expect(commandsIn(local)).toHaveLength(8);
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
    expect(commandsIn(join(repo, '.claude', 'settings.local.json'))).toHaveLength(8);
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

/** The command lines of README's uninstall block for a route, as written (`relay stop`: PostgreSQL only, not here). */
function uninstallLines(route: 'npm' | 'plugin'): string[] {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('**Uninstall, leaving nothing behind**')).split('```')[1]!;
  const other = route === 'npm' ? '# plugin' : '# npm';
  return block
    .split('\n')
    .filter((line) => line.startsWith('$ ') && !line.endsWith(other) && !line.includes('relay stop'))
    .map((line) => line.slice(2));
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync('sh', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  expect({ line, status: result.status, stderr: result.stderr }).toMatchObject({ line, status: 0 });
}

describe('item 6: the README uninstall steps leave nothing behind (project, HOME, the cache folder)', () => {
  const routes = ['npm', 'plugin'] as const;
  it.each(routes)('the %s route', (route) => {
    const { home, repo } = world();
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
    const prefix = join(base, `prefix-${route}-${n}`);
    // The copy of the repository the README installs from, at ~/agent-session.
    spawnSync('ln', ['-s', resolve(__dirname, '../..'), join(home, 'agent-session')]);
    const stub = join(base, `stub-${n}`);
    mkdirSync(stub);
    // Claude Code's own plugin commands: it deletes its copy of the plugin itself (not ours to check here).
    writeFileSync(join(stub, 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env: NodeJS.ProcessEnv = {
      PATH: `${join(prefix, 'bin')}:${join(home, '.local', 'bin')}:${stub}:${process.env.PATH ?? ''}`,
      HOME: home,
      npm_config_prefix: prefix,
      // npm's own cache, where the dependencies already are: outside this HOME, which holds only what we leave.
      npm_config_cache: join(homedir(), '.npm'),
      npm_config_update_notifier: 'false',
    };
    const before = { project: tree(repo), home: tree(home) };
    if (route === 'npm') {
      const packed = spawnSync('npm', ['run', '-s', 'package', '--', base, '--no-build'], {
        cwd: resolve(__dirname, '../..'),
        encoding: 'utf8',
      });
      expect(packed.status).toBe(0);
      // README's install line names the tarball `npm run package` writes (item 1: paste as written).
      const tarball = packed.stdout.trim().split('\n').at(-1)!;
      const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
      expect(readme).toContain(`npm run package -- /tmp && npm install -g /tmp/${tarball.split('/').at(-1)!}`);
      sh(`npm install -g --no-audit --no-fund --prefer-offline ${packed.stdout.trim().split('\n').at(-1)!}`, repo, env);
      sh('agent-session init', repo, env);
    } else {
      // README's plugin line 3: the CLI in the user's own shell.
      const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
      sh(/\$ (mkdir -p ~\/\.local\/bin && ln .*)/.exec(readme)![1]!, repo, env);
      sh('agent-session --version', home, env);
    }
    // A day's use: a hook of each (as Claude Code runs it), the CLI in a subfolder.
    const hookCommand = route === 'npm' ? `"${join(prefix, 'bin', 'pre-delegate')}"` : pluginCommand('SubagentStart');
    const payload = {
      ...JSON.parse(readFileSync(resolve(__dirname, '../fixtures/claude-code/subagent-start.json'), 'utf8')),
      cwd: repo,
    };
    const hooked = spawnSync('sh', ['-c', hookCommand], {
      cwd: repo,
      env: { ...env, CLAUDE_PROJECT_DIR: repo, CLAUDE_PLUGIN_ROOT: PLUGIN, AGENT_SESSION_DEBUG: '1' },
      input: JSON.stringify(payload),
      encoding: 'utf8',
    });
    expect(hooked.stdout).toContain('hookSpecificOutput');
    sh('agent-session create --agent a --purpose b', join(repo, 'src'), env);
    expect(existsSync(join(home, '.cache', 'agent-session'))).toBe(true);
    expect(existsSync(join(repo, '.claude', 'session'))).toBe(true);
    for (const line of uninstallLines(route)) sh(line, repo, env);
    expect({ project: tree(repo), home: tree(home) }).toEqual(before);
  });
});
