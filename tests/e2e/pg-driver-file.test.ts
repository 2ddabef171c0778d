// The PostgreSQL driver (postgres.js) is its own file, dist/postgres.cjs (scripts/build.mjs): no bin or library
// bundle carries its code, the bins load it from their own folder (only on the PostgreSQL path: postgres-cli.test.ts),
// and the published package (npm pack, without node_modules) still reaches the database through its bins.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN, run, tempDir } from '../helpers';
import { writeDriverProbe } from '../support/driver-probe';
import { describeWithDatabase } from '../support/test-database';

const root = resolve(__dirname, '..', '..');
const dist = join(root, 'dist');
/** Strings only postgres.js' code holds (an auth mechanism and two of its error codes), none of ours. */
const DRIVER_MARKERS = ['SCRAM-SHA-256', 'CONNECTION_DESTROYED', 'MAX_PARAMETERS_EXCEEDED'];

const dir = tempDir();
const probe = writeDriverProbe(dir);

describe('the built files', () => {
  // A bin's code is its bundle, the file its loader reads (`<bin>.bundle`, scripts/code-cache.mjs).
  it.each(['agent-session.bundle', 'pre-delegate.bundle', 'subagent-stop.bundle', 'index.cjs'])(
    '%s holds none of the driver’s code and requires ./postgres.cjs',
    (file) => {
      const text = readFileSync(join(dist, file), 'utf8');
      for (const marker of DRIVER_MARKERS)
        expect({ marker, found: text.includes(marker) }).toEqual({ marker, found: false });
      expect(text).toContain('./postgres.cjs');
    },
  );

  it('postgres.cjs holds the driver', () => {
    const text = readFileSync(join(dist, 'postgres.cjs'), 'utf8');
    for (const marker of DRIVER_MARKERS) expect(text).toContain(marker);
  });
});

describeWithDatabase('the driver file on PostgreSQL', (db) => {
  // Connecting directly: through the relay a hook loads no driver at all (tests/e2e/relay.test.ts).
  const env = {
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    AGENT_SESSION_RELAY: 'off',
  };

  it('each bin loads it from its own folder', () => {
    const cli = run(BIN.cli, ['create', '--agent', 'driver-file', '--purpose', 'p'], {
      cwd: dir,
      env: { ...env, NODE_OPTIONS: `--require ${probe}` },
    });
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain(`DRIVER ${JSON.stringify([join(dist, 'postgres.cjs')])}`);
    expect(run(BIN.cli, ['update', cli.stdout.trim(), '--phase', 'planning'], { cwd: dir, env }).status).toBe(0);
    const hook = run(BIN.preDelegate, [], {
      cwd: dir,
      input: '{"agent_name":"driver-file"}',
      env: { ...env, NODE_OPTIONS: `--require ${probe}` },
    });
    expect(JSON.parse(hook.stdout)).toMatchObject({ should_resume: true, agent_id: cli.stdout.trim() });
    expect(hook.stderr).toContain(`DRIVER ${JSON.stringify([join(dist, 'postgres.cjs')])}`);
    const stop = run(BIN.subagentStop, [], {
      cwd: dir,
      input: JSON.stringify({ task_info: { agent_id: cli.stdout.trim() }, exit_code: 0 }),
      env: { ...env, NODE_OPTIONS: `--require ${probe}` },
    });
    expect(stop.status).toBe(0);
    expect(stop.stderr).toContain(`DRIVER ${JSON.stringify([join(dist, 'postgres.cjs')])}`);
    const state = JSON.parse(run(BIN.cli, ['get', cli.stdout.trim()], { cwd: dir, env }).stdout);
    expect(state.phase).toBe('completed');
  });

  it('a bin copied without it: one line naming the file, exit 5 (E_IO), no stack', () => {
    const lone = join(dir, 'lone');
    mkdirSync(lone);
    copyFileSync(BIN.cli, join(lone, 'agent-session.cjs'));
    copyFileSync(join(dist, 'agent-session.bundle'), join(lone, 'agent-session.bundle'));
    const result = run(join(lone, 'agent-session.cjs'), ['list'], { cwd: dir, env });
    expect(result.status).toBe(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('dist/postgres.cjs');
  });

  it('the packed package ships it: its bins reach the database without node_modules', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
      }),
    ) as [{ filename: string; files: readonly { path: string }[] }];
    expect(packed.files.map((file) => file.path)).toContain('dist/postgres.cjs');
    execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', dir]);
    const bin = (name: string) => join(dir, 'package', 'dist', name);
    const created = run(bin('agent-session.cjs'), ['create', '--agent', 'packed', '--purpose', 'p'], { cwd: dir, env });
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: '' });
    const planned = run(bin('agent-session.cjs'), ['update', created.stdout.trim(), '--phase', 'planning'], {
      cwd: dir,
      env,
    });
    expect(planned.status).toBe(0);
    const hook = run(bin('pre-delegate.cjs'), [], { cwd: dir, input: '{"agent_name":"packed"}', env });
    expect(JSON.parse(hook.stdout)).toMatchObject({ should_resume: true, agent_id: created.stdout.trim() });
    // A database that does not answer: the bin got as far as the driver, which reports it (exit 5, docs/cli.md "Exit codes").
    const down = run(bin('agent-session.cjs'), ['list'], {
      cwd: dir,
      env: { ...env, AGENT_SESSION_DATABASE_URL: 'postgres://u@127.0.0.1:1/x' },
    });
    expect(down.status).toBe(5);
  });
});
