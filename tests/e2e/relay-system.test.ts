// The relay of the PostgreSQL hooks against the machine around it (README "Shared store", docs/relay.md):
// - the database restarted under a running relay: a private PostgreSQL cluster (initdb as the `postgres` user,
//   listening on a unix socket of its own), so restarting it disturbs no other test;
// - two OS users on one machine (a second user made with useradd): user B's hook never reaches user A's relay, and a
//   relay folder another user made in B's place (with a socket in it) is refused.
// Both need root (useradd, running as other users), and the cluster PostgreSQL's server binaries: without them the
// tests are skipped, saying why.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { BIN, run } from '../helpers';
import { describeWithDatabase, type TestDatabase } from '../support/test-database';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const OTHER_USER = 'agent-session-relay-b';
const root = process.getuid?.() === 0;
const hasCluster = root && existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
const hasUsers = root && spawnSync('useradd', ['--help']).status === 0 && spawnSync('setpriv', ['--help']).status === 0;

/** A folder every user may enter (the other user's project, logs and temp folders live under it). */
const shared = mkdtempSync(join(tmpdir(), 'agent-session-relay-system-'));
chmodSync(shared, 0o755);
afterAll(() => rmSync(shared, { recursive: true, force: true }));

/** Runs `command` as the `postgres` user; throws with its output when it fails. */
function asPostgres(command: string, args: readonly string[]): void {
  const ran = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', timeout: 60_000 });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${ran.status}: ${ran.stderr}${ran.stdout}`);
}

/** Waits until `check` holds (polling), or fails saying `what`. */
async function eventually(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const runtimeOf = (name: string): string => {
  const folder = join(shared, name);
  mkdirSync(folder, { mode: 0o700 });
  return folder;
};

/** The status `relay status --json` gives for `env`. */
function relayStatus(env: Record<string, string>): {
  running: boolean;
  socket: string;
  status?: { pid: number; requests: number };
} {
  const ran = run(BIN.cli, ['relay', 'status', '--json'], { cwd: shared, env });
  expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(ran.stdout) as ReturnType<typeof relayStatus>;
}

(hasCluster ? describe : describe.skip)(
  `the database restarted under a running relay${hasCluster ? '' : ' (skipped: needs root and PostgreSQL 15 server binaries)'}`,
  () => {
    // Under the shared folder, removed after the file (a skipped run leaves nothing either).
    const base = join(shared, 'cluster');
    const data = join(base, 'data');
    const sockets = join(base, 'sockets');
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const options = `-k ${sockets} -p ${port} -c listen_addresses=''`;
    const url = `postgres://postgres@/postgres?host=${encodeURIComponent(sockets)}&port=${port}`;
    const env = {
      AGENT_SESSION_DATABASE_URL: url,
      AGENT_SESSION_DATABASE_SCHEMA: 'agent_session',
      XDG_RUNTIME_DIR: runtimeOf('restart-runtime'),
      AGENT_SESSION_LOG_DIR: join(base, 'logs'),
      AGENT_SESSION_RELAY_IDLE_SECONDS: '60',
    };
    beforeAll(() => {
      mkdirSync(base, { mode: 0o700 });
      chownSync(base, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), 0);
      mkdirSync(sockets);
      chownSync(sockets, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), 0);
      asPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(base, 'server.log'), '-w', 'start']);
      expect(run(BIN.cli, ['migrate'], { cwd: shared, env }).status).toBe(0);
    }, 120_000);
    afterAll(() => {
      run(BIN.cli, ['relay', 'stop'], { cwd: shared, env });
      spawnSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
      rmSync(base, { recursive: true, force: true });
    });

    it('the relay reconnects: the hooks after the restart go through the same relay and answer', async () => {
      const id = 'agent-20261125-110000-0000dd01';
      expect(
        run(BIN.cli, ['create', '--agent', 'planner', '--purpose', 'restart', '--id', id], { cwd: shared, env }).status,
      ).toBe(0);
      expect(run(BIN.cli, ['update', id, '--phase', 'approval'], { cwd: shared, env }).status).toBe(0);
      const ask = () =>
        run(BIN.preDelegate, [], { cwd: shared, env, input: JSON.stringify({ agent_name: 'planner' }) });
      expect(JSON.parse(ask().stdout)).toMatchObject({ should_resume: true });
      await eventually('the relay to start', () => relayStatus(env).running);
      expect(JSON.parse(ask().stdout)).toMatchObject({ should_resume: true, agent_id: id });
      const before = relayStatus(env).status!;

      asPostgres(join(PG_BIN, 'pg_ctl'), [
        '-D',
        data,
        '-o',
        options,
        '-l',
        join(base, 'server.log'),
        '-m',
        'fast',
        '-w',
        'restart',
      ]);

      const after = ask();
      expect(after.status).toBe(0);
      expect(JSON.parse(after.stdout)).toMatchObject({ should_resume: true, agent_id: id });
      const now = relayStatus(env).status!;
      expect(now.pid).toBe(before.pid);
      expect(now.requests).toBeGreaterThan(before.requests + 1);
      // Three resumes recorded, each once: before, through the relay, and after the restart.
      const history = JSON.parse(run(BIN.cli, ['get', id], { cwd: shared, env }).stdout) as {
        history: { event?: string }[];
      };
      expect(history.history.filter((entry) => entry.event === 'resume')).toHaveLength(3);
    }, 120_000);
  },
);

