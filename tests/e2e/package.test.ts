// The npm package as a user gets it: the tarball `npm run package` makes, installed with `npm install -g` into a temp
// prefix, its bins on PATH, in a fresh project: the CLI, `init`, both hooks, the PostgreSQL store, the report and the
// library, with nothing of the work tree (no dev dependency, no source) within reach.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const REPO = resolve(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const base = mkdtempSync(join(tmpdir(), 'agent-session-package-'));
const prefix = join(base, 'prefix');
const bin = join(prefix, 'bin');
const project = join(base, 'project');
let tarball = '';
let install: SpawnSyncReturns<string>;

/** A user's environment: the prefix's bins and this node on PATH, a temp HOME, nothing of ours. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(base, 'home'),
    LANG: 'C.UTF-8',
    // A user's runtime folder: the test file's own, so a relay a PostgreSQL hook starts is stopped after the file.
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '',
    ...extra,
  };
}

function user(command: string, args: string[], input?: string, extra: Record<string, string> = {}) {
  return spawnSync(command, args, { cwd: project, env: userEnv(extra), encoding: 'utf8', input, timeout: 60_000 });
}

beforeAll(() => {
  mkdirSync(join(base, 'home'));
  mkdirSync(join(project, '.claude'), { recursive: true });
  const packed = spawnSync('npm', ['run', '-s', 'package', '--', base, '--no-build'], { cwd: REPO, encoding: 'utf8' });
  tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  if (packed.status !== 0) throw new Error(`npm run package failed: ${packed.stderr}`);
  install = spawnSync(
    'npm',
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { encoding: 'utf8', env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` } },
  );
}, 180_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

it('packs only what runs: the built dist, README, LICENSE and a manifest without scripts or dev dependencies', () => {
  expect(existsSync(tarball)).toBe(true);
  const listing = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  expect(listing).toEqual(
    expect.arrayContaining([
      'package/package.json',
      'package/README.md',
      'package/LICENSE',
      'package/dist/agent-session.cjs',
      'package/dist/pre-delegate.cjs',
      'package/dist/subagent-stop.cjs',
      'package/dist/postgres.cjs',
      'package/dist/index.cjs',
    ]),
  );
  expect(listing.filter((f) => !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$)/.test(f))).toEqual([]);
  const manifest = JSON.parse(
    spawnSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }).stdout,
  ) as Record<string, unknown>;
  expect(manifest.scripts).toBeUndefined();
  expect(manifest.devDependencies).toBeUndefined();
  expect(manifest.version).toBe(VERSION);
});

it('installs globally without a warning about install scripts, and puts the three bins on PATH', () => {
  expect(install.status).toBe(0);
  expect(install.stderr).not.toMatch(/install-scripts|prepare/);
  for (const name of ['agent-session', 'pre-delegate', 'subagent-stop']) expect(existsSync(join(bin, name))).toBe(true);
  const version = user('agent-session', ['--version']);
  expect(version.stdout.trim()).toBe(VERSION);
});

it('works in a fresh project: init wires the installed hooks, the CLI and both hooks answer', () => {
  const init = user('agent-session', ['init']);
  expect(init.status).toBe(0);
  const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  const commands = Object.values(settings.hooks).flatMap((groups) =>
    groups.flatMap((g) => g.hooks.map((h) => h.command)),
  );
  expect(commands.length).toBeGreaterThanOrEqual(7);
  for (const command of commands)
    expect(command).toContain(join(prefix, 'lib', 'node_modules', 'agent-session', 'dist'));
  const id = user('agent-session', ['create', '--agent', 'terraform-architect', '--purpose', 'p']).stdout.trim();
  expect(user('agent-session', ['update', id, '--phase', 'approval']).status).toBe(0);
  const seed = JSON.parse(user('pre-delegate', [], JSON.stringify({ agent_name: 'terraform-architect' })).stdout) as {
    should_resume: boolean;
    agent_id: string;
  };
  expect(seed).toMatchObject({ should_resume: true, agent_id: id });
  const stop = JSON.parse(user('subagent-stop', [], JSON.stringify({ agent_id: id, phase: 'completed' })).stdout) as {
    agent_id: string;
  };
  expect(stop.agent_id).toBe(id);
  const report = user('agent-session', ['report', '--out', join(base, 'report.html')]);
  expect(report.status).toBe(0);
  expect(readFileSync(join(base, 'report.html'), 'utf8')).toContain('<html');
});

it('serves the library from the installed package, which loads without the Agent SDK (an optional peer)', () => {
  const script =
    "const { openStore, agentSessionHooks } = require('agent-session');" +
    'openStore({ dir: process.argv[1] }).then(async (s) => { console.log((await s.list()).length); await s.close(); })' +
    '.then(() => agentSessionHooks({ dir: process.argv[1] })).catch((e) => console.log(e.code, e.message));';
  const run = spawnSync(process.execPath, ['-e', script, join(project, '.claude', 'session')], {
    cwd: base,
    env: { ...userEnv(), NODE_PATH: join(prefix, 'lib', 'node_modules') },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  const [count, refusal] = run.stdout.trim().split('\n');
  expect(Number(count)).toBeGreaterThanOrEqual(1);
  // Asked for the SDK's hooks without the SDK installed: a usage error that names the package to install.
  expect(refusal).toMatch(/^E_USAGE agentSessionHooks needs @anthropic-ai\/claude-agent-sdk /);
});

describeWithDatabase('the installed package on PostgreSQL', (db) => {
  it('migrates, records and reports on the shared store with its own driver', () => {
    const env = { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: freshSchemaName() };
    expect(user('agent-session', ['migrate'], undefined, env).status).toBe(0);
    const id = user('agent-session', ['create', '--agent', 'pg-agent', '--purpose', 'p'], undefined, env).stdout.trim();
    expect(user('agent-session', ['update', id, '--phase', 'planning'], undefined, env).status).toBe(0);
    const seed = JSON.parse(user('pre-delegate', [], JSON.stringify({ agent_name: 'pg-agent' }), env).stdout) as {
      agent_id: string;
    };
    expect(seed.agent_id).toBe(id);
    expect(user('agent-session', ['report', '--out', join(base, 'pg.html')], undefined, env).status).toBe(0);
    expect(readFileSync(join(base, 'pg.html'), 'utf8')).toContain(id);
    spawnSync('psql', [db.url, '-c', `DROP SCHEMA IF EXISTS "${env.AGENT_SESSION_DATABASE_SCHEMA}" CASCADE`]);
  });
});
