// Issue 20 #1 and #3: every wait for the database is bounded. The built bins against a URL that reaches something
// other than PostgreSQL (a local listener answering in HTTP and closing, one that accepts and stays silent), and
// against the real server with the sessions table locked: hooks give their fail-open answer well within Claude
// Code's 30 s hook timeout, the CLI exits 5 with one line, and no listener sees a storm of reconnections.
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import postgres from 'postgres';
import { BIN, projectMaker, tempDir } from '../helpers';
import { describeWithDatabase, TEST_DATABASE_URL } from '../support/test-database';

const base = tempDir();
const project = projectMaker(base);

/** Claude Code's hook timeout: a hook still running then is killed, and the host waited all that time. */
const HOST_TIMEOUT_MS = 30_000;
/** "Did not hang": well under the host's timeout, far above the bounds (hooks 5 s, commands 10 s to connect). */
const DID_NOT_HANG_MS = 20_000;

interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * Runs a built bin without blocking this process (the listeners below live in it), killed at the host's timeout.
 */
function runBin(bin: string, args: readonly string[], cwd: string, env: Record<string, string>, input = '') {
  return new Promise<Finished>((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      // The test file's runtime folder: a relay a hook starts is stopped after the file (tests/support/relay-isolation.ts).
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        NODE_EXTRA_CA_CERTS: '',
        XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), HOST_TIMEOUT_MS);
    child.on('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr, ms: performance.now() - started });
    });
    child.stdin.end(input);
  });
}

/** The read-path and write-path hook calls of both protocols, each with its fail-open answer. */
function hookCalls(cwd: string, sessionId = 'a1b2c3d4') {
  const claude = { session_id: 's1', transcript_path: join(cwd, 't.jsonl'), cwd };
  return [
    { name: 'seed pre-delegate by name', bin: BIN.preDelegate, input: { agent_name: 'planner' }, failOpen: 'error' },
    { name: 'seed pre-delegate by id', bin: BIN.preDelegate, input: { agent_id: sessionId }, failOpen: 'error' },
    {
      name: 'SessionStart',
      bin: BIN.preDelegate,
      input: { ...claude, hook_event_name: 'SessionStart', source: 'startup' },
      failOpen: '',
    },
    {
      name: 'UserPromptSubmit',
      bin: BIN.preDelegate,
      input: { ...claude, hook_event_name: 'UserPromptSubmit', prompt: 'go on' },
      failOpen: '',
    },
    {
      name: 'PreToolUse',
      bin: BIN.preDelegate,
      input: {
        ...claude,
        hook_event_name: 'PreToolUse',
        tool_name: 'Agent',
        tool_input: { description: 'plan', prompt: 'plan it', subagent_type: 'planner' },
        tool_use_id: 'toolu_1',
      },
      failOpen: '',
    },
    {
      name: 'SubagentStart',
      bin: BIN.preDelegate,
      input: { ...claude, hook_event_name: 'SubagentStart', agent_id: 'a0000000000000001', agent_type: 'planner' },
      failOpen: '',
    },
  ] as const;
}

/** A hook's fail-open answer: the seed protocol's `{"should_resume": false, "reason": "error"}`, else nothing. */
function expectFailOpen(result: Finished, failOpen: string): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  expect(result.ms).toBeLessThan(DID_NOT_HANG_MS);
  if (failOpen === '') expect(result.stdout).toBe('');
  else expect(JSON.parse(result.stdout)).toMatchObject({ should_resume: false, reason: failOpen });
}

