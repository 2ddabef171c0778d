// Issue 10: agent-session removes only what it made, and never through a linked store root. Each case is one the
// issue reproduced against the built CLI (a folder named like an id without state.json was removed once old).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const OLD = new Date(Date.now() - 48 * 3_600_000);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[], extra: NodeJS.ProcessEnv = {}, cwd = dir): SpawnSyncReturns<string> {
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: '',
    CLAUDE_PROJECT_DIR: '',
    AGENT_SESSION_CONFIG: '',
  };
  Object.assign(env, extra);
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
}

/** A folder of someone else's, with content, aged past any cleanup window. */
function foreignFolder(path: string, files: Readonly<Record<string, string>> = { 'notes.txt': 'mine' }): void {
  mkdirSync(path, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  utimesSync(path, OLD, OLD);
}

/** An old session made by the CLI in `store`, returning its id. */
function oldSession(store: string): string {
  const made = cli(['create', '--agent', 'a', '--purpose', 'p', '--dir', store]);
  expect(made.status).toBe(0);
  const id = made.stdout.trim();
  utimesSync(join(store, id, 'state.json'), OLD, OLD);
  // last_updated decides for valid sessions: rewrite it to two days ago through an export round trip.
  const exported = cli(['export', id, '--dir', store]);
  const doc = JSON.parse(exported.stdout) as { session: Record<string, string> };
  doc.session.last_updated = OLD.toISOString();
  doc.session.created_at = OLD.toISOString();
  for (const entry of doc.session.history as unknown as Array<Record<string, string>>)
    entry.timestamp = OLD.toISOString();
  writeFileSync(join(dir, 'old.json'), JSON.stringify(doc));
  expect(cli(['delete', id, '--dir', store]).status).toBe(0);
  expect(cli(['import', join(dir, 'old.json'), '--dir', store]).status).toBe(0);
  return id;
}

describe('cleanup removes only what agent-session made', () => {
  it('--dir at a folder holding Documents/: Documents is reported as not ours and kept (text and --json)', () => {
    const home = join(dir, 'home');
    foreignFolder(join(home, 'Documents'), { 'thesis.txt': 'years of work' });
    const json = cli(['cleanup', '--hours', '0', '--json', '--dir', home]);
    expect(json.status).toBe(0);
    const notOurs = [{ id: 'Documents', reason: expect.stringMatching(/no state\.json/) }];
    expect(JSON.parse(json.stdout)).toMatchObject({ removed: [], corrupt_removed: [], not_ours: notOurs });
    const text = cli(['cleanup', '--hours', '0', '--dir', home]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^Not ours, left alone: Documents \(.*no state\.json\)$/m);
    expect(readdirSync(join(home, 'Documents'))).toEqual(['thesis.txt']);
  });

  it('AGENT_SESSION_DIR at a fake ~/.claude: projects/, agents/, commands/, plugins/, todos/ survive, the session goes', () => {
    const claude = join(dir, 'fake-home', '.claude');
    const theirs = ['projects', 'agents', 'commands', 'plugins', 'todos'];
    for (const name of theirs) foreignFolder(join(claude, name), { 'x.json': '{}', 'y.tmp': 'keep' });
    const id = oldSession(claude);
    const result = cli(['cleanup', '--hours', '24', '--json'], { AGENT_SESSION_DIR: claude });
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { removed: string[]; not_ours: Array<{ id: string }> };
    expect(report.removed).toEqual([id]);
    expect(report.not_ours.map((entry) => entry.id).sort()).toEqual([
      'agents',
      'commands',
      'plugins',
      'projects',
      'todos',
    ]);
    for (const name of theirs) expect(readdirSync(join(claude, name)).sort()).toEqual(['x.json', 'y.tmp']);
  });

  it('a session folder holding a file we do not make is not removed, by cleanup or delete', () => {
    const store = join(dir, 'store');
    const id = oldSession(store);
    writeFileSync(join(store, id, 'notes.txt'), 'added by the user');
    const dry = cli(['cleanup', '--hours', '24', '--dry-run', '--json', '--dir', store]);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      removed: [],
      not_ours: [{ id, reason: expect.stringMatching(/notes\.txt/) }],
    });
    const real = cli(['cleanup', '--hours', '24', '--json', '--dir', store]);
    expect(real.status).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ removed: [], not_ours: [{ id }] });
    const deleted = cli(['delete', id, '--dir', store]);
    expect(deleted.status).toBe(4);
    expect(deleted.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readdirSync(join(store, id)).sort()).toEqual(['notes.txt', 'state.json']);
  });

  it.each([
    ['a folder without state.json', (path: string) => foreignFolder(path)],
    ['a link to a folder', (path: string) => symlinkSync(join(dir, 'elsewhere'), path)],
  ])('delete refuses %s with exit 4 and one line', (_name, make) => {
    const store = join(dir, 'store');
    mkdirSync(store);
    foreignFolder(join(dir, 'elsewhere'));
    make(join(store, 'victim'));
    const result = cli(['delete', 'victim', '--dir', store]);
    expect({ status: result.status, lines: result.stderr.trimEnd().split('\n').length }).toEqual({
      status: 4,
      lines: 1,
    });
    expect(existsSync(join(store, 'victim', 'notes.txt'))).toBe(true);
  });
});

