// The npm package as a user gets it (issue 44 item 5: a light install): README's line, `npm install -g
// ~/agent-session/plugin`, run as written in a fresh HOME whose npm global folder is a temp prefix: the committed,
// prebuilt folder, no dependency, no script, no warning, nothing built; then the CLI, `init`, both hooks, the
// PostgreSQL store, the report and the library, with nothing of the work tree within reach. And the tarball a release
// publishes (`npm run package`: the same folder, packed), installed by an app that requires the library.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freshMachine, readmeInstall, runLine, type Machine } from '../support/install';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const REPO = resolve(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const base = mkdtempSync(join(tmpdir(), 'agent-session-package-'));
const project = join(base, 'project');
let machine: Machine;
let installed: { stdout: string; stderr: string };
let bin: string;

function user(command: string, args: string[], input?: string, extra: Record<string, string> = {}) {
  return spawnSync(command, args, {
    cwd: project,
    env: { ...machine.env, ...extra },
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
}

beforeAll(() => {
  machine = freshMachine(base);
  bin = join(machine.prefix, 'bin');
  mkdirSync(join(project, '.claude'), { recursive: true });
  const [line] = readmeInstall().cli;
  expect(line).toBe('npm install -g ~/agent-session/plugin');
  installed = runLine(line!, project, machine.env);
}, 180_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

it("README's line installs one package, nothing else, and says nothing but that: no warning, no script", () => {
  expect(installed.stderr).toBe('');
  expect(installed.stdout.trim()).toMatch(/^added 1 package in \d+(\.\d+)?m?s$/);
  expect(readdirSync(join(machine.prefix, 'lib', 'node_modules'))).toEqual(['agent-session']);
  // No dependency below it either (the bundles hold them): no Claude Code, opencode or Codex, nothing at all.
  const listing = spawnSync('npm', ['ls', '-g', '--all', '--parseable'], { env: machine.env, encoding: 'utf8' });
  expect(listing.stdout.trim().split('\n').slice(1)).toEqual([
    join(machine.prefix, 'lib', 'node_modules', 'agent-session'),
  ]);
  for (const name of ['agent-session', 'pre-delegate', 'subagent-stop']) expect(existsSync(join(bin, name))).toBe(true);
  expect(user('agent-session', ['--version']).stdout.trim()).toBe(VERSION);
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
  // The installed copy is the folder README installs from (npm links a folder): `git pull` there upgrades hooks and CLI.
  for (const command of commands) expect(command).toContain(join(machine.home, 'agent-session', 'plugin', 'dist'));
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
    env: { ...machine.env, NODE_PATH: join(machine.prefix, 'lib', 'node_modules') },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  const [count, refusal] = run.stdout.trim().split('\n');
  expect(Number(count)).toBeGreaterThanOrEqual(1);
  // Asked for the SDK's hooks without the SDK installed: a usage error that names the package to install.
  expect(refusal).toMatch(/^E_USAGE agentSessionHooks needs @anthropic-ai\/claude-agent-sdk /);
});

describe('the tarball a release publishes (`npm run package`)', () => {
  let tarball = '';
  beforeAll(() => {
    const packed = spawnSync('npm', ['run', '-s', 'package', '--', base, '--no-build'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm run package failed: ${packed.stderr}`);
    tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  }, 120_000);

  it('is the prebuilt plugin/ folder: what runs, the library and its types, a manifest without scripts or dependencies', () => {
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
        'package/types/index.d.ts',
      ]),
    );
    const other = /^package\/(dist\/|types\/|hooks\/|commands\/|\.claude-plugin\/|package\.json$|README\.md$|LICENSE$)/;
    expect(listing.filter((f) => !other.test(f))).toEqual([]);
    const manifest = JSON.parse(
      spawnSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.version).toBe(VERSION);
  });

  it("an app that installs it gets the library, typed, and the Agent SDK from the app's own node_modules", () => {
    const app = join(base, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: '' });
    // A stand-in SDK in the app's node_modules: what agentSessionHooks imports when the app passes none.
    const sdk = join(app, 'node_modules', '@anthropic-ai', 'claude-agent-sdk');
    mkdirSync(sdk, { recursive: true });
    writeFileSync(join(sdk, 'package.json'), JSON.stringify({ name: '@anthropic-ai/claude-agent-sdk', main: 'i.js' }));
    writeFileSync(
      join(sdk, 'i.js'),
      'exports.tool = (name, d, s, h) => ({ name, h }); exports.createSdkMcpServer = (o) => ({ type: "sdk", ...o });',
    );
    const script =
      "const { agentSessionHooks } = require('agent-session');" +
      'agentSessionHooks({ dir: process.argv[1] }).then(async (s) => { console.log(Object.keys(s.hooks).length > 0, ' +
      'Object.keys(s.mcpServers).length); await s.close(); }).catch((e) => console.log(e.code, e.message));';
    const run = spawnSync(process.execPath, ['-e', script, join(app, 'store')], { cwd: app, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true 1');
    expect(existsSync(join(app, 'node_modules', 'agent-session', 'types', 'index.d.ts'))).toBe(true);
  }, 120_000);
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
