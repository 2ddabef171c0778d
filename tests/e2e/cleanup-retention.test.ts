// Issue 43 item 4: retention as the seeds have it. `cleanup --older-than DAYS` beside `--hours` (never both), and the
// project's `max_sessions` cap (oldest finished first, never a session waiting for a decision). The built bins, on a
// project's own file store, in their own HOME.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);
const home = join(base, 'home');
mkdirSync(home, { recursive: true });

function setUp(config?: object, extraEnv: Record<string, string> = {}) {
  const cwd = project();
  if (config !== undefined) writeFileSync(join(cwd, '.claude', 'agent-session.json'), JSON.stringify(config));
  const store = join(cwd, '.claude', 'session');
  const env = {
    CLAUDE_PROJECT_DIR: cwd,
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    XDG_DATA_HOME: undefined,
    ...extraEnv,
  };
  const cli = (args: string[]) => run(BIN.cli, args, { cwd, env });
  const ok = (args: string[]) => {
    const result = cli(args);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return result.stdout;
  };
  /** A session whose last activity is `hoursAgo` hours back (written as an older run would have left it). */
  const aged = (phase: 'completed' | 'approval' | 'planning', hoursAgo: number) => {
    const id = ok(['create', '--agent', 'a', '--purpose', 'p']).trim();
    if (phase === 'completed') ok(['finalize', id, 'completed']);
    else ok(['update', id, '--phase', phase]);
    const file = join(store, id, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const at = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    writeFileSync(file, JSON.stringify({ ...state, last_updated: at }));
    return id;
  };
  const ids = () =>
    readdirSync(store)
      .filter((name) => name.startsWith('agent-'))
      .sort();
  return { cwd, cli, ok, aged, ids };
}

it('--older-than DAYS removes what is idle that many days, as --hours of 24 times as many', () => {
  const { ok, aged, ids } = setUp();
  const old = aged('planning', 10 * 24);
  const recent = aged('completed', 5 * 24);
  const dry = JSON.parse(ok(['cleanup', '--older-than', '7', '--dry-run', '--json']));
  expect(dry).toMatchObject({ hours: 168, removed: [old], capped: [] });
  expect(ok(['cleanup', '--older-than', '7'])).toContain(`Removed 1 session idle for more than 168h:\n  ${old}\n`);
  expect(ids()).toEqual([recent]);
});

it.each([
  [['--hours', '2', '--older-than', '3'], /`--hours`.*`--older-than`.*`--hours 2`.*`--older-than 3`/],
  [['--older-than', 'soon'], /`--older-than` to be a number of days, 0 or more, got `soon`/],
  [['--older-than', '-1'], /`--older-than` to be a number of days/],
])('cleanup %p: one line naming the value, exit 2, nothing removed', (args, message) => {
  const { cli, aged, ids } = setUp();
  aged('completed', 400 * 24);
  const before = ids();
  const result = cli(['cleanup', ...args]);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(ids()).toEqual(before);
});

it('max_sessions: the oldest finished sessions above the cap go, never one waiting in approval', () => {
  const { ok, aged, ids } = setUp({ max_sessions: 2 });
  const waiting = aged('approval', 3);
  const oldest = aged('completed', 2);
  const older = aged('completed', 1);
  const newest = aged('completed', 0);
  const dry = JSON.parse(ok(['cleanup', '--dry-run', '--json']));
  expect(dry).toMatchObject({ max_sessions: 2, removed: [], capped: [oldest, older] });
  expect(ids()).toHaveLength(4);
  const text = ok(['cleanup']);
  expect(text).toContain(
    `Removed 2 finished sessions above max_sessions (2), oldest first:\n  ${oldest}\n  ${older}\n`,
  );
  expect(ids()).toEqual([waiting, newest].sort());
  // Two left, one waiting: nothing more to take.
  expect(JSON.parse(ok(['cleanup', '--json'])).capped).toEqual([]);
});

it('max_sessions from the variable; a bad one is refused naming it, exit 2, nothing removed', () => {
  const { cli, aged, ids } = setUp(undefined, { AGENT_SESSION_MAX_SESSIONS: '1' });
  const oldest = aged('completed', 1);
  const newest = aged('completed', 0);
  expect(JSON.parse(cli(['cleanup', '--json']).stdout)).toMatchObject({ max_sessions: 1, capped: [oldest] });
  expect(ids()).toEqual([newest]);
  const bad = setUp();
  bad.aged('completed', 1);
  writeFileSync(join(bad.cwd, '.claude', 'agent-session.json'), JSON.stringify({ max_sessions: 0 }));
  const result = bad.cli(['cleanup']);
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(
    /`max_sessions` in the config file .* to be a positive whole number of sessions, got `0`/,
  );
  expect(bad.ids()).toHaveLength(1);
});
