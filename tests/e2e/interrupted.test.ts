import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';

// Issue 22: a session whose agent was interrupted by a host failure, as the user sees it through the built CLI:
// show, list, pending, stats and the report show it as interrupted (not running, not done), and should-resume and
// pre-delegate carry it on. Each test in its own project folder (the default store: <project>/.claude/session).
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-interrupted-'));
  mkdirSync(join(dir, '.claude'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string | undefined> = {}) => ({
  CLAUDE_PROJECT_DIR: dir,
  AGENT_SESSION_CONFIG: undefined,
  COLUMNS: '250',
  ...extra,
});
const cli = (args: readonly string[]) => run(BIN.cli, args, { cwd: dir, env: env() });
const hook = (bin: string, input: unknown) => run(bin, [], { cwd: dir, env: env(), input: JSON.stringify(input) });

/** A session of `migrator` in executing whose agent the seed protocol reports interrupted by a usage limit. */
function interrupted(): string {
  const id = cli(['create', '--agent', 'migrator', '--purpose', 'p', '--metadata', '{"task_id":"T7"}']).stdout.trim();
  expect(cli(['update', id, '--phase', 'executing']).status).toBe(0);
  const answer = hook(BIN.subagentStop, {
    agent_id: id,
    interrupted: { error: 'rate_limit', message: 'Usage limit reached; key sk-ant-api03-SECRETSECRET resets at 5pm' },
  });
  expect(JSON.parse(answer.stdout)).toEqual({ finalized: false, reason: 'interrupted', agent_id: id });
  return id;
}

it('show tells the interruption: how many, carried on, the last one, waiting; the timeline marks it', () => {
  const id = interrupted();
  const shown = cli(['show', id]);
  expect(shown.status).toBe(0);
  expect(shown.stdout).toMatch(/Resume now\s+yes \(session_interrupted\)/);
  expect(shown.stdout).toMatch(/Interrupted\s+1 time, carried on 0; last by a rate or usage limit \(rate_limit\)/);
  expect(shown.stdout).toContain('in phase executing; waiting for the next delegation to carry it on');
  expect(shown.stdout).toContain('the host said: Usage limit reached; key sk-[masked] resets at 5pm');
  expect(shown.stdout).not.toContain('SECRET');
  expect(shown.stdout).toMatch(/interrupted\s+in executing by a rate or usage limit \(rate_limit\)/);
  expect(shown.stdout).toMatch(/Errors\s+0 of 3/);
  const json = JSON.parse(cli(['show', id, '--json']).stdout);
  expect(json.resume).toMatchObject({ should_resume: true, reason: 'session_interrupted' });
  expect(json.session.interruption).toMatchObject({ count: 1, waiting: true, error: 'rate_limit' });
});

it('should-resume says yes (exit 0), and --explain why each rule passes', () => {
  const id = interrupted();
  const answer = run(BIN.cli, ['should-resume', id, '--explain'], { cwd: dir, env: env() });
  expect(answer.status).toBe(0);
  expect(answer.stdout).toMatch(/^true session_interrupted\n/);
  expect(answer.stdout).toContain('ok  phase executing: interrupted by a rate or usage limit (rate_limit)');
  expect(answer.stdout).not.toContain('NO ');
});

it('list shows it as interrupted, neither running nor done', () => {
  const id = interrupted();
  const table = cli(['list']).stdout;
  expect(table).toMatch(new RegExp(`${id.slice(-8)}\\s+migrator\\s+executing, interrupted\\s+yes`));
  const [entry] = JSON.parse(cli(['list', '--json']).stdout);
  expect(entry).toMatchObject({ agent_id: id, phase: 'executing', interrupted: true, resumable_now: true });
  expect(entry.resume_reason).toBe('session_interrupted');
});

it('pending leaves it out: it waits for the next delegation, not for a decision of the user', () => {
  const id = interrupted();
  expect(cli(['pending']).stdout).toBe('Nothing waits for your decision\n');
  expect(JSON.parse(cli(['pending', '--json']).stdout)).toEqual([]);
  expect(cli(['list']).stdout).toContain(id.slice(-8));
});

it('stats counts interruptions apart from errors, and how many were carried on', () => {
  const id = interrupted();
  const before = JSON.parse(cli(['stats', '--json']).stdout).overall;
  expect(before).toMatchObject({ interruptions: 1, carried_on: 0, interrupted_now: 1, by_error_count: { 0: 1 } });
  expect(cli(['stats']).stdout).toMatch(/INTERRUPTED\/[\s\S]*CARRIED ON[\s\S]*migrator.*\b1\/0\b/);
  // The next delegation carries it on (the seed protocol's resume: session_interrupted).
  const resumed = JSON.parse(hook(BIN.preDelegate, { agent_name: 'migrator' }).stdout);
  expect(resumed).toMatchObject({ should_resume: true, reason: 'session_interrupted', agent_id: id });
  const after = JSON.parse(cli(['stats', '--json']).stdout).overall;
  expect(after).toMatchObject({ interruptions: 1, carried_on: 1, interrupted_now: 0, resumes: 1 });
});

it('the report shows the figures, the inbox entry and the interruption mark', () => {
  const id = interrupted();
  const html = cli(['report', '--out', '-']).stdout;
  expect(html).toContain('<b data-figure="interruptions">1</b>');
  expect(html).toContain('<b data-figure="interrupted_now">1</b>');
  expect(html).toMatch(
    new RegExp(`<tr data-session="${id}"[^>]*>.*executing, interrupted.*yes, by the next delegation`),
  );
  expect(html).toMatch(/<text class="interrupted"[^>]*>↯<title>interrupted in executing by a rate or usage limit/);
  expect(html).not.toContain('SECRET');
});
