import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, run } from '../helpers';

// Issue 44 item 2: the README's `notify` recipes, as written there, each told of a parked session once: a Slack
// incoming webhook and ntfy (a local server stands in for both: no internet), a desktop notification (a recording
// `notify-send` first on PATH), and docs/configuration.md's "any command" recipe; all of them one list. Own HOME.
const ROOT = resolve(__dirname, '..', '..');
const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXX';
const NTFY = 'https://ntfy.sh/my-agents';

/** The `notify` list of the README's first JSON block after "**Notify**". */
function readmeRecipes(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('**Notify**');
  const block = /```json\n([\s\S]*?)\n```/.exec(readme.slice(at));
  if (at < 0 || block === null) throw new Error('Expected README.md to have a **Notify** paragraph with a json block');
  return (JSON.parse(block[1]!) as { notify: string[] }).notify;
}

/** docs/configuration.md's "any command" recipe: the JSON string after `"notify": ` in its **Any command** item. */
function anyCommandRecipe(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const item = doc.slice(doc.indexOf('- **Any command**'));
  const found = /`"notify": ("(?:[^"\\]|\\.)*")`/.exec(item);
  if (found === null) throw new Error('Expected docs/configuration.md to have an **Any command** recipe');
  return JSON.parse(found[1]!) as string;
}

const curl = spawnSync('curl', ['--version']).status === 0;

let dir: string;
let server: Server;
let origin: string;
const received: { path: string; type: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        type: request.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-recipes-'));
  mkdirSync(join(dir, 'home'));
  received.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A `notify-send` that records its arguments, one JSON array per call, first on PATH. */
function fakeNotifySend(): { bin: string; calls: () => string[][] } {
  const bin = join(dir, 'bin');
  const log = join(dir, 'notify-send.log');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'notify-send'),
    `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
  );
  chmodSync(join(bin, 'notify-send'), 0o755);
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as string[])
      : [];
  return { bin, calls };
}

function env(notify: readonly string[], pathFirst: string): Record<string, string> {
  return {
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    AGENT_SESSION_DIR: join(dir, 'store'),
    AGENT_SESSION_PROJECT: 'github.com/acme/recipes',
    AGENT_SESSION_NOTIFY: JSON.stringify(notify),
    PATH: `${pathFirst}:${process.env.PATH ?? ''}`,
  };
}
const cli = (args: readonly string[], extra: Record<string, string>) => run(BIN.cli, args, { cwd: dir, env: extra });
function ok(args: readonly string[], extra: Record<string, string>): string {
  const result = cli(args, extra);
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
function park(agent: string, extra: Record<string, string>): string {
  const id = ok(['create', '--agent', agent, '--purpose', 'recipes'], extra).trim();
  ok(['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan: '3 <buckets> & a queue' })], extra);
  ok(['update', id, '--phase', 'approval'], extra);
  return id;
}
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const withCurl = curl ? it : it.skip;
if (!curl) it.todo('the README recipes: skipped, curl is not installed here (the ntfy recipe runs it)');

withCurl(
  "the README's list: Slack's webhook gets the JSON, ntfy the line, the desktop the line; each once",
  async () => {
    const recipes = readmeRecipes();
    expect(recipes).toEqual([SLACK, expect.stringContaining(NTFY), expect.stringMatching(/^notify-send /)]);
    const local = recipes.map((recipe) =>
      recipe.replace('https://hooks.slack.com', origin).replace('https://ntfy.sh', origin),
    );
    const desktop = fakeNotifySend();
    // As the README says: the user's own config file (no trust asked), not the variable.
    const extra: Record<string, string> = { ...env(local, desktop.bin) };
    delete extra.AGENT_SESSION_NOTIFY;
    const userConfig = join(dir, 'home', '.config', 'agent-session');
    mkdirSync(userConfig, { recursive: true });
    writeFileSync(join(userConfig, 'config.json'), JSON.stringify({ notify: local }, null, 2));
    const id = park('terraform-architect', extra);
    // Started detached by `update` into approval.
    await until(() => received.length >= 2 && desktop.calls().length >= 1, 'the three notifications');
    const slack = received.find((request) => request.path === '/services/T000/B000/XXXX')!;
    expect(slack.type).toBe('application/json');
    const text = (JSON.parse(slack.body) as { text: string; id: string }).text;
    expect(JSON.parse(slack.body)).toMatchObject({ id, agent: 'terraform-architect', kind: 'approval' });
    expect(text).toContain(`agent-session approve ${id}`);
    // Slack's escaping: an agent's `<` and `&` are text there, never a link or a mention.
    expect(text).toContain('3 &lt;buckets&gt; &amp; a queue');
    const ntfy = received.find((request) => request.path === '/my-agents')!;
    expect(ntfy.body).toBe(text);
    expect(desktop.calls()).toEqual([['agent-session', text]]);
    // Once per item: a sweep by hand tells nobody again.
    expect(ok(['notify'], extra)).toBe('Nothing new to notify\n');
    expect(received).toHaveLength(2);
    expect(desktop.calls()).toHaveLength(1);
  },
);

it("docs/configuration.md's any-command recipe keeps every item, one JSON per line", () => {
  const recipe = anyCommandRecipe();
  expect(recipe).toBe('(cat; echo) >> ~/agent-session-inbox.jsonl');
  const desktop = fakeNotifySend();
  // Parked before the setting (no detached notifier), then told by hand: the recipe as the only target.
  const quiet: Record<string, string> = { ...env([recipe], desktop.bin) };
  delete quiet.AGENT_SESSION_NOTIFY;
  const first = park('a', quiet);
  const second = park('b', quiet);
  const told = ok(['notify'], env([recipe], desktop.bin));
  expect(told).toMatch(
    new RegExp(`notified ${first} a via command \\(cat; echo\\) >> ~/agent-session-inbox\\.jsonl: sent`),
  );
  const inbox = readFileSync(join(dir, 'home', 'agent-session-inbox.jsonl'), 'utf8')
    .trim()
    .split('\n');
  expect(inbox.map((line) => (JSON.parse(line) as { id: string }).id).sort()).toEqual([first, second].sort());
});

it('a list: a failing target does not stop the others, and each says how it went', () => {
  const desktop = fakeNotifySend();
  const targets = ['exit 7', 'notify-send agent-session "$AGENT_SESSION_NOTIFY_TEXT"'];
  const quiet: Record<string, string> = { ...env(targets, desktop.bin) };
  delete quiet.AGENT_SESSION_NOTIFY;
  const id = park('c', quiet);
  const sweep = cli(['notify'], env(targets, desktop.bin));
  expect(sweep.status).toBe(0);
  expect(sweep.stderr).toMatch(new RegExp(`notify failed ${id} c via command exit 7: exit 7\\n$`));
  expect(sweep.stdout).toMatch(new RegExp(`notified ${id} c via command notify-send agent-session .*: sent\\n$`));
  expect(desktop.calls()).toHaveLength(1);
});
