import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { withProject } from '../../src/core/project';
import { applyChange, newSession } from '../../src/core/session';
import { DECISIONS_LIMIT, PREVIEW_LIMIT } from '../../src/core/views/live';
import { FileStore } from '../../src/store/file-store';
import { collectProblems, launchChromium, scrollWidth } from '../support/chromium';
import { raw, startServe, userEnv, type Served } from '../support/serve';

// Issue 40 item 8 (redteam L2: 62 MB per poll): the page's data is bounded. A store of 3,000 sessions waiting in
// approval, each with a 30 KB plan, written as agents leave them; `serve` answers a poll in under 1 MB (bytes counted,
// not time), an unchanged store with a 304 and no body, one session's whole plan on demand; and the page stays usable
// in Chromium: the first decisions shown with how many more, a decision made through it.
const PROJECT = 'github.com/acme/big';
const COUNT = 3_000;
const PLAN_BYTES = 30_000;

let dir: string;
let served: Served;
let browser: Browser;
let ids: string[];
const auth = () => ({ authorization: `Bearer ${served.token}` });

/** A plan as an agent writes one: numbered steps of prose and commands, PLAN_BYTES long. */
function plan(index: number): string {
  const lines: string[] = [];
  for (let step = 1; lines.join('\n').length < PLAN_BYTES; step++)
    lines.push(
      `${step}. In module storage-${index}, create bucket media-${step} (versioned, 30-day expiry) and run terraform plan -target=module.storage`,
    );
  return lines.join('\n').slice(0, PLAN_BYTES);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-big-'));
  const store = new FileStore(join(dir, 'store'));
  const base = Date.now() - 10 * 60_000;
  ids = [];
  for (let index = 0; index < COUNT; index++) {
    const at = new Date(base + index * 100);
    const id = `agent-20261201-120000-${(0x10000000 + index).toString(16)}`;
    let state = withProject(
      newSession({ agent_id: id, agent_name: `planner-${index % 7}`, purpose: `Plan storage ${index}` }, at),
      PROJECT,
    );
    state = applyChange(state, { phase: 'planning', metadata: { plan: plan(index) } }, at);
    state = applyChange(state, { phase: 'approval' }, at);
    // The first through the store (its folder, as the store makes it); the rest written as it writes them, without
    // the atomic write's fsyncs (3,000 of them take minutes on a busy disk): the store reads them as any other.
    if (index === 0) await store.create(state);
    else {
      mkdirSync(join(dir, 'store', id), { mode: 0o700 });
      writeFileSync(join(dir, 'store', id, 'state.json'), JSON.stringify(state, null, 2), { mode: 0o600 });
    }
    ids.push(id);
  }
  served = await startServe(
    dir,
    [],
    userEnv({ AGENT_SESSION_DIR: join(dir, 'store'), AGENT_SESSION_PROJECT: PROJECT, HOME: dir }),
  );
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await served?.stop();
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a poll in under 1 MB, an unchanged store with a 304 and no body, one plan whole on demand', async () => {
  const poll = await raw(served.port, { path: '/api/state', headers: auth() });
  expect(poll.status).toBe(200);
  const bytes = Buffer.byteLength(poll.body);
  // The figure for the record (the redteam's was 62,057,584 bytes for this store).
  process.stdout.write(`serve-bounds: one poll of ${COUNT} approvals of ${PLAN_BYTES} B plans: ${bytes} bytes\n`);
  expect(bytes).toBeLessThan(1_000_000);
  const model = JSON.parse(poll.body);
  expect(model.decisions).toHaveLength(DECISIONS_LIMIT);
  expect(model.decisions_total).toBe(COUNT);
  expect(model.decisions[0]).toMatchObject({ id: ids[0], allows_cut: true });
  expect(model.decisions[0].allows.length).toBeLessThanOrEqual(PREVIEW_LIMIT + 1);
  const again = await raw(served.port, {
    path: '/api/state',
    headers: { ...auth(), 'if-none-match': poll.headers.etag as string },
  });
  expect([again.status, Buffer.byteLength(again.body)]).toEqual([304, 0]);
  const detail = JSON.parse((await raw(served.port, { path: `/api/session/${ids[0]}`, headers: auth() })).body);
  expect(detail.decision.allows).toBe(plan(0));
}, 120_000);

it('stays usable in Chromium: the first decisions, how many more, a whole plan and a decision through it', async () => {
  const problems: string[] = [];
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  collectProblems(page, problems);
  await page.goto(served.url);
  await page.locator('#decision-list li').first().waitFor({ timeout: 60_000 });
  expect(await page.locator('#decision-list li').count()).toBe(DECISIONS_LIMIT);
  expect(await page.locator('#decisions-more').textContent()).toContain(
    `Showing the first ${DECISIONS_LIMIT} of ${COUNT}`,
  );
  const first = page.locator(`#decision-list li[data-session="${ids[0]}"]`);
  await first.getByRole('button', { name: 'Show all of it' }).click();
  await first.locator('pre.allows', { hasText: plan(0).slice(-60) }).waitFor({ timeout: 60_000 });
  await first.getByRole('button', { name: 'Approve…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await first.waitFor({ state: 'detached', timeout: 60_000 });
  expect(await page.locator('#decision-count').textContent()).toBe(String(COUNT - 1));
  expect(await scrollWidth(page)).toBeLessThanOrEqual(1000);
  expect(problems).toEqual([]);
  await page.close();
}, 180_000);
