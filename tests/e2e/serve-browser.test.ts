import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { BIN, run } from '../helpers';
import { collectProblems, launchChromium, scrollWidth } from '../support/chromium';
import { raw, startServe, userEnv, type Served } from '../support/serve';

// Issue 35: `agent-session serve` in the real Chromium (playwright-core): a parked approval appears with what it would
// allow, verbatim; approve with a click, reject with a note; the store records both with the browser origin of the
// OS user who started the server; a CLI change shows without a reload; a hostile agent name stays text; requests
// without the token, with another Host, or a cross-origin POST change nothing; Ctrl-C (SIGTERM) frees the port.
const HOSTILE = '<img src=x onerror=alert(1)>';
const PLAN = 'Run `terraform apply` on prod:\n  - destroy 2 buckets\n  - <script>alert(2)</script> & "quotes"';
const PROJECT = 'github.com/acme/serve';
const osUser = userInfo().username;
const EXIT_AGENT_SHELL = 6;
const ARTIFACTS = resolve(__dirname, '..', '..', 'test-artifacts');

let dir: string;
let browser: Browser;
let served: Served;
const env = () => userEnv({ AGENT_SESSION_DIR: join(dir, 'store'), AGENT_SESSION_PROJECT: PROJECT, HOME: dir });
const cli = (args: readonly string[]) => {
  const result = run(BIN.cli, args, { cwd: dir, env: env() });
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};
const state = (id: string) => JSON.parse(cli(['get', id])) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A session parked in approval with a plan, by the CLI as an agent records one. */
function parked(agent: string, plan: string): string {
  const id = cli(['create', '--agent', agent, '--purpose', 'serve test']).trim();
  cli(['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan })]);
  cli(['update', id, '--phase', 'approval']);
  return id;
}

let hostileId: string;
let plainId: string;
let busyId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-'));
  hostileId = parked(HOSTILE, PLAN);
  plainId = parked('planner', 'split the migration in two');
  busyId = cli(['create', '--agent', 'builder', '--purpose', 'busy']).trim();
  cli(['update', busyId, '--phase', 'executing']);
  browser = await launchChromium();
  served = await startServe(dir, [], env());
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openPage(problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  collectProblems(page, problems);
  await page.goto(served.url);
  return page;
}

const row = (page: Page, id: string) => page.locator(`#decisions tbody tr[data-session="${id}"]`);
/** The row of a session waiting for approval (a rejected one stays a row: it waits in planning). */
const approvalRow = (page: Page, id: string) =>
  page.locator(`#decisions tbody tr[data-session="${id}"][data-kind="approval"]`);

it('refuses requests without the token, with another Host, and cross-origin or unforged POSTs: nothing changes', async () => {
  const cookie = `agent_session_token_${served.port}=${served.token}`;
  const own = `http://127.0.0.1:${served.port}`;
  const post = (headers: Record<string, string>) =>
    raw(served.port, {
      method: 'POST',
      path: '/api/approve',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ id: plainId }),
    });
  expect((await raw(served.port, { path: '/api/state' })).status).toBe(403);
  expect((await raw(served.port, { path: '/?token=wrong' })).status).toBe(403);
  const rebound = await raw(served.port, { path: `/?token=${served.token}`, headers: { host: 'evil.example' } });
  expect(rebound.status).toBe(421);
  expect((await raw(served.port, { path: '/api/state', headers: { cookie, host: 'evil.example' } })).status).toBe(421);
  const answers = [
    await post({}),
    await post({ cookie, origin: 'http://evil.example' }),
    await post({ cookie, origin: own }),
    await post({ cookie, origin: 'http://evil.example', 'x-agent-session-csrf': 'guess' }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
  expect(answers.map((answer) => JSON.parse(answer.body).error)).toEqual(['E_TOKEN', 'E_ORIGIN', 'E_CSRF', 'E_ORIGIN']);
  const preflight = await raw(served.port, {
    method: 'OPTIONS',
    path: '/api/approve',
    headers: { cookie, origin: 'http://evil.example', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(405);
  for (const answer of [...answers, preflight, rebound]) {
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  }
  const page = await raw(served.port, { path: '/', headers: { cookie } });
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
  expect(state(plainId).phase).toBe('approval');
  expect(state(plainId).decisions).toBeUndefined();
});

it('shows the decisions in Chromium; approve with a click, reject with a note; the store says browser', async () => {
  const problems: string[] = [];
  const page = await openPage(problems);
  // The token left the address bar for the cookie.
  expect(new URL(page.url()).search).toBe('');
  await approvalRow(page, hostileId).waitFor({ timeout: 15_000 });
  expect(await approvalRow(page, plainId).count()).toBe(1);
  expect(await row(page, busyId).count()).toBe(0);
  // The hostile name and plan are text: no element made of them, nothing ran.
  expect(await row(page, hostileId).locator('strong.agent').textContent()).toBe(HOSTILE);
  expect(await row(page, hostileId).locator('pre.allows').textContent()).toBe(PLAN);
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('#decisions script').count()).toBe(0);
  expect(await row(page, hostileId).locator('code.command').first().textContent()).toContain(
    `agent-session approve ${hostileId}`,
  );
  // The sessions list has the busy one, with its phase.
  await page.locator(`#sessions tbody tr[data-session="${busyId}"][data-phase="executing"]`).waitFor();

  // The page as the README shows it (docs/serve.png is this screenshot), kept in test-artifacts/ (gitignored).
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'serve.png') });

  await row(page, hostileId).locator('button.approve').click();
  await row(page, hostileId).waitFor({ state: 'detached', timeout: 15_000 });
  const approved = state(hostileId);
  expect(approved.phase).toBe('executing');
  expect(approved.decisions.at(-1)).toMatchObject({
    decision: 'approved',
    by: osUser,
    origin: { os_user: osUser, claimed: false, via: 'browser' },
  });
  expect(approved.schema_version).toBe(10);

  await row(page, plainId).locator('input.note').fill('split it: <b>two</b> steps');
  await row(page, plainId).locator('button.reject').click();
  await approvalRow(page, plainId).waitFor({ state: 'detached', timeout: 15_000 });
  const rejected = state(plainId);
  expect(rejected.phase).toBe('planning');
  expect(rejected.decisions.at(-1)).toMatchObject({
    decision: 'rejected',
    by: osUser,
    note: 'split it: <b>two</b> steps',
    origin: { os_user: osUser, via: 'browser' },
  });
  expect(await page.locator('#flash').textContent()).toContain(`Rejected ${plainId}`);
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

it('shows a change made by the CLI elsewhere without a reload, and filters the sessions by phase and agent', async () => {
  const problems: string[] = [];
  const page = await openPage(problems);
  await page.locator(`#sessions tbody tr[data-session="${busyId}"]`).waitFor({ timeout: 15_000 });
  const marker = await page.evaluate(() => {
    (globalThis as unknown as { marker: number }).marker = 42;
    return 42;
  });
  const newId = parked('reviewer', 'ship it');
  // Generous: the page polls every second; under load the CLI and the poll take longer.
  await row(page, newId).waitFor({ timeout: 20_000 });
  cli(['update', busyId, '--phase', 'validating']);
  await page
    .locator(`#sessions tbody tr[data-session="${busyId}"][data-phase="validating"]`)
    .waitFor({ timeout: 20_000 });
  // No reload happened: the page's own state survived.
  expect(await page.evaluate(() => (globalThis as unknown as { marker: number }).marker)).toBe(marker);

  await page.selectOption('#filter-agent', 'reviewer');
  expect(await page.locator('#sessions tbody tr').count()).toBe(1);
  await page.selectOption('#filter-agent', '');
  await page.selectOption('#filter-phase', 'executing');
  const phases = await page
    .locator('#sessions tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-phase')));
  expect(phases.length).toBeGreaterThan(0);
  expect(new Set(phases)).toEqual(new Set(['executing']));
  // The table fits a 1000 px window: nothing scrolls sideways.
  expect(await scrollWidth(page)).toBeLessThanOrEqual(1000);
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

it('refuses to start from an AI agent shell (exit 6), and stops on SIGTERM, freeing its port', async () => {
  const refused = run(BIN.cli, ['serve'], { cwd: dir, env: { ...env(), CLAUDECODE: '1' } });
  expect(refused.status).toBe(EXIT_AGENT_SHELL);
  expect(refused.stdout).toBe('');
  const port = served.port;
  await served.stop();
  await expect(raw(port, { path: '/' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  expect(served.stderr()).toContain('stopped');
});
