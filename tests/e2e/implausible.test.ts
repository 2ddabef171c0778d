import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Issue 10: implausible times and hostile values, as a user sees them through the built CLI and hooks.
const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'agent-session.cjs');
const PRE_DELEGATE = join(ROOT, 'dist', 'pre-delegate.cjs');
const FUTURE = '2098-01-01T00:00:00.000Z';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  env = { ...process.env, NODE_EXTRA_CA_CERTS: '', CLAUDE_PROJECT_DIR: dir, NO_COLOR: '' };
  for (const name of Object.keys(env)) if (name.startsWith('AGENT_SESSION_')) delete env[name];
  Object.assign(env, { AGENT_SESSION_DIR: join(dir, 'store'), AGENT_SESSION_CONFIG: '' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env, encoding: 'utf8' });
}

function hook(bin: string, input: unknown): Record<string, unknown> {
  const result = spawnSync(process.execPath, [bin], { cwd: dir, env, input: JSON.stringify(input), encoding: 'utf8' });
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function create(agent: string, id: string, phase?: string): void {
  expect(cli(['create', '--agent', agent, '--purpose', 'p', '--id', id]).status).toBe(0);
  if (phase !== undefined) expect(cli(['update', id, '--phase', phase]).status).toBe(0);
}

/** Moves a session's last activity ahead of the clock (far, by default), as a clock jump or a hand edit would. */
function skew(id: string, to = FUTURE): void {
  const file = join(dir, 'store', id, 'state.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), last_updated: to }));
}

describe('a session ahead of the clock (item 5)', () => {
  beforeEach(() => {
    create('arch', 'real', 'planning');
    create('arch', 'future', 'planning');
    skew('future');
  });

  it('does not hide the agent from pre-delegate by name', () => {
    expect(hook(PRE_DELEGATE, { agent_name: 'arch' })).toMatchObject({ should_resume: true, agent_id: 'real' });
  });

  it('is shown as a clock ahead by list, not as a time to come', () => {
    const list = cli(['list']);
    const row = list.stdout.split('\n').find((line) => line.startsWith('future'));
    expect(row).toContain('clock ahead');
    expect(row).not.toMatch(/\bin \d+ years\b/);
    expect(JSON.parse(cli(['list', '--json']).stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agent_id: 'future', clock_ahead: true }),
        expect.objectContaining({ agent_id: 'real', clock_ahead: false }),
      ]),
    );
  });

  it('is shown as a clock ahead by stats', () => {
    const row = cli(['stats'])
      .stdout.split('\n')
      .find((line) => line.startsWith('arch'));
    expect(row).toContain('clock ahead');
    expect(row).not.toMatch(/\bin \d+ years\b/);
  });

  it('is removed by cleanup, which says why', () => {
    const dry = cli(['cleanup', '--dry-run']);
    // Issue 30 item 5: named as a clock ahead, never as idle.
    expect(dry.stdout).toMatch(/^Would remove 0 sessions idle for more than 24h\n.*clock ahead.*:\n {2}future\n/);
    const result = cli(['cleanup', '--json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ removed: ['future'], clock_ahead: ['future'] });
    expect(cli(['get', 'future']).status).toBe(3);
    expect(cli(['get', 'real']).status).toBe(0);
  });

  // Issue 30 item 5: a clock stepped back a few minutes (NTP, a VM's clock fixed) leaves sessions just written ahead of
  // it; cleanup removes one only when it is ahead by more than the horizon, as an idle one must be idle that long.
  it.each([
    ['3 minutes ahead, horizon 24h: kept', 3 * 60_000, '24', false],
    ['2 minutes ahead, horizon 168h: kept', 2 * 60_000, '168', false],
    ['25 hours ahead, horizon 24h: removed', 25 * 3_600_000, '24', true],
    ['3 minutes ahead, horizon 0.01h: removed', 3 * 60_000, '0.01', true],
  ])('a session %s', (_label, aheadMs, hours, removed) => {
    create('planner', 'stepped', 'approval');
    skew('stepped', new Date(Date.now() + aheadMs).toISOString());
    const result = cli(['cleanup', '--hours', hours, '--json']);
    expect(result.status).toBe(0);
    const ahead = removed ? ['future', 'stepped'] : ['future'];
    expect(JSON.parse(result.stdout)).toMatchObject({ removed: ahead, clock_ahead: ahead });
    expect(cli(['get', 'stepped']).status).toBe(removed ? 3 : 0);
  });

  it('is refused by import', () => {
    const file = join(dir, 'future.json');
    const session = { ...JSON.parse(cli(['get', 'real']).stdout), agent_id: 'copy', last_updated: FUTURE };
    writeFileSync(file, JSON.stringify({ format: 'agent-session/1', exported_at: new Date().toISOString(), session }));
    const result = cli(['import', file]);
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('last_updated');
    expect(cli(['get', 'copy']).status).toBe(3);
  });
});

describe('terminal output (item 10)', () => {
  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it.each([['list'], ['stats']])('%s escapes control characters of a hand-edited agent name', (command) => {
    create('plain', 'hostile');
    const file = join(dir, 'store', 'hostile', 'state.json');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), agent_name: 'x\u001b[2J\nrow\u0000' }),
    );
    // Wide enough for every stats column: no note about the columns left out.
    env.COLUMNS = '250';
    const result = cli([command]);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout).toContain('x\\u001b[2J\\u000arow\\u0000');
    // The header (stats: two lines), the session's row (and the stats total): no row broken in two.
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(command === 'list' ? 2 : 4);
  });

  it('an error naming a path prints it escaped, on one line', () => {
    const hostile = join(dir, 'a\u001b[2Jb\nc');
    writeFileSync(hostile, '');
    const result = cli(['list', '--dir', hostile]);
    expect(result.status).toBe(5);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('list aligns wide names by display width', () => {
    create('データ', 'wide');
    create('abcdef', 'narrow');
    const lines = cli(['list']).stdout.trimEnd().split('\n');
    const phaseAt = (line: string): number => {
      const before = line.slice(0, line.indexOf('initializing'));
      return [...before].reduce((width, c) => width + (/[\u3000-\u9fff]/.test(c) ? 2 : 1), 0);
    };
    expect(phaseAt(lines.find((line) => line.startsWith('wide'))!)).toBe(
      phaseAt(lines.find((line) => line.startsWith('narrow'))!),
    );
  });
});

describe('stats --since without an offset (item 15)', () => {
  const stats = (since: string, TZ: string) =>
    spawnSync(process.execPath, [CLI, 'stats', '--json', '--since', since], {
      cwd: dir,
      env: { ...env, TZ },
      encoding: 'utf8',
    });

  it.each([['2026-11-01'], ['2026-11-01T00:00:00'], ['2026-11-01 00:00'], ['2026-11-01T00:00:00Z']])(
    '%s is UTC midnight, in any time zone',
    (since) => {
      for (const TZ of ['America/New_York', 'Asia/Tokyo']) {
        const result = stats(since, TZ);
        expect(result.status).toBe(0);
        expect(JSON.parse(result.stdout).since).toBe('2026-11-01T00:00:00.000Z');
      }
    },
  );

  it('an explicit offset is kept', () => {
    expect(JSON.parse(stats('2026-11-01T00:00:00+01:00', 'Asia/Tokyo').stdout).since).toBe('2026-10-31T23:00:00.000Z');
  });
});