/** On the test database when the other user can be made; else a visible skip saying why. */
const describeUsers = hasUsers
  ? describeWithDatabase
  : (name: string, _body: (db: TestDatabase) => void): void =>
      describe.skip(name, () => it.skip('needs root, useradd and setpriv', () => undefined));

describeUsers('two OS users on one machine', (db: TestDatabase) => {
  let uid = 0;
  let gid = 0;
  let made = false;
  // The other user connects as the role the tests use (its own OS name is no role of the test database).
  const role = (): string => spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim();
  const urlOf = (): string => {
    const url = new URL(db.url);
    if (url.username === '') url.username = role();
    return url.toString();
  };
  beforeAll(() => {
    if (spawnSync('id', ['-u', OTHER_USER]).status !== 0) {
      const added = spawnSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], {
        encoding: 'utf8',
      });
      if (added.status !== 0) throw new Error(`useradd: ${added.stderr}`);
      made = true;
    }
    uid = Number(spawnSync('id', ['-u', OTHER_USER], { encoding: 'utf8' }).stdout);
    gid = Number(spawnSync('id', ['-g', OTHER_USER], { encoding: 'utf8' }).stdout);
  });
  afterAll(async () => {
    // B's relays (started by B's hooks here) idle out within a second; the user goes once they have.
    const relaysOfB = (): number[] =>
      spawnSync('pgrep', ['-u', String(uid), '-f', 'agent-session.cjs relay serve'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number);
    await eventually("B's relays to stop", () => relaysOfB().length === 0, 10_000).catch(() => {
      for (const pid of relaysOfB()) process.kill(pid, 'SIGKILL');
    });
    if (made) spawnSync('userdel', [OTHER_USER]);
  });
  afterEach(() => db.truncate());

  /** A folder of user B's (0700), under the shared one. */
  const folderOfB = (name: string): string => {
    const folder = join(shared, name);
    mkdirSync(folder, { mode: 0o700 });
    chownSync(folder, uid, gid);
    return folder;
  };
  /** Runs the built pre-delegate as user B, with exactly `env`. */
  const asB = (env: Record<string, string>, input: unknown) =>
    spawnSync(
      'setpriv',
      [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', process.execPath, BIN.preDelegate],
      {
        cwd: shared,
        env: { PATH: process.env.PATH ?? '', ...env },
        input: JSON.stringify(input),
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
  const envOfB = (extra: Record<string, string>): Record<string, string> => ({
    AGENT_SESSION_DATABASE_URL: urlOf(),
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    AGENT_SESSION_LOG_DIR: folderOfB(`logs-${Math.random().toString(16).slice(2)}`),
    AGENT_SESSION_DIR: join(shared, 'unused-store'),
    // The relay B's hook starts stops a second after its last client (the test's folders go after it).
    AGENT_SESSION_RELAY_IDLE_SECONDS: '1',
    ...extra,
  });
  /** The name of the relay socket of B's store (of the built bins' build), whatever the folder. */
  const socketName = (): string =>
    basename(relayStatus({ AGENT_SESSION_DATABASE_URL: urlOf(), AGENT_SESSION_DATABASE_SCHEMA: db.schema }).socket);
  const park = (id: string): void => {
    const env = { AGENT_SESSION_DATABASE_URL: urlOf(), AGENT_SESSION_DATABASE_SCHEMA: db.schema };
    expect(
      run(BIN.cli, ['create', '--agent', 'planner', '--purpose', 'users', '--id', id], { cwd: shared, env }).status,
    ).toBe(0);
    expect(run(BIN.cli, ['update', id, '--phase', 'approval'], { cwd: shared, env }).status).toBe(0);
  };

  it("user B's hook never reaches user A's relay, even given A's runtime folder; it keeps its own", async () => {
    park('agent-20261125-120000-0000ee01');
    // User A (this process's user) runs a relay for the very store B uses, in A's runtime folder.
    const runtimeA = runtimeOf(`runtime-a-${Math.random().toString(16).slice(2)}`);
    const envA = {
      AGENT_SESSION_DATABASE_URL: urlOf(),
      AGENT_SESSION_DATABASE_SCHEMA: db.schema,
      XDG_RUNTIME_DIR: runtimeA,
    };
    expect(
      run(BIN.preDelegate, [], { cwd: shared, env: envA, input: JSON.stringify({ agent_name: 'nobody' }) }).status,
    ).toBe(0);
    await eventually("A's relay to start", () => relayStatus(envA).running);
    const before = relayStatus(envA).status!;

    const tmpB = folderOfB(`tb${Math.random().toString(16).slice(2, 6)}`);
    const ran = asB(envOfB({ XDG_RUNTIME_DIR: runtimeA, TMPDIR: tmpB }), { agent_name: 'planner' });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ should_resume: true, agent_id: 'agent-20261125-120000-0000ee01' });
    // A's relay saw nothing of B (only A's own status questions).
    expect(relayStatus(envA).status!.requests).toBe(before.requests + 1);
    // B started a relay of its own: in B's temp folder, private to B, its socket B's.
    const folderB = join(tmpB, `agent-session-${uid}`);
    const socketB = join(folderB, socketName());
    await eventually("B's own relay to start", () => existsSync(socketB));
    expect(statSync(folderB).uid).toBe(uid);
    expect(statSync(folderB).mode & 0o777).toBe(0o700);
    expect(statSync(socketB).uid).toBe(uid);
    const again = asB(envOfB({ TMPDIR: tmpB }), { agent_name: 'planner' });
    expect(JSON.parse(again.stdout)).toMatchObject({ should_resume: true });
    expect(relayStatus(envA).status!.requests).toBe(before.requests + 2);
    run(BIN.cli, ['relay', 'stop'], { cwd: shared, env: envA });
  });

  it("a relay folder another user made in B's place, socket and all, is refused: B connects directly", async () => {
    park('agent-20261125-120000-0000ee02');
    const tmpB = join(shared, `sq${Math.random().toString(16).slice(2, 6)}`);
    mkdirSync(tmpB, { mode: 0o1777 });
    chmodSync(tmpB, 0o1777);
    // User A (root here) makes B's relay folder first, and listens where B's relay socket would be.
    const squatted = join(tmpB, `agent-session-${uid}`);
    mkdirSync(squatted, { mode: 0o777 });
    chmodSync(squatted, 0o777);
    const socket = join(squatted, socketName());
    let connections = 0;
    const planted = createServer((connection) => {
      connections++;
      connection.destroy();
    });
    await new Promise<void>((done) => planted.listen(socket, done));
    // Open to anyone, as a planted socket would be: only the checks keep B out, not the file's mode.
    chmodSync(socket, 0o777);
    try {
      const ran = asB(envOfB({ TMPDIR: tmpB }), { agent_name: 'planner' });
      expect(ran.status).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({
        should_resume: true,
        agent_id: 'agent-20261125-120000-0000ee02',
      });
      await new Promise((done) => setTimeout(done, 500));
      expect(connections).toBe(0);
      // Nor did B start a relay there (the folder is not B's).
      expect(statSync(squatted).uid).toBe(0);
    } finally {
      planted.close();
    }
  });
});
