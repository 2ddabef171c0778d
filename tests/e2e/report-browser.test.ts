import { spawnSync } from 'node:child_process';
import { withProject } from '../../src/core/project';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { DEFAULT_LIMITS } from '../../src/core/limits';
import { inboxOf } from '../../src/core/views/inbox';
import { byRecency } from '../../src/core/views/report/html';
import { computeStats } from '../../src/core/views/stats';
import { FileStore } from '../../src/store/file-store';
import { collectProblems, launchChromium, scrollWidth } from '../support/chromium';
import { GENERATED_AGENTS, generateSessions } from '../support/generate-sessions';

// The report of a generated store, opened in the real Chromium (Debian's /usr/bin/chromium; .ci/run installs it when
// missing), driven by playwright-core: lanes, inbox and figures match the store, no console error, no request
// leaves the file, hostile names render as text, and a screenshot is kept in test-artifacts/ (gitignored).
const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const HOSTILE = '<img src=x onerror=alert(1)>';
const COUNT = 300;

let dir: string;
let browser: Browser;
const now = new Date();
/** The project of the generated sessions, which the report's run names (AGENT_SESSION_PROJECT). */
const PROJECT = 'github.com/acme/report';
const states = generateSessions({ count: COUNT, now, seed: 7 }).map((state) => withProject(state, PROJECT));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-report-'));
  const store = new FileStore(join(dir, 'store'));
  for (const state of states) await store.create(state);
  await store.close();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

function report(args: readonly string[]): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [CLI, '--dir', join(dir, 'store'), 'report', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: '',
      AGENT_SESSION_DIR: undefined,
      CLAUDE_PROJECT_DIR: undefined,
      AGENT_SESSION_PROJECT: PROJECT,
    },
  });
}

it('renders the store in Chromium: figures, inbox and lanes match, names stay text, nothing runs or loads', async () => {
  const out = join(dir, 'report.html');
  const result = report(['--out', out]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const stats = computeStats(states, { now, limits: DEFAULT_LIMITS });
  const inbox = inboxOf(states, now, DEFAULT_LIMITS);

  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  collectProblems(page, problems);
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`file://${out}`);

  // Figures: the time-independent ones must equal the store's (the CLI ran a moment after `now`).
  for (const key of ['sessions', 'completed', 'failed', 'abandoned', 'resumes', 'approvals', 'rejections'] as const) {
    expect(await page.textContent(`#figures [data-figure="${key}"]`)).toBe(String(stats.overall[key]));
  }
  expect(await page.textContent('[data-figure="inbox"]')).toBe(String(inbox.length));
  expect(await page.locator('#inbox tbody tr').count()).toBe(Math.min(50, inbox.length));
  expect(await page.getAttribute('#inbox tbody tr:first-child', 'data-session')).toBe(inbox[0]!.agent_id);

  // One lane per session, up to the 30 most recent of each agent, each with at least one phase span.
  for (const agent of GENERATED_AGENTS) {
    const own = states.filter((state) => state.agent_name === agent);
    const lanes = page.locator(`svg.lanes[data-agent="${agent.replace(/"/g, '\\"')}"] g.lane`);
    expect(await lanes.count()).toBe(Math.min(30, own.length));
    const newest = [...own].sort(byRecency)[0]!;
    expect(await lanes.first().getAttribute('data-session')).toBe(newest.agent_id);
    expect(await lanes.first().locator('rect.span').count()).toBeGreaterThan(0);
  }
  expect(await page.locator('g.lane circle.resume').count()).toBeGreaterThan(0);
  expect(await page.locator('g.lane text.decision').count()).toBeGreaterThan(0);

  // The hostile name is text wherever it appears; no element was made from it, nothing ran, nothing was fetched.
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.textContent(`#agents tr[data-agent="${HOSTILE}"] td:first-child`)).toBe(HOSTILE);
  expect((await page.textContent('body'))!).toContain(HOSTILE);
  expect(problems).toEqual([]);
  expect(requests).toEqual([`file://${out}`]);

  // Issue 35 (4): the inbox comes first, each row with a command to copy; the lanes have time ticks; at 1000 px
  // nothing scrolls sideways; the phase and agent filters (CSS only: the page runs no script) hide other rows.
  const order = await page.locator('h2').allTextContents();
  expect(order[0]).toMatch(/^Approval inbox/);
  expect(await page.textContent('#inbox tbody tr:first-child code.cmd')).toMatch(
    new RegExp(`^agent-session (approve|show) ${inbox[0]!.agent_id}$`),
  );
  expect(await page.locator('#inbox tbody tr code.cmd').count()).toBe(Math.min(50, inbox.length));
  expect(await page.locator('g.lane text.ticks').count()).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1000, height: 900 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(1000);
  await page.click('#f-phase-approval');
  const visiblePhases = await page
    .locator('#inbox tbody tr:visible')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-phase')));
  expect(visiblePhases.length).toBe(inbox.slice(0, 50).filter((entry) => entry.phase === 'approval').length);
  expect(new Set(visiblePhases)).toEqual(new Set(visiblePhases.length > 0 ? ['approval'] : []));
  await page.click('#f-phase-all');
  const agent = inbox[0]!.agent_name;
  await page.locator('#filters label', { hasText: agent }).first().click();
  const shownAgents = await page
    .locator('#inbox tbody tr:visible td:nth-child(2)')
    .evaluateAll((cells) => cells.map((cell) => cell.textContent));
  expect(new Set(shownAgents)).toEqual(new Set([agent]));
  expect(await page.locator('section.agent:visible').count()).toBe(1);
  await page.click('#f-agent-all');
  await page.setViewportSize({ width: 1200, height: 900 });

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
  expect(statSync(join(ARTIFACTS, 'report.png')).size).toBeGreaterThan(10_000);
  await page.close();
}, 120_000);

it('never overwrites a report silently: an existing --out is refused (exit 4, file kept) unless --force', () => {
  const out = join(dir, 'kept.html');
  expect(report(['--out', out]).status).toBe(0);
  const first = readFileSync(out, 'utf8');
  const again = report(['--out', out]);
  expect(again.status).toBe(4);
  expect(again.stderr).toMatch(/--force/);
  expect(readFileSync(out, 'utf8')).toBe(first);
  expect(report(['--out', out, '--force']).status).toBe(0);
});
