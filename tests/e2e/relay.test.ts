// The PostgreSQL hooks' relay (README "Shared store", docs/relay.md), through the built bins: started on demand by a
// hook, used by the next ones (which then load no driver), stopped when idle or asked; and each fault a hook must
// survive, answering as it would without a relay and writing nothing twice: a relay killed mid-request (a read, a
// write, inside an attach, after its commit), a stale socket, a relay that answers garbage, an older protocol, or
// nothing. The database restarted under a relay, and two OS users on one machine, are in relay-system.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { SessionState } from '../../src/core/state';
import { BIN, run, tempDir } from '../helpers';
import { writeDriverProbe } from '../support/driver-probe';
import { alive } from '../support/processes';
import { describeWithDatabase, type TestDatabase } from '../support/test-database';

const dir = tempDir();
const probe = writeDriverProbe(dir);
let folders = 0;

/** A private runtime folder (0700) of its own for each test: its relays are that test's alone. */
function runtimeFolder(): string {
  const folder = mkdtempSync(join(dir, `xdg${folders++}-`));
  return folder;
}

/** The outcome of a process run in the background. */
interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a built bin without waiting: the test kills the relay while it runs. */
function runAsync(bin: string, args: readonly string[], input: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '', AGENT_SESSION_DIR: undefined, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** `agent-session relay serve` in the foreground, its log lines collected; `until` waits for one. */
interface Served {
  readonly child: ChildProcess;
  readonly log: () => string;
  until(text: string, ms?: number): Promise<void>;
}

function serve(env: Record<string, string>): Served {
  const child = spawn(process.execPath, [BIN.cli, 'relay', 'serve'], {
    cwd: dir,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  return {
    child,
    log: () => log,
    async until(text, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!log.includes(text)) {
        if (Date.now() > deadline) throw new Error(`Expected the relay to log "${text}", got: ${log}`);
        if (child.exitCode !== null) throw new Error(`The relay exited ${child.exitCode}: ${log}`);
        await new Promise((done) => setTimeout(done, 20));
      }
    },
  };
}

/** Waits until `check` holds (polling), or fails saying `what`. */
async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** A unix socket server standing where the relay would be, answering each connection with `answer`. */
async function fakeRelay(
  socket: string,
  answer: (line: string) => string | null,
): Promise<Server & { lines: string[] }> {
  const lines: string[] = [];
  const server = Object.assign(
    createServer((connection) => {
      let buffer = '';
      connection.on('error', () => undefined);
      connection.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          lines.push(line);
          const reply = answer(line);
          if (reply !== null) connection.write(reply);
        }
      });
    }),
    { lines },
  );
  mkdirSync(join(socket, '..'), { recursive: true, mode: 0o700 });
  await new Promise<void>((done) => server.listen(socket, done));
  return server;
}

