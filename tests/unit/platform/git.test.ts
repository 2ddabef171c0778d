// The git repository of a project folder, read directly (no git process on a hook's path), checked against what the
// real git writes: a clone's top, a folder inside it, a worktree (`.git` file, `commondir`), a submodule, no remote.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteUrlOf } from '../../../src/core/git-config';
import { gitRepositoryOf, realFolder } from '../../../src/platform/git';
import { projectIdentityOf } from '../../../src/app/call';

const git = spawnSync('git', ['--version'], { encoding: 'utf8' });
const haveGit = git.status === 0;
if (!haveGit)
  process.stderr.write('\n*** SKIPPED: tests/unit/platform/git.test.ts needs the git binary (not found).\n\n');
/** `describe`, or a visible skip naming why when this machine has no git. */
const describeWithGit = haveGit
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} (skipped: no git binary here)`, body);

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-session-git-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs git in `cwd` as a user would, with no global or system settings of this machine. */
function gitIn(cwd: string, args: readonly string[]): string {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** A repository at `path` with one commit and `origin` = `remote` (none when null). */
function repository(path: string, remote: string | null): string {
  mkdirSync(path, { recursive: true });
  gitIn(path, ['init', '-q', '-b', 'main']);
  writeFileSync(join(path, 'README'), 'x\n');
  gitIn(path, ['add', 'README']);
  gitIn(path, ['commit', '-q', '-m', 'first']);
  if (remote !== null) gitIn(path, ['remote', 'add', 'origin', remote]);
  return path;
}

describeWithGit('gitRepositoryOf, on what git writes', () => {
  it('finds a clone from its top and from a folder inside it, with the origin git reports', () => {
    const top = repository(join(dir, 'api'), 'git@github.com:acme/api.git');
    mkdirSync(join(top, 'services', 'web'), { recursive: true });
    for (const from of [top, join(top, 'services', 'web')]) {
      const found = gitRepositoryOf(from)!;
      expect(found.top).toBe(top);
      expect(remoteUrlOf(found.config!)).toBe(gitIn(top, ['remote', 'get-url', 'origin']).trim());
    }
    expect(projectIdentityOf(top, null)).toEqual({
      name: 'github.com/acme/api',
      source: { kind: 'remote', repository: 'github.com/acme/api' },
    });
    expect(projectIdentityOf(join(top, 'services', 'web'), null).name).toBe('github.com/acme/api//services/web');
  });

  it('reads a worktree (`.git` file, commondir) as its repository: one project with the main clone', () => {
    const main = repository(join(dir, 'main'), 'https://github.com/acme/api.git');
    const tree = join(dir, 'feature');
    gitIn(main, ['worktree', 'add', '-q', '-b', 'feature', tree]);
    const found = gitRepositoryOf(tree)!;
    expect(found.top).toBe(tree);
    expect(remoteUrlOf(found.config!)).toBe('https://github.com/acme/api.git');
    expect(projectIdentityOf(tree, null).name).toBe(projectIdentityOf(main, null).name);
  });

  it('reads a submodule as its own repository, with its own remote', () => {
    const library = repository(join(dir, 'library'), 'git@github.com:acme/library.git');
    const app = repository(join(dir, 'app'), 'git@github.com:acme/app.git');
    gitIn(app, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'vendor/library']);
    const sub = join(app, 'vendor', 'library');
    expect(gitRepositoryOf(sub)!.top).toBe(sub);
    // `submodule add` clones it: its origin is where it was cloned from.
    expect(remoteUrlOf(gitRepositoryOf(sub)!.config!)).toBe(library);
    expect(projectIdentityOf(sub, null).name).toBe(`file:/${library.slice(1)}`);
    expect(projectIdentityOf(app, null).name).toBe('github.com/acme/app');
  });

  it('names a repository without a remote, or a folder outside any, by its real path', () => {
    const local = repository(join(dir, 'local'), null);
    expect(gitRepositoryOf(local)?.top).toBe(local);
    expect(projectIdentityOf(local, null)).toEqual({ name: `path:${local}`, source: { kind: 'path' } });
    const link = join(dir, 'link');
    symlinkSync(local, link);
    expect(projectIdentityOf(link, null).name).toBe(`path:${local}`);
  });
});

describe('gitRepositoryOf, on odd folders', () => {
  it('names a folder in no repository with a remote by its path, and a configured name wins over everything', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    // Whatever the temp folder's ancestors hold (this machine has an empty `/tmp/.git`), none is a repository with an
    // origin: the folder's own path names it.
    expect(projectIdentityOf(plain, null)).toEqual({ name: `path:${plain}`, source: { kind: 'path' } });
    expect(projectIdentityOf(plain, 'acme/api')).toEqual({ name: 'acme/api', source: { kind: 'configured' } });
  });

  it('stops at a `.git` file that names no git folder, and does not hang on a FIFO config', () => {
    const odd = join(dir, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, '.git'), 'not a pointer\n');
    expect(gitRepositoryOf(odd)).toEqual({ top: odd, config: null });
    const fifo = join(dir, 'fifo');
    mkdirSync(join(fifo, '.git'), { recursive: true });
    expect(spawnSync('mkfifo', [join(fifo, '.git', 'config')]).status).toBe(0);
    expect(gitRepositoryOf(fifo)).toEqual({ top: fifo, config: null });
  });

  it('resolves a folder that does not exist to its absolute path', () => {
    expect(realFolder(join(dir, 'gone', '..', 'missing'))).toBe(join(dir, 'missing'));
  });
});