describe('a folder holding only a state.json is ours only when that file shows it (issue 20)', () => {
  // A user's `notes/state.json` in a store pointed at $HOME or a project was removed as a "corrupt session".
  it.each([
    ['not JSON (a user\u2019s notes)', 'shopping list: milk, eggs\n'],
    ['JSON of another program', '{"theme": "dark", "window": [800, 600]}\n'],
    ['JSON naming another agent_id', '{"schema_version": 1, "agent_id": "someone-else"}\n'],
    ['a JSON array', '[1, 2, 3]\n'],
    ['an empty file', ''],
  ])('%s: cleanup (also --dry-run) reports it as not ours and keeps it; delete refuses it (exit 4)', (_name, text) => {
    const home = join(dir, 'home');
    foreignFolder(join(home, 'notes'), { 'state.json': text });
    utimesSync(join(home, 'notes', 'state.json'), OLD, OLD);
    for (const args of [['--dry-run'], []]) {
      const result = cli(['cleanup', '--hours', '24', '--json', '--dir', home, ...args]);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        removed: [],
        corrupt_removed: [],
        not_ours: [{ id: 'notes', reason: expect.stringMatching(/state\.json/) }],
      });
    }
    const human = cli(['cleanup', '--hours', '24', '--dir', home]);
    expect(human.stdout).toMatch(/^Not ours, left alone: notes \(/m);
    const deleted = cli(['delete', 'notes', '--dir', home]);
    expect({ status: deleted.status, lines: deleted.stderr.trimEnd().split('\n').length }).toEqual({
      status: 4,
      lines: 1,
    });
    expect(readFileSync(join(home, 'notes', 'state.json'), 'utf8')).toBe(text);
    expect(readdirSync(join(home, 'notes'))).toEqual(['state.json']);
  });

  it('a state.json that is a link (to a valid session elsewhere) is not ours either: kept with its link', () => {
    const store = join(dir, 'store');
    const id = oldSession(store);
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    renameSync(join(store, id, 'state.json'), join(elsewhere, 'state.json'));
    symlinkSync(join(elsewhere, 'state.json'), join(store, id, 'state.json'));
    const result = cli(['cleanup', '--hours', '0', '--json', '--dir', store]);
    expect(JSON.parse(result.stdout)).toMatchObject({ corrupt_removed: [], not_ours: [{ id }] });
    expect(lstatSync(join(store, id, 'state.json')).isSymbolicLink()).toBe(true);
  });

  it('our own damaged session (JSON naming its folder, not a valid state) is removed once old, and named', () => {
    const store = join(dir, 'store');
    const id = oldSession(store);
    const state = JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(store, id, 'state.json'), JSON.stringify({ ...state, phase: 'dancing' }));
    utimesSync(join(store, id, 'state.json'), OLD, OLD);
    const dry = cli(['cleanup', '--hours', '24', '--dry-run', '--dir', store]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^Would remove 1 corrupt session .*:\n  ${id}$`, 'm'));
    const real = cli(['cleanup', '--hours', '24', '--dir', store]);
    expect(real.stdout).toMatch(new RegExp(`^Removed 1 corrupt session .*:\n  ${id}$`, 'm'));
    expect(existsSync(join(store, id))).toBe(false);
  });

  it('cleanup names every session it removes, one a line', () => {
    const store = join(dir, 'store');
    const ids = [oldSession(store), oldSession(store)].sort();
    const result = cli(['cleanup', '--hours', '24', '--dir', store]);
    expect(result.status).toBe(0);
    const [headline, ...rest] = result.stdout.split('\n');
    expect(headline).toMatch(/^Removed 2 sessions idle for more than 24h:$/);
    expect(rest.slice(0, 2).sort()).toEqual(ids.map((id) => `  ${id}`));
  });
});

describe('user folders named like our leftovers', () => {
  it.each([
    ['a staging name', '.creating-a1b2c3', 'Documents/thesis.tex'],
    ['a removing name', '.removing-99999.deadbeef', 'Docs/t'],
    ['a staging name with a user file beside state.json', '.creating-zz9zz9', 'state.json,notes.txt'],
  ])('%s holding user files: listed as not ours (also --dry-run), never removed', (_name, folder, files) => {
    const store = join(dir, 'store');
    const paths = files.split(',').map((file) => join(store, folder, file));
    for (const path of paths) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, 'thesis');
    }
    for (const path of [...paths, join(store, folder)]) utimesSync(path, OLD, OLD);
    for (const args of [['--dry-run'], []]) {
      const result = cli(['cleanup', '--hours', '24', '--json', '--dir', store, ...args]);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        not_ours: [{ id: folder, reason: expect.stringMatching(/does not make/) }],
      });
    }
    for (const path of paths) expect(existsSync(path)).toBe(true);
  });

  it('our own old staging and removing folders are still swept', () => {
    const store = join(dir, 'store');
    const staging = join(store, '.creating-a1b2c3');
    const removing = join(store, '.removing-99999.deadbeef');
    mkdirSync(staging, { recursive: true });
    mkdirSync(removing);
    writeFileSync(join(staging, 'state.json'), '{}');
    writeFileSync(join(removing, 'state.json.lock.1.0000abcd.tmp'), 'draft');
    const aged = [join(staging, 'state.json'), join(removing, 'state.json.lock.1.0000abcd.tmp'), staging, removing];
    for (const path of aged) utimesSync(path, OLD, OLD);
    const result = cli(['cleanup', '--hours', '24', '--json', '--dir', store]);
    expect(JSON.parse(result.stdout)).toMatchObject({ leftovers_removed: 2, not_ours: [] });
    expect(readdirSync(store)).toEqual([]);
  });
});

describe('linked pointer and lock folders, loose files', () => {
  it('cleanup lists linked .agents, .claude-agents, .locks and a loose notes.txt as not ours (also --dry-run), and keeps them', () => {
    const store = join(dir, 'store');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(store);
    mkdirSync(elsewhere);
    for (const name of ['.agents', '.claude-agents', '.locks']) symlinkSync(elsewhere, join(store, name));
    writeFileSync(join(store, 'notes.txt'), 'mine');
    writeFileSync(join(store, 'odd\u001b[2Jname'), 'mine');
    for (const args of [['--dry-run'], []]) {
      const result = cli(['cleanup', '--hours', '0', '--json', '--dir', store, ...args]);
      expect(result.status).toBe(0);
      const ids = (JSON.parse(result.stdout) as { not_ours: Array<{ id: string }> }).not_ours
        .map((entry) => entry.id)
        .sort();
      expect(ids).toEqual(['.agents', '.claude-agents', '.locks', 'notes.txt', 'odd\u001b[2Jname']);
    }
    const text = cli(['cleanup', '--hours', '0', '--dir', store]);
    expect(text.stdout).toMatch(/^Not ours, left alone: \.locks \(.*symbolic link/m);
    expect(text.stdout).toMatch(/^Not ours, left alone: notes\.txt /m);
    expect(text.stdout).not.toContain('\u001b');
    expect(readdirSync(store).sort()).toEqual(['.agents', '.claude-agents', '.locks', 'notes.txt', 'odd\u001b[2Jname']);
  });
});

describe('a store root that is a symbolic link', () => {
  it('a repository shipping .claude/session -> ../..: cleanup refuses (also --dry-run), the sibling project survives', () => {
    const workspace = join(dir, 'workspace');
    const repo = join(workspace, 'repo');
    foreignFolder(join(workspace, 'sibling'), { 'main.c': 'int main;' });
    mkdirSync(join(repo, '.claude'), { recursive: true });
    symlinkSync('../..', join(repo, '.claude', 'session'));
    for (const args of [
      ['cleanup'],
      ['cleanup', '--hours', '0'],
      ['cleanup', '--dry-run', '--hours', '0'],
      ['delete', 'sibling'],
    ]) {
      const result = cli(args, {}, repo);
      expect({ args, status: result.status }).toEqual({ args, status: 4 });
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(join(repo, '.claude', 'session'));
      expect(result.stderr).toMatch(/symbolic link/);
    }
    expect(readdirSync(join(workspace, 'sibling'))).toEqual(['main.c']);
    // Read-only commands may follow it.
    expect(cli(['list'], {}, repo).status).toBe(0);
  });

  it('a linked .claude/ parent is refused too; --dir at the real folder works', () => {
    const real = join(dir, 'real-claude');
    const store = join(real, 'session');
    const id = oldSession(store);
    const project = join(dir, 'project');
    mkdirSync(project);
    symlinkSync(real, join(project, '.claude'));
    const refused = cli(['cleanup', '--hours', '24', '--json'], { CLAUDE_PROJECT_DIR: project });
    expect(refused.status).toBe(4);
    expect(refused.stderr).toContain(join(project, '.claude'));
    expect(existsSync(join(store, id))).toBe(true);
    const direct = cli(['cleanup', '--hours', '24', '--json', '--dir', store]);
    expect(direct.status).toBe(0);
    expect(JSON.parse(direct.stdout)).toMatchObject({ removed: [id] });
  });
});