describeWithDatabase('the relay of the PostgreSQL hooks', (db: TestDatabase) => {
  afterEach(() => db.truncate());

  /** The environment of a hook or command of this file, with a runtime folder of its own. */
  const envOf = (runtime: string, extra: Record<string, string> = {}): Record<string, string> => ({
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    XDG_RUNTIME_DIR: runtime,
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
    ...extra,
  });
  const cli = (env: Record<string, string>, args: readonly string[]) => run(BIN.cli, args, { cwd: dir, env });
  const hook = (bin: string, env: Record<string, string>, input: unknown, args: readonly string[] = []) =>
    run(bin, args, { cwd: dir, env, input: JSON.stringify(input) });
  /** What `relay status --json` says. */
  const status = (env: Record<string, string>) => {
    const ran = cli(env, ['relay', 'status', '--json']);
    expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' });
    return JSON.parse(ran.stdout) as {
      socket: string;
      running: boolean;
      why?: string;
      status?: { pid: number; requests: number; clients_served: number; build: string };
    };
  };
  /** A session of `agent` parked in approval (made directly, by the CLI). */
  const park = (env: Record<string, string>, agent: string, id: string): void => {
    expect(cli(env, ['create', '--agent', agent, '--purpose', 'relay', '--id', id]).status).toBe(0);
    expect(cli(env, ['update', id, '--phase', 'approval']).status).toBe(0);
  };
  const read = async (id: string): Promise<SessionState> => {
    const store = db.store();
    try {
      return (await store.read(id))!;
    } finally {
      await store.close();
    }
  };
  const resumes = (state: SessionState): number => state.history.filter((entry) => entry.event === 'resume').length;
  const claudeStart = (agentId: string, agentType: string) => ({
    hook_event_name: 'SubagentStart',
    session_id: 'relay-test',
    transcript_path: join(dir, 't.jsonl'),
    cwd: dir,
    agent_id: agentId,
    agent_type: agentType,
  });
  /** Every session linked to a Claude agent id now. */
  const linkedTo = async (claudeAgentId: string): Promise<string[]> =>
    (await db.sql('SELECT id FROM $s.sessions WHERE claude_agent_id = $1 ORDER BY id', [claudeAgentId])).map(
      (row) => row.id as string,
    );

  describe('on demand', () => {
    it('a hook that finds none answers directly and starts one; the next hooks go through it, loading no driver', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000aa01');
      expect(status(env)).toMatchObject({ running: false });

      const first = hook(BIN.preDelegate, env, { agent_name: 'planner' });
      expect(first.status).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({
        should_resume: true,
        agent_id: 'agent-20261125-100000-0000aa01',
      });
      await eventually('the relay started by the first hook to run', () => status(env).running);
      const before = status(env).status!;

      const second = run(BIN.preDelegate, [], {
        cwd: dir,
        env: { ...env, NODE_OPTIONS: `--require ${probe}` },
        input: JSON.stringify({ agent_name: 'planner' }),
      });
      expect(JSON.parse(second.stdout)).toMatchObject({ should_resume: true });
      // Through the relay: it counted the hook's requests, and the hook loaded neither the driver nor net/tls.
      expect(status(env).status!.requests).toBeGreaterThan(before.requests + 1);
      expect(second.stderr).toContain('LOADED []');
      expect(second.stderr).toContain('DRIVER []');
      expect(resumes(await read('agent-20261125-100000-0000aa01'))).toBe(2);
    });

    it('stops when idle, and `relay stop` stops it; `relay status` says so, exit 0 either way', async () => {
      const runtime = runtimeFolder();
      const env = envOf(runtime, { AGENT_SESSION_RELAY_IDLE_SECONDS: '0.5' });
      const relay = serve(env);
      await relay.until('listening');
      const { socket, status: running } = status(env);
      expect(existsSync(socket)).toBe(true);
      await eventually('the idle relay to stop and remove its socket', () => relay.child.exitCode !== null);
      expect(relay.child.exitCode).toBe(0);
      expect(existsSync(socket)).toBe(false);
      expect(alive(running!.pid)).toBe(false);

      const again = serve(envOf(runtime));
      await again.until('listening');
      const stopped = cli(envOf(runtime), ['relay', 'stop']);
      expect({ status: stopped.status, stderr: stopped.stderr }).toEqual({ status: 0, stderr: '' });
      await eventually('the relay to stop when asked', () => again.child.exitCode !== null);
      expect(status(envOf(runtime))).toMatchObject({ running: false });
      const none = cli(envOf(runtime), ['relay', 'stop']);
      expect(none.status).toBe(0);
      expect(none.stdout).toContain('not running');
    });

    it('a second relay for the same store stays out of the way of the first', async () => {
      const env = envOf(runtimeFolder());
      const first = serve(env);
      await first.until('listening');
      const second = serve(env);
      await eventually('the second relay to exit', () => second.child.exitCode !== null);
      expect(second.child.exitCode).toBe(0);
      expect(second.log()).toContain('already running');
      expect(status(env).status!.pid).toBe(first.child.pid);
      first.child.kill('SIGTERM');
      await eventually('the first relay to stop', () => first.child.exitCode !== null);
    });

    it('`relay status` without a database is refused in one line (exit 2); AGENT_SESSION_RELAY=off: hooks never start one', async () => {
      const none = run(BIN.cli, ['relay', 'status'], { cwd: dir, env: { XDG_RUNTIME_DIR: runtimeFolder() } });
      expect(none.status).toBe(2);
      expect(none.stderr.trim().split('\n')).toHaveLength(1);
      const env = envOf(runtimeFolder(), { AGENT_SESSION_RELAY: 'off' });
      park(env, 'planner', 'agent-20261125-100000-0000aa02');
      expect(JSON.parse(hook(BIN.preDelegate, env, { agent_name: 'planner' }).stdout)).toMatchObject({
        should_resume: true,
      });
      await new Promise((done) => setTimeout(done, 1_500));
      expect(status(env)).toMatchObject({ running: false });
    });
  });

  describe('a relay killed mid-request (SIGKILL): the hook still answers, nothing is written twice', () => {
    /** A relay that stops for good at `pause` (AGENT_SESSION_TEST_RELAY_PAUSE), then the hook, then the kill. */
    async function killedAt(env: Record<string, string>, pause: string, bin: string, input: unknown): Promise<Ran> {
      const relay = serve({ ...env, AGENT_SESSION_TEST_RELAY_PAUSE: pause });
      await relay.until('listening');
      const ran = runAsync(bin, [], JSON.stringify(input), env);
      await relay.until(`paused ${pause.split(':')[1]} ${pause.split(':')[0]}`);
      relay.child.kill('SIGKILL');
      return ran;
    }

    it('during a read: the hook reads again directly, resumes, and records the resume once', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000bb01');
      const ran = await killedAt(env, 'newestOf:before', BIN.preDelegate, { agent_name: 'planner' });
      expect(ran.status).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ should_resume: true, agent_id: 'agent-20261125-100000-0000bb01' });
      expect(resumes(await read('agent-20261125-100000-0000bb01'))).toBe(1);
    });

    it('after a write it ran but did not answer: the write is not sent again (one resume recorded)', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000bb02');
      const ran = await killedAt(env, 'writeIfUnchanged:after', BIN.preDelegate, { agent_name: 'planner' });
      expect(ran.status).toBe(0);
      // The record's outcome is unknown to the hook: it says so, and the resume stands (as for an unwritable store).
      expect(JSON.parse(ran.stdout)).toMatchObject({ should_resume: true, agent_id: 'agent-20261125-100000-0000bb02' });
      expect(resumes(await read('agent-20261125-100000-0000bb02'))).toBe(1);
    });

    it('inside an attach, before its commit: rolled back there, attached once directly', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000bb03');
      const ran = await killedAt(
        env,
        'attachedTo:before',
        BIN.preDelegate,
        claudeStart('a00000000000000e1', 'planner'),
      );
      expect(ran.status).toBe(0);
      expect(ran.stdout).toContain('resumes session agent-20261125-100000-0000bb03');
      expect(await linkedTo('a00000000000000e1')).toEqual(['agent-20261125-100000-0000bb03']);
      expect(resumes(await read('agent-20261125-100000-0000bb03'))).toBe(1);
      expect(await db.sql('SELECT count(*)::int AS n FROM $s.sessions')).toEqual([{ n: 1 }]);
    });

    it('after its commit, before the answer: the hook fails open (no answer), and the attach is not made twice', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000bb04');
      const ran = await killedAt(env, '$commit:after', BIN.preDelegate, claudeStart('a00000000000000e2', 'planner'));
      expect(ran.status).toBe(0);
      expect(ran.stdout).toBe('');
      expect(await linkedTo('a00000000000000e2')).toEqual(['agent-20261125-100000-0000bb04']);
      expect(resumes(await read('agent-20261125-100000-0000bb04'))).toBe(1);
      // The next event of that agent finds its session as the relay left it: linked once.
      const next = hook(BIN.preDelegate, env, claudeStart('a00000000000000e2', 'planner'));
      expect(next.stdout).toContain('agent-20261125-100000-0000bb04');
      expect(resumes(await read('agent-20261125-100000-0000bb04'))).toBe(1);
    });
  });

  describe('a relay that cannot serve: the hook connects directly', () => {
    it('a stale socket (its relay was killed): answered directly, and a new relay takes the socket over', async () => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000cc01');
      const old = serve(env);
      await old.until('listening');
      const { socket } = status(env);
      old.child.kill('SIGKILL');
      await eventually(
        'the killed relay to be gone',
        () => old.child.exitCode !== null || old.child.signalCode !== null,
      );
      expect(existsSync(socket)).toBe(true);
      const ran = hook(BIN.preDelegate, env, { agent_name: 'planner' });
      expect(JSON.parse(ran.stdout)).toMatchObject({ should_resume: true });
      await eventually('a new relay on the stale socket', () => status(env).running);
      expect(status(env).status!.pid).not.toBe(old.child.pid);
      expect(resumes(await read('agent-20261125-100000-0000cc01'))).toBe(1);
    });

    it.each([
      ['garbage (an HTTP server)', () => 'HTTP/1.1 400 Bad Request\r\n\r\n'],
      [
        'an older protocol in its hello',
        (line: string) =>
          line.includes('"relay"')
            ? `${JSON.stringify({ relay: 'agent-session relay', protocol: 0, build: 'old', pid: 1 })}\n`
            : `${JSON.stringify({ id: 1, ok: null })}\n`,
      ],
      ['nothing at all (a relay that hangs)', () => null],
    ])('%s: the hook answers from a direct connection, and runs nothing through it', async (_what, answer) => {
      const env = envOf(runtimeFolder());
      park(env, 'planner', 'agent-20261125-100000-0000cc02');
      const socket = status(env).socket;
      const fake = await fakeRelay(socket, answer);
      try {
        const started = Date.now();
        const ran = hook(BIN.preDelegate, env, { agent_name: 'planner' });
        expect(ran.status).toBe(0);
        expect(JSON.parse(ran.stdout)).toMatchObject({
          should_resume: true,
          agent_id: 'agent-20261125-100000-0000cc02',
        });
        expect(Date.now() - started).toBeLessThan(4_000);
        expect(resumes(await read('agent-20261125-100000-0000cc02'))).toBe(1);
        // The hello, and at most the read sent behind it: never a write.
        expect(fake.lines.length).toBeGreaterThanOrEqual(1);
        expect(
          fake.lines.filter((line) => /"call":"(writeVersioned|writeIfUnchanged|create|\$lock)"/.test(line)),
        ).toEqual([]);
      } finally {
        fake.close();
      }
    });
  });
});
