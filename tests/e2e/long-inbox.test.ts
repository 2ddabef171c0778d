import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';

// Issue 45: a long inbox is shown a page at a time, saying how many more wait; stats counts from the store's facts.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-inbox-'));
  mkdirSync(join(dir, '.claude'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) =>
  run(BIN.cli, args, { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir, AGENT_SESSION_CONFIG: undefined, COLUMNS: '250' } });

/** A session of `agent` moved to approval. */
function waiting(agent: string): string {
  const id = cli(['create', '--agent', agent, '--purpose', 'p']).stdout.trim();
  expect(cli(['update', id, '--phase', 'approval']).status).toBe(0);
  return id;
}

it('pending --limit shows the most recently active page and says how many more wait; --json has every one', () => {
  const ids = [waiting('a'), waiting('b'), waiting('c')];
  const page = cli(['pending', '--limit', '2']);
  expect({ status: page.status, stderr: page.stderr }).toEqual({ status: 0, stderr: '' });
  expect(page.stdout).toContain('2 sessions wait for your decision');
  expect(page.stdout).toContain('1 more session waits (3 in all), not shown');
  expect(page.stdout).toContain(ids[2]!.slice(-8));
  expect(page.stdout).toContain(ids[1]!.slice(-8));
  expect(page.stdout).not.toContain(ids[0]!.slice(-8));
  const all = cli(['pending']);
  expect(all.stdout).toContain('3 sessions wait for your decision');
  expect(all.stdout).not.toContain('not shown');
  expect(JSON.parse(cli(['pending', '--json']).stdout)).toHaveLength(3);
  expect(JSON.parse(cli(['pending', '--json', '--limit', '1']).stdout)).toHaveLength(1);
});

it('pending --limit refuses what is not a whole number of at least 1 (exit 2, one line naming it)', () => {
  const bad = cli(['pending', '--limit', '0']);
  expect(bad.status).toBe(2);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toContain('`--limit`');
});
