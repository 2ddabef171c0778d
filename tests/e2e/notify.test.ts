import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';
import { startServe, userEnv } from '../support/serve';

// Issue 35 (3): the `notify` setting is told of each new inbox item once: a local listener receives one POST per
// session parked in approval (started detached by `update`, so the agent's command never waits for it), with the
// Slack-compatible `text` naming the short id, the agent and the command that decides it; a later sweep sends
// nothing again; a command as notifier gets the JSON on stdin; a failing notifier is logged, not retried.
let dir: string;
let server: Server;
let port: number;
const received: Record<string, unknown>[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-notify-'));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url,
        type: request.headers['content-type'],
        ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as object),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const env = (store: string, notify: string) => ({
  AGENT_SESSION_DIR: join(dir, store),
  AGENT_SESSION_PROJECT: 'github.com/acme/notify',
  AGENT_SESSION_NOTIFY: notify,
  HOME: dir,
});
const cli = (args: readonly string[], extra: Record<string, string>) => run(BIN.cli, args, { cwd: dir, env: extra });
const ok = (args: readonly string[], extra: Record<string, string>) => {
  const result = cli(args, extra);
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};
function park(agent: string, extra: Record<string, string>): string {
  const id = ok(['create', '--agent', agent, '--purpose', 'notify test'], extra).trim();
  ok(['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan: `${agent} plans` })], extra);
  ok(['update', id, '--phase', 'approval'], extra);
  return id;
}
async function until(check: () => boolean, what: string): Promise<void> {
  // Generous: the detached notifier is a new node process on a loaded machine.
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('POSTs one notification per new approval to a URL, started by `update`; a later sweep sends none again', async () => {
  const extra = env('store-url', `http://127.0.0.1:${port}/hook`);
  const first = park('db-migrator', extra);
  await until(() => received.length >= 1, 'the first notification');
  const second = park('planner', extra);
  await until(() => received.length >= 2, 'the second notification');
  // The sweeps have settled: another one, by hand, finds nothing new.
  expect(ok(['notify'], extra)).toBe('Nothing new to notify\n');
  expect(JSON.parse(ok(['notify', '--json'], extra))).toEqual([]);
  expect(received.map((body) => body.id).sort()).toEqual([first, second].sort());
  const one = received.find((body) => body.id === first)!;
  expect(one).toMatchObject({
    path: '/hook',
    type: 'application/json',
    short_id: first.slice(-8),
    agent: 'db-migrator',
    kind: 'approval',
    command: `agent-session approve ${first}`,
    waits_for: 'plan: db-migrator plans',
  });
  expect(one.text).toEqual(expect.stringContaining(first.slice(-8)));
  expect(one.text).toEqual(expect.stringContaining('db-migrator'));
  expect(one.text).toEqual(expect.stringContaining(`agent-session approve ${first}`));
});

it('runs a command notifier with the JSON on stdin, once per item', async () => {
  const out = join(dir, 'got.jsonl');
  const extra = env('store-command', `cat >> '${out}'; echo >> '${out}'`);
  const id = park('reviewer', extra);
  await until(() => existsSync(out) && readFileSync(out, 'utf8').includes('\n'), 'the command notifier');
  ok(['notify'], extra);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([id]);
});

it('a failing notifier is reported once (exit 0, one line on stderr) and never retried', () => {
  const quiet = env('store-failing', '');
  const failing = env('store-failing', 'echo broken >&2; exit 3');
  // Parked without the setting (no detached notifier), then swept by hand with a notifier that fails.
  const id = ok(['create', '--agent', 'fragile', '--purpose', 'p'], quiet).trim();
  ok(['update', id, '--phase', 'planning'], quiet);
  ok(['update', id, '--phase', 'approval'], quiet);
  const sweep = cli(['notify'], failing);
  expect(sweep.status).toBe(0);
  expect(sweep.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(new RegExp(`notify failed ${id} fragile via command echo broken >&2; exit 3: exit 3$`)),
  ]);
  const again = cli(['notify'], failing);
  expect({ status: again.status, stdout: again.stdout, stderr: again.stderr }).toEqual({
    status: 0,
    stdout: 'Nothing new to notify\n',
    stderr: '',
  });
});

it('a detached notifier that fails is logged in the log folder’s notify.log', async () => {
  const extra = env('store-detached-failing', `http://127.0.0.1:1/nothing-listens`);
  const id = park('lonely', extra);
  const logDir = (JSON.parse(ok(['config', '--json'], extra)) as { log_dir: string }).log_dir;
  const log = join(logDir, 'notify.log');
  await until(() => existsSync(log) && readFileSync(log, 'utf8').includes(id), 'the failure in notify.log');
  expect(readFileSync(log, 'utf8')).toMatch(new RegExp(`notify failed ${id} lonely via `));
});

it('a hook (SubagentStop) starts the notifier after its answer: a waiting approval reaches the listener once', async () => {
  const quiet = env('store-hook', '');
  const id = ok(['create', '--agent', 'hooked', '--purpose', 'p'], quiet).trim();
  ok(['update', id, '--phase', 'planning'], quiet);
  ok(['update', id, '--phase', 'approval'], quiet);
  const before = received.length;
  const payload = JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', 'claude-code', 'subagent-stop-current.json'), 'utf8'),
  ) as Record<string, unknown>;
  const hook = run(BIN.subagentStop, [], {
    cwd: dir,
    env: env('store-hook', `http://127.0.0.1:${port}/hook`),
    input: JSON.stringify({ ...payload, cwd: dir }),
  });
  expect(hook.status).toBe(0);
  expect(hook.stderr).toBe('');
  await until(() => received.some((body) => body.id === id), 'the notification started by the hook');
  ok(['notify'], env('store-hook', `http://127.0.0.1:${port}/hook`));
  expect(received.slice(before).filter((body) => body.id === id)).toHaveLength(1);
});

// Issue 44 item 2: a notification's link leads to the decision on `serve`'s page, never with its token, whoever sweeps
// first (here the notifier a hook or `update` starts, while `serve` runs for the same store without the setting).
it('links the decision on the page of a `serve` running for the store, without its token; none when it stopped', async () => {
  const data = join(dir, 'data');
  const quiet = { ...env('store-page', ''), XDG_DATA_HOME: data };
  const told = { ...quiet, AGENT_SESSION_NOTIFY: `http://127.0.0.1:${port}/hook` };
  const served = await startServe(dir, [], userEnv(quiet));
  let stopped = false;
  try {
    // `update` into approval starts the notifier detached, as a hook's stop does.
    const id = park('linked', told);
    await until(() => received.some((one) => one.id === id), 'the linked notification');
    const body = received.find((one) => one.id === id)!;
    expect(body.page).toBe(`http://127.0.0.1:${served.port}/#session=${id}`);
    expect(body.text).toEqual(expect.stringContaining(`or http://127.0.0.1:${served.port}/#session=${id}`));
    expect(JSON.stringify(body)).not.toContain(served.token);
    await served.stop();
    stopped = true;
    const later = park('unlinked', told);
    await until(() => received.some((one) => one.id === later), 'the notification after serve stopped');
    expect(received.find((one) => one.id === later)).toMatchObject({ page: null });
  } finally {
    if (!stopped) await served.stop();
  }
}, 60_000);

it('without a notify setting, `notify` is a usage error (exit 2) and sends nothing', () => {
  const result = run(BIN.cli, ['notify'], { cwd: dir, env: { AGENT_SESSION_DIR: join(dir, 'store-none'), HOME: dir } });
  expect(result.status).toBe(2);
  expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
});
