import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import {
  findProjectDir,
  projectFolderFor,
  projectFolderOf,
  projectIdentityOf,
  resolveCall,
  resolveRoot,
} from '../../../src/app/call';
import { DEFAULT_CONFIG } from '../../../src/core/config';
import { codeOf } from '../../helpers';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('resolveRoot', () => {
  it('prefers --dir, then AGENT_SESSION_DIR, then CLAUDE_PROJECT_DIR', () => {
    const env = { AGENT_SESSION_DIR: join(dir, 'env'), CLAUDE_PROJECT_DIR: join(dir, 'proj') };
    expect(resolveRoot({ dir: 'flag', env, cwd: dir })).toBe(join(dir, 'flag'));
    expect(resolveRoot({ env, cwd: dir })).toBe(join(dir, 'env'));
    expect(resolveRoot({ env: { CLAUDE_PROJECT_DIR: join(dir, 'proj') }, cwd: dir })).toBe(
      join(dir, 'proj', '.claude', 'session'),
    );
  });

  it('uses the nearest ancestor with a .claude folder up to the git top, else the top', () => {
    mkdirSync(join(dir, '.claude'));
    mkdirSync(join(dir, 'project', '.git'), { recursive: true });
    mkdirSync(join(dir, 'project', 'a', 'b'), { recursive: true });
    // A `.claude/` above the repository (a stranger's, or the home folder's) is not the project's.
    expect(resolveRoot({ env: {}, cwd: join(dir, 'project', 'a', 'b') })).toBe(
      join(dir, 'project', '.claude', 'session'),
    );
    mkdirSync(join(dir, 'project', 'a', '.claude'));
    expect(findProjectDir(join(dir, 'project', 'a', 'b'))).toBe(join(dir, 'project', 'a'));
    expect(resolveRoot({ env: {}, cwd: join(dir, 'project', 'a', 'b') })).toBe(
      join(dir, 'project', 'a', '.claude', 'session'),
    );
  });

  it.each([
    ['a repository whose top is the home folder', { git: '.', home: '.', cwd: 'a' }, null],
    ['the home folder, outside any repository', { git: null, home: '.', cwd: '.' }, null],
    ['a folder in no repository, without .claude/ up to the home folder', { git: null, home: '.', cwd: 'a' }, null],
    ['a folder in no repository, with its own .claude/', { git: null, home: 'h', cwd: 'c' }, 'c'],
    // Issue 44 item 6: outside git, a subfolder finds its project's `.claude/`, as inside a repository.
    ['a subfolder of a folder in no repository with its own .claude/', { git: null, home: 'h', cwd: 'c/sub' }, 'c'],
    ['the same under the home folder', { git: null, home: '.', cwd: 'c/sub/deeper' }, 'c'],
    ['a repository under the home folder', { git: 'r', home: '.', cwd: 'r/a' }, 'r'],
  ])('projectFolderFor: %s', (_, layout, expected) => {
    mkdirSync(join(dir, '.claude'));
    for (const folder of ['a', 'c/.claude', 'c/sub/deeper', 'h', 'r/a'])
      mkdirSync(join(dir, folder), { recursive: true });
    if (layout.git !== null) mkdirSync(join(dir, layout.git, '.git'), { recursive: true });
    const env = { HOME: join(dir, layout.home) };
    const got = projectFolderFor(join(dir, layout.cwd), env);
    expect(got).toBe(expected === null ? null : join(dir, expected));
    if (expected === null) expect(codeOf(() => resolveRoot({ env, cwd: join(dir, layout.cwd) }))).toBe('E_USAGE');
  });

  it('outside git, a .claude/ in a folder anyone may write (/tmp), or above one, is nobody’s project', () => {
    const shared = join(dir, 'shared');
    mkdirSync(join(shared, '.claude'), { recursive: true });
    mkdirSync(join(shared, 'mine', 'deep'), { recursive: true });
    fs.chmodSync(shared, 0o1777);
    expect(projectFolderFor(join(shared, 'mine', 'deep'), { HOME: join(dir, 'home') })).toBeNull();
    mkdirSync(join(shared, 'mine', '.claude'));
    expect(projectFolderFor(join(shared, 'mine', 'deep'), { HOME: join(dir, 'home') })).toBe(join(shared, 'mine'));
  });

  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (asRoot ? it : it.skip)('outside git, another user’s .claude/ above is not this user’s project (needs root)', () => {
    mkdirSync(join(dir, 'theirs', '.claude'), { recursive: true });
    mkdirSync(join(dir, 'theirs', 'sub'));
    fs.chownSync(join(dir, 'theirs', '.claude'), 4242, 4242);
    expect(projectFolderFor(join(dir, 'theirs', 'sub'), { HOME: join(dir, 'home') })).toBeNull();
  });

  it('outside any project, a named database lets the working directory serve (no store folder is made there)', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    const env = { HOME: join(dir, 'home') };
    expect(codeOf(() => resolveRoot({ env, cwd: plain }))).toBe('E_USAGE');
    const url = 'postgres://u@127.0.0.1:5432/test';
    expect(resolveRoot({ env: { ...env, AGENT_SESSION_DATABASE_URL: url }, cwd: plain })).toBe(
      join(plain, '.claude', 'session'),
    );
    expect(resolveRoot({ env, cwd: plain, databaseUrl: url })).toBe(join(plain, '.claude', 'session'));
  });

  it('ignores empty variables', () => {
    mkdirSync(join(dir, '.claude'));
    expect(resolveRoot({ env: { AGENT_SESSION_DIR: '', CLAUDE_PROJECT_DIR: ' ' }, cwd: dir })).toBe(
      join(dir, '.claude', 'session'),
    );
  });
});