describe('a database URL that reaches something other than PostgreSQL', () => {
  let connections = 0;
  /** Every socket the listeners accepted, destroyed at the end (a listener closes once its sockets are gone). */
  const held: Socket[] = [];
  // Answers in HTTP and closes, as a web server, a proxy or a wrong port does.
  const http: Server = createServer((socket) => {
    connections++;
    held.push(socket);
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  // Accepts and never answers.
  const silent: Server = createServer((socket) => {
    connections++;
    held.push(socket);
  });
  const urlOf = (server: Server) => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the listener has no port');
    return `postgres://agents:s3cret@127.0.0.1:${address.port}/db`;
  };

  beforeAll(async () => {
    await Promise.all([http, silent].map((server) => new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await Promise.all([http, silent].map((server) => new Promise((ok) => server.close(ok))));
  });
  beforeEach(() => {
    connections = 0;
  });

  it('every hook answers its fail-open answer promptly, connecting a handful of times (HTTP answer)', async () => {
    const cwd = project();
    const env = { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_DATABASE_URL: urlOf(http) };
    const calls = hookCalls(cwd);
    const results = await Promise.all(calls.map((call) => runBin(call.bin, [], cwd, env, JSON.stringify(call.input))));
    results.forEach((result, index) => expectFailOpen(result, calls[index]!.failOpen));
    // Before: ~730 connections a second per hook, until the host killed it.
    expect(connections).toBeLessThanOrEqual(3 * calls.length);
  }, 60_000);

  it.each([['list'], ['migrate'], ['stats']])(
    '`%s` exits 5 with one line, without the password, promptly (HTTP answer)',
    async (command) => {
      const cwd = project();
      const result = await runBin(BIN.cli, [command], cwd, { AGENT_SESSION_DATABASE_URL: urlOf(http) });
      expect(result.status).toBe(5);
      expect(result.ms).toBeLessThan(DID_NOT_HANG_MS);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/s3cret|\n\s+at /);
      expect(connections).toBeLessThanOrEqual(3);
    },
    60_000,
  );

  it('a hook and a command give up on a silent listener within their bounds', async () => {
    const cwd = project();
    const env = { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_DATABASE_URL: urlOf(silent) };
    const [hook, command] = await Promise.all([
      runBin(BIN.preDelegate, [], cwd, env, JSON.stringify({ agent_name: 'planner' })),
      runBin(BIN.cli, ['list'], cwd, env),
    ]);
    expectFailOpen(hook!, 'error');
    expect(command!.status).toBe(5);
    expect(command!.ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(command!.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

// Issue 30 item 6: a server that completes the handshake (AuthenticationOk, BackendKeyData, ReadyForQuery) and then
// answers nothing, as a network lost mid-connection does. It takes cancel requests and never closes their connections.
describe('a server that accepts the handshake, then stalls', () => {
  const held: Socket[] = [];
  /** When each cancel request arrived (performance.now() of this process). */
  const cancels: number[] = [];
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeUInt32BE(4 + body.length, 1);
    return Buffer.concat([head, body]);
  };
  const int32 = (...values: number[]) => {
    const body = Buffer.alloc(4 * values.length);
    values.forEach((value, i) => body.writeUInt32BE(value, 4 * i));
    return body;
  };
  const stalling: Server = createServer({ allowHalfOpen: true }, (socket) => {
    held.push(socket);
    let ready = false;
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      if (ready || data.length < 8) return;
      const code = data.readUInt32BE(4);
      if (code === 80877103)
        socket.write('N'); // SSLRequest: no TLS
      else if (code === 80877102)
        cancels.push(performance.now()); // CancelRequest: taken, never answered
      else {
        ready = true;
        socket.write(
          Buffer.concat([
            message('R', int32(0)),
            message('S', Buffer.from('server_version\u000015.0\u0000')),
            message('K', int32(4242, 777)),
            message('Z', Buffer.from('I')),
          ]),
        );
      }
    });
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((ok) => stalling.listen(0, '127.0.0.1', ok));
    const address = stalling.address();
    if (address === null || typeof address === 'string') throw new Error('the listener has no port');
    url = `postgres://agents:s3cret@127.0.0.1:${address.port}/db`;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((ok) => stalling.close(ok));
  });

  it('a direct hook gives up within its bound, not waiting for its cancel request; `list` within its connect bound', async () => {
    const cwd = project();
    const env = { CLAUDE_PROJECT_DIR: cwd, AGENT_SESSION_DATABASE_URL: url, AGENT_SESSION_RELAY: 'off' };
    const prompt = { session_id: 's1', cwd, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
    const started = performance.now();
    const [hook, seed, list] = await Promise.all([
      runBin(BIN.preDelegate, [], cwd, env, JSON.stringify(prompt)),
      runBin(BIN.preDelegate, [], cwd, env, JSON.stringify({ agent_name: 'planner' })),
      runBin(BIN.cli, ['list'], cwd, env),
    ]);
    expectFailOpen(hook!, '');
    expectFailOpen(seed!, 'error');
    // Before: 40 s (a statement's 30 s, then the cancel's own 10 s connect bound); now the connect bound, 10 s.
    expect(list!.status).toBe(5);
    expect(list!.ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(list!.stderr.trim().split('\n')).toHaveLength(1);
    expect(list!.stderr).not.toMatch(/s3cret/);
    // Each gave up on its statement and sent a cancel request: the hooks' came at their 5 s bound. Before, each then
    // waited up to 5 s more for the server to close the cancel's connection (10 s in all); now it ends once sent.
    expect(cancels.length).toBeGreaterThanOrEqual(3);
    const hooksEnded = started + Math.max(hook!.ms, seed!.ms);
    const firstCancel = Math.min(...cancels);
    expect(hooksEnded - firstCancel).toBeLessThan(3_000);
  }, 60_000);
});

describeWithDatabase('the sessions table locked by another transaction', (db) => {
  it('every read-path hook answers (fail open) within the hooks bound, and leaves no backend waiting', async () => {
    const cwd = project();
    const env = {
      CLAUDE_PROJECT_DIR: cwd,
      AGENT_SESSION_DATABASE_URL: db.url,
      AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    };
    const created = await runBin(BIN.cli, ['create', '--agent', 'planner', '--purpose', 'locked'], cwd, env);
    expect(created.status).toBe(0);
    const id = created.stdout.trim();
    // VACUUM FULL, ALTER TABLE, a newer version's migration: an ACCESS EXCLUSIVE lock held by someone else.
    const holder = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => undefined });
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    let locked!: () => void;
    const isLocked = new Promise<void>((done) => (locked = done));
    const holding = holder.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE "${db.schema}".sessions IN ACCESS EXCLUSIVE MODE`);
      locked();
      await released;
    });
    try {
      await isLocked;
      const calls = hookCalls(cwd, id);
      const results = await Promise.all(
        calls.map((call) => runBin(call.bin, [], cwd, env, JSON.stringify(call.input))),
      );
      results.forEach((result, index) => expectFailOpen(result, calls[index]!.failOpen));
      // The statements the hooks gave up on were cancelled on the server, not left waiting for the lock.
      let waiting: unknown[] = [];
      for (let tries = 0; tries < 20; tries++) {
        waiting = await db.sql(
          `SELECT pid FROM pg_stat_activity WHERE application_name = 'agent-session' AND wait_event_type = 'Lock'`,
        );
        if (waiting.length === 0) break;
        await new Promise((done) => setTimeout(done, 100));
      }
      expect(waiting).toEqual([]);
    } finally {
      release();
      await holding;
      await holder.end();
    }
    // Once the lock is gone, the hooks answer from the store again.
    const after = await runBin(BIN.preDelegate, [], cwd, env, JSON.stringify({ agent_id: id }));
    expect(JSON.parse(after.stdout)).toMatchObject({ agent_id: id });
  }, 90_000);
});
