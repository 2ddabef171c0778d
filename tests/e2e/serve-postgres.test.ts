import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { BIN, run } from '../helpers';
import { launchChromium } from '../support/chromium';
import { startServe, userEnv, type Served } from '../support/serve';
import { describeWithDatabase } from '../support/test-database';

// Issue 35 on the shared store: `serve --all-projects` on PostgreSQL shows two projects' decisions; a click approves
// the other project's session with the browser origin; a change made by another process (another machine's CLI, as
// far as the store can tell) shows without a reload; `serve` without --all-projects shows only its own project.
const ALPHA = 'github.com/acme/alpha';
const BETA = 'github.com/acme/beta';
const osUser = userInfo().username;

describeWithDatabase('serve on PostgreSQL, two projects', (db) => {
  let dir: string;
  let browser: Browser;
  const servers: Served[] = [];
  const env = (project: string) =>
    userEnv({
      AGENT_SESSION_DATABASE_URL: db.url,
      AGENT_SESSION_DATABASE_SCHEMA: db.schema,
      AGENT_SESSION_PROJECT: project,
      HOME: dir,
    });
  const cli = (project: string, args: readonly string[]) => {
    const result = run(BIN.cli, args, { cwd: dir, env: env(project) });
    if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const parked = (project: string, agent: string) => {
    const id = cli(project, ['create', '--agent', agent, '--purpose', 'pg']).trim();
    cli(project, ['update', id, '--phase', 'planning', '--metadata', JSON.stringify({ plan: `${agent}'s plan` })]);
    cli(project, ['update', id, '--phase', 'approval']);
    return id;
  };
  const approvalRow = (page: Page, id: string) =>
    page.locator(`#decision-list li[data-session="${id}"][data-kind="approval"]`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-pg-'));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const served of servers) await served.stop();
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows both projects with --all-projects, decides across them, and shows another process’s change', async () => {
    const alphaId = parked(ALPHA, 'alpha-planner');
    const betaId = parked(BETA, 'beta-planner');
    const all = await startServe(dir, ['--all-projects'], env(ALPHA));
    servers.push(all);
    const own = await startServe(mkdtempSync(join(dir, 'own-')), [], env(ALPHA));
    servers.push(own);

    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(all.url);
    await approvalRow(page, alphaId).waitFor({ timeout: 20_000 });
    await approvalRow(page, betaId).waitFor({ timeout: 20_000 });
    expect(await approvalRow(page, betaId).locator('code.command').first().textContent()).toContain('--all-projects');

    await approvalRow(page, betaId).locator('button.approve').click();
    await page.locator('#confirm-yes').click();
    await approvalRow(page, betaId).waitFor({ state: 'detached', timeout: 20_000 });
    const approved = JSON.parse(cli(BETA, ['get', betaId])) as {
      phase: string;
      project: string;
      decisions: { by: string; origin: Record<string, unknown> }[];
    };
    expect(approved.phase).toBe('executing');
    expect(approved.project).toBe(BETA);
    expect(approved.decisions.at(-1)).toMatchObject({ by: osUser, origin: { os_user: osUser, via: 'browser' } });

    // Another process writes the shared store; the open page shows it without a reload.
    const lateId = parked(BETA, 'late-planner');
    await approvalRow(page, lateId).waitFor({ timeout: 20_000 });

    // The server of one project lists that project's sessions only.
    const ownPage = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await ownPage.goto(own.url);
    await approvalRow(ownPage, alphaId).waitFor({ timeout: 20_000 });
    expect(await ownPage.locator(`#decision-list li[data-session="${lateId}"]`).count()).toBe(0);
    expect(await ownPage.locator(`#sessions tbody tr[data-session="${betaId}"]`).count()).toBe(0);
    expect(problems).toEqual([]);
    await ownPage.close();
    await page.close();
  }, 120_000);
});
