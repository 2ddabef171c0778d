// Issue 32 (a team can adopt it), end to end as a newcomer runs it: a fresh HOME that has Claude Code's own
// `~/.claude/`, a real git repository (`git init`), the built bins spawned from its subfolders.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';

const base = tempDir();
let n = 0;

/** A fresh HOME (with `~/.claude/`, as every Claude Code user has) and a git repository `work/repo` inside it. */
function world(): { home: string; repo: string; env: Record<string, string | undefined> } {
  const home = join(base, `w${n++}`);
  mkdirSync(join(home, '.claude'), { recursive: true });
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