describe('resolveRoot without a working directory (it was removed)', () => {
  it('takes a folder given as an absolute path: --dir, AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR', () => {
    expect(resolveRoot({ dir: join(dir, 'flag'), env: {}, cwd: undefined })).toBe(join(dir, 'flag'));
    expect(resolveRoot({ env: { AGENT_SESSION_DIR: join(dir, 'env') }, cwd: undefined })).toBe(join(dir, 'env'));
    expect(resolveRoot({ env: { CLAUDE_PROJECT_DIR: join(dir, 'proj') }, cwd: undefined })).toBe(
      join(dir, 'proj', '.claude', 'session'),
    );
  });

  it('refuses (E_IO) a relative folder, and no folder at all: there is nothing to start from', () => {
    expect(codeOf(() => resolveRoot({ dir: 'flag', env: {}, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: { AGENT_SESSION_DIR: 'env' }, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: { CLAUDE_PROJECT_DIR: 'proj' }, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: {}, cwd: undefined }))).toBe('E_IO');
    // The first folder given decides, as with a working directory: a relative --dir is not saved by the variable.
    expect(codeOf(() => resolveRoot({ dir: 'flag', env: { AGENT_SESSION_DIR: dir }, cwd: undefined }))).toBe('E_IO');
  });
});

describe('resolveCall', () => {
  let project: string;
  const configPath = () => join(project, '.claude', 'agent-session.json');
  const writeConfig = (settings: object) => writeFileSync(configPath(), JSON.stringify(settings));
  /** How many times `work` reads the config file. */
  const configReads = (work: () => void): number => {
    // Read by path, or opened by path and read from the descriptor (app/trust.ts readStamped).
    const read = jest.spyOn(fs, 'readFileSync');
    const open = jest.spyOn(fs, 'openSync');
    work();
    const reads = [...read.mock.calls, ...open.mock.calls].filter(([path]) => path === configPath()).length;
    read.mockRestore();
    open.mockRestore();
    return reads;
  };
  beforeEach(() => {
    project = join(dir, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
  });

  it('resolves the root, the settings with their sources and the log folder in one pass', () => {
    writeConfig({ max_errors: 2 });
    const call = resolveCall({ env: { AGENT_SESSION_HISTORY_CAP: '9', HOME: join(dir, 'home') }, cwd: join(project) });
    expect(call.root).toBe(join(project, '.claude', 'session'));
    expect(call.logDir).toBe(join(project, '.claude', 'logs'));
    expect(call.settings).toEqual({ kind: 'valid' });
    expect(call.config.values).toMatchObject({ max_errors: 2, history_cap: 9 });
    expect(call.config.sources.max_errors).toEqual({ kind: 'file', path: configPath() });
    expect(call.config.sources.history_cap).toEqual({ kind: 'env', variable: 'AGENT_SESSION_HISTORY_CAP' });
    expect(call.config.file).toEqual({ path: configPath(), found: true });
  });

  it('puts `--database-url` and the library overrides on top, naming them as sources', () => {
    const url = 'postgres://agents@127.0.0.1:5432/test';
    const call = resolveCall({ env: {}, cwd: project, databaseUrl: url, overrides: { max_errors: 7 } });
    expect(call.config.values).toMatchObject({ database_url: url, max_errors: 7 });
    expect(call.config.sources.database_url).toEqual({ kind: 'option', option: '--database-url' });
    expect(call.config.sources.max_errors.kind).toBe('option');
    expect(codeOf(() => resolveCall({ env: {}, cwd: project, databaseUrl: 'mysql://x' }))).toBe('E_USAGE');
  });

  it("refuses a command's call on invalid settings; a hook's call carries the verdict", () => {
    writeConfig({ max_errors: 'three' });
    expect(codeOf(() => resolveCall({ env: {}, cwd: project }))).toBe('E_USAGE');
    const hook = resolveCall({ env: {}, cwd: project, use: 'hook' });
    expect(hook.settings.kind).toBe('defaults');
    expect(hook.config.values).toEqual(DEFAULT_CONFIG);
    const database = resolveCall({
      env: { AGENT_SESSION_DATABASE_URL: 'postgres://a@h/d' },
      cwd: project,
      use: 'hook',
    });
    expect(database.settings.kind).toBe('fail_open');
  });

  it("reads the config file once, the store's home project included", () => {
    writeConfig({ project: 'acme/own' });
    // Named by the variable: the store's own folder keeps the name its file gives (the home project).
    const env = { AGENT_SESSION_PROJECT: 'acme/other' };
    let home: string | null = null;
    expect(
      configReads(() => {
        const call = resolveCall({ env, cwd: project });
        expect(call.project().name).toBe('acme/other');
        home = call.home();
      }),
    ).toBe(1);
    expect(home).toBe('acme/own');
  });

  // Issue 41 item 5: the working directory's project folder is looked for once per call, by the root and the project
  // alike, and the repository found then names the project: one look at `.git` per call, where there were two.
  it.each([
    ['the default store', {}],
    ['a store named elsewhere', { dir: 'elsewhere' }],
    ['a project named by the variable, its own folder the home', { env: { AGENT_SESSION_PROJECT: 'acme/other' } }],
  ] as const)('looks at the repository once for the root, the project and the home: %s', (_, extra) => {
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/app.git\n');
    const env = { HOME: join(dir, 'home'), ...('env' in extra ? extra.env : {}) };
    const inputs = { env, cwd: join(project), ...('dir' in extra ? { dir: join(dir, extra.dir) } : {}) };
    const looks = jest.spyOn(fs, 'lstatSync');
    const call = resolveCall(inputs);
    const project_ = call.project();
    const home = call.home();
    const gitLooks = looks.mock.calls.filter(([path]) => String(path).endsWith(`${sep}.git`)).length;
    looks.mockRestore();
    expect(gitLooks).toBe(1);
    // The same answers as each part resolved on its own.
    expect(call.root).toBe(resolveRoot(inputs));
    expect(project_).toEqual(projectIdentityOf(projectFolderOf(call.root, inputs), call.config.values.project));
    expect(home).toBe('dir' in extra ? null : projectIdentityOf(project, null).name);
  });

  it('names the home project from the folder when no file names one, and none for a store elsewhere', () => {
    const named = resolveCall({ env: { AGENT_SESSION_PROJECT: 'acme/other' }, cwd: project });
    expect(named.home()).toBe(`path:${realpathSync(project)}`);
    const unnamed = resolveCall({ env: {}, cwd: project });
    expect(unnamed.home()).toBe(unnamed.project().name);
    const elsewhere = resolveCall({ env: {}, cwd: project, dir: join(dir, 'store') });
    expect(elsewhere.home()).toBeNull();
    // The project of a store elsewhere is still the folder the call runs in.
    expect(elsewhere.project().name).toBe(`path:${realpathSync(project)}`);
  });

  it('leaves the project and the clock until first use, then keeps them', () => {
    const call = resolveCall({ env: { AGENT_SESSION_TEST_CLOCK_OFFSET_MS: 'soon' }, cwd: project });
    expect(codeOf(() => call.clock())).toBe('E_USAGE');
    expect(call.project()).toBe(call.project());
  });
});
