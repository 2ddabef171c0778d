import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { withClaudeLink } from '../../src/core/claude-link';
import { parkForPermission } from '../../src/core/permission';
import { withProject } from '../../src/core/project';
import { applyChange, finalizeState, newSession } from '../../src/core/session';
import type { SessionState } from '../../src/core/state';
import { FileStore } from '../../src/store/file-store';
import { collectProblems, launchChromium, scrollWidth } from '../support/chromium';
import { startServe, userEnv, type Served } from '../support/serve';

// The page as the README and docs/cli.md show it (docs/serve.png is this test's test-artifacts/serve.png): a project
// with a plan waiting for approval, a sub-agent's permission request, work under way and done, as agents leave them.
const PROJECT = 'github.com/acme/media-service';
const ARTIFACTS = resolve(__dirname, '..', '..', 'test-artifacts');
const PLAN = [
  'Add the storage for uploaded media (module storage):',
  '  1. bucket media-raw: versioned, private, 90-day noncurrent expiry',
  '  2. bucket media-thumbs: public read through the CDN origin access identity',
  '  3. bucket media-logs: access logs of both, 30-day expiry',
  'Then: terraform plan -target=module.storage, and apply once approved.',
].join('\n');

let dir: string;
let served: Served;
let browser: Browser;

function at(minutesAgo: number): Date {
  return new Date(Date.now() - minutesAgo * 60_000);
}

function made(id: string, agent: string, purpose: string, minutesAgo: number): SessionState {
  return withProject(newSession({ agent_id: id, agent_name: agent, purpose }, at(minutesAgo)), PROJECT);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-serve-shot-'));
  const store = new FileStore(join(dir, 'store'));
  let plan = made('agent-20261201-091200-5c1e7a42', 'terraform-architect', 'Add storage buckets for media uploads', 14);
  plan = applyChange(plan, { phase: 'investigating' }, at(13));
  plan = applyChange(plan, { phase: 'planning', metadata: { plan: PLAN } }, at(9));
  plan = applyChange(plan, { phase: 'approval' }, at(8));
  plan = withClaudeLink(
    plan,
    {
      agent_id: 'a41b7c09d2e5f6a81',
      stopped: true,
      last_message: 'The plan is recorded: three buckets in module storage. Waiting for your approval before I apply.',
    },
    at(8),
  );
  let asked = made('agent-20261201-092500-0d9b3f17', 'db-migrator', 'claude_code_subagent', 6);
  asked = applyChange(asked, { phase: 'executing', metadata: { task: 'Migrate the orders table on staging' } }, at(5));
  asked = withClaudeLink(
    asked,
    { agent_id: 'a7f03e6b1c9d2e4f5', last_message: 'The migration is written; running it needs your permission.' },
    at(5),
  );
  asked = parkForPermission(
    asked,
    {
      tool: 'Bash',
      input: { command: 'npm run migrate -- --env staging', description: 'Run the orders migration on staging' },
      claudeAgentId: 'a7f03e6b1c9d2e4f5',
    },
    at(3),
  );
  let busy = made('agent-20261201-093000-8e2a6c55', 'test-writer', 'Cover the upload API with tests', 4);
  busy = applyChange(busy, { phase: 'executing' }, at(2));
  let done = made('agent-20261201-080000-3f7d1b29', 'code-reviewer', 'Review the thumbnail worker', 60);
  done = applyChange(done, { phase: 'executing' }, at(55));
  done = finalizeState(done, 'completed', 'Two findings fixed; approved.', at(40));
  for (const state of [plan, asked, busy, done]) await store.create(state);
  served = await startServe(
    dir,
    [],
    userEnv({ AGENT_SESSION_DIR: join(dir, 'store'), AGENT_SESSION_PROJECT: PROJECT, HOME: dir }),
  );
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('renders a realistic project’s page without a problem, and saves it as the documentation shows it', async () => {
  const problems: string[] = [];
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  collectProblems(page, problems);
  await page.goto(served.url);
  await page.locator('#decision-list li[data-kind="permission"]').waitFor({ timeout: 15_000 });
  await page.locator('#sessions tbody tr').nth(3).waitFor({ timeout: 15_000 });
  expect(await page.locator('#decision-list li[data-hidden="true"]').count()).toBe(0);
  expect(await page.locator('#decision-list li').first().locator('dl.facts').textContent()).toContain(
    'Add storage buckets for media uploads',
  );
  expect(await scrollWidth(page)).toBeLessThanOrEqual(1100);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'serve.png'), fullPage: true });
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
