// Issue 20, "Frictions of a new user": the stats table's width, plurals, and what the help marks, through the built
// bin. Each case failed on the code before its fix.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore } from '../../src/store/file-store';
import { generateSessions } from '../support/generate-sessions';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);
// The width and colour conventions under test come from the environment: none of the runner's may leak in.
const CLEAN = { COLUMNS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined, AGENT_SESSION_CONFIG: undefined };
const cli = (cwd: string, args: readonly string[], env: Record<string, string | undefined> = {}) =>
  run(BIN.cli, args, { cwd, env: { ...CLEAN, ...env } });

/** The one-line error of a refused command: exit code, nothing on stdout, one line naming what was wrong. */
function expectRefused(result: ReturnType<typeof cli>, status: number, mentions: string): void {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status, stdout: '' });
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-session: /);
  expect(lines[0]).toContain(mentions);
}

/** A project whose store holds 300 generated sessions (seven agents, one named `<img src=x onerror=alert(1)>`). */
let generated: string;
beforeAll(async () => {
  generated = project();
  const store = new FileStore(join(generated, '.claude', 'session'));
  for (const state of generateSessions({ count: 300, now: new Date(), seed: 3 })) await store.create(state);
  await store.close();
});

/**
 * The table's cells by column, read at the columns where the first header line's words begin (each column's header
 * begins with one word there); the header's lines are joined per column.
 */
function columnsOf(table: string): { header: string[]; rows: Map<string, string[]> } {
  const lines = table.trimEnd().split('\n');
  const starts = [...lines[0]!.matchAll(/\S+/g)].map((match) => match.index);
  const cut = (line: string) => starts.map((start, i) => line.slice(start, starts[i + 1]).trim());
  // AGENT has one header line: the header's further lines begin with spaces.
  const headerLines = 1 + lines.slice(1).findIndex((line) => !line.startsWith(' '));
  const header = cut(lines[0]!).map((_, i) =>
    lines
      .slice(0, headerLines)
      .map((line) => cut(line)[i])
      .filter(Boolean)
      .join(' ')
      .replace(/\/ /g, '/'),
  );
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(headerLines)) if (/^\S/.test(line)) rows.set(cut(line)[0]!, cut(line));
  return { header, rows };
}

describe('stats fits a terminal', () => {
  it.each([
    ['COLUMNS=100', { COLUMNS: '100' }, 100],
    ['COLUMNS=120', { COLUMNS: '120' }, 120],
    ['no terminal and no COLUMNS', {}, 120],
  ])('%s: no line wider than %p', (_label, env, width) => {
    const result = cli(generated, ['stats'], env);
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect([line, line.length <= width]).toEqual([line, true]);
    // The figures a new user asks first are there at 100 columns already.
    const { header, rows } = columnsOf(result.stdout);
    expect(header).toEqual(expect.arrayContaining(['AGENT', 'SESSIONS', 'DONE/FAILED/ABANDONED', 'SUCCESS RATE']));
    expect(rows.get('(all)')![1]).toBe('300');
    expect(rows.has('<img src=x onerror=alert(1)>')).toBe(true);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('to the width of the terminal it prints to (needs `script`)', () => {
    const command = `stty cols 100 rows 50; "${process.execPath}" "${BIN.cli}" stats`;
    const env: Record<string, string | undefined> = { ...process.env, ...CLEAN, NODE_EXTRA_CA_CERTS: '', TERM: 'dumb' };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const result = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: generated, env, encoding: 'utf8' });
    const lines = result.stdout.replace(/\r/g, '').trimEnd().split('\n');
    expect(lines.some((line) => line.startsWith('(all)'))).toBe(true);
    for (const line of lines) expect([line, line.length <= 100]).toEqual([line, true]);
  });

  it('a wide terminal gets every figure, a narrow one is told what was left out', () => {
    const wide = cli(generated, ['stats'], { COLUMNS: '250' });
    const { header } = columnsOf(wide.stdout);
    expect(header).toEqual(
      expect.arrayContaining(['RESUMES', 'RESUME RATE', 'MEDIAN DURATION', 'MEAN DURATION', 'DECIDED AFTER']),
    );
    expect(wide.stdout).not.toMatch(/left out/i);
    const narrow = cli(generated, ['stats'], { COLUMNS: '100' });
    const shown = columnsOf(narrow.stdout).header;
    const missing = columnsOf(wide.stdout).header.filter((name) => !shown.includes(name));
    expect(missing.length).toBeGreaterThan(0);
    const note = narrow.stdout
      .slice(narrow.stdout.indexOf('\n', narrow.stdout.indexOf('\n(all)') + 1))
      .replace(/\s+/g, ' ');
    for (const name of missing) expect(note).toContain(name);
    expect(note).toContain('--json');
  });

  it('says what its error column counts: sessions with at least one error, no `0:3`', () => {
    const json = JSON.parse(cli(generated, ['stats', '--json']).stdout);
    const table = cli(generated, ['stats'], { COLUMNS: '250' }).stdout;
    expect(table).not.toMatch(/\b\d+:\d+\b/);
    expect(table).not.toContain('BY ERRORS');
    const { header, rows } = columnsOf(table);
    const column = header.indexOf('WITH ERRORS');
    expect(column).toBeGreaterThan(0);
    const withErrors = (group: { sessions: number; by_error_count: Record<string, number> }) =>
      String(group.sessions - (group.by_error_count['0'] ?? 0));
    expect(rows.get('(all)')![column]).toBe(withErrors(json.overall));
    expect(rows.get('db-migrator')![column]).toBe(withErrors(json.agents['db-migrator']));
  });
});

describe('plurals', () => {
  it.each([
    [1, 'Wrote the report of 1 session to '],
    [2, 'Wrote the report of 2 sessions to '],
  ])('report --out with %p session(s)', (count, expected) => {
    const cwd = project();
    for (let n = 0; n < count; n++)
      expect(cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', `s${n}`]).status).toBe(0);
    const result = cli(cwd, ['report', '--out', 'report.html']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^${expected}`));
  });
});

describe('help marks what options take and need', () => {
  /** The help entry of `flag` on `command`'s page (its lines joined: help wraps at 100 columns), if listed. */
  const helpLine = (command: string, flag: string): string | undefined => {
    const lines = cli(base, [command, '--help']).stdout.split('\n');
    const first = lines.findIndex((line) => line.trimStart().startsWith(`${flag} `));
    if (first === -1) return undefined;
    // An entry's further lines are indented past the option names.
    const rest = lines.slice(first + 1).findIndex((line) => !/^ {8,}\S/.test(line) || /^\s+-/.test(line));
    return lines.slice(first, rest === -1 ? undefined : first + 1 + rest).join(' ');
  };

  it('reject: --reason is marked required', () => {
    expect(helpLine('reject', '--reason')).toMatch(/\[required\]/);
  });

  it('cleanup: --hours reads as a number', () => {
    const line = helpLine('cleanup', '--hours')!;
    expect(line).toMatch(/\[number\]/);
    expect(line).not.toMatch(/\[string\]/);
  });

  it.each([
    ['machine', ['--dir', '--database-url']],
    ['completion', ['--dir', '--database-url']],
    ['init', ['--dir']],
  ])('%s does not list the store options that mean nothing to it: %p', (command, hidden) => {
    for (const flag of hidden) expect([command, flag, helpLine(command, flag)]).toEqual([command, flag, undefined]);
  });

  it('the commands that use the store still list them, and init its --database-url', () => {
    for (const command of ['list', 'cleanup', 'stats', 'config'])
      for (const flag of ['--dir', '--database-url'])
        expect([command, flag, helpLine(command, flag)]).not.toContain(undefined);
    expect(helpLine('init', '--database-url')).toBeDefined();
  });
});

describe('the options behind the help still read as before', () => {
  function withSession(): string {
    const cwd = project();
    expect(cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's1']).status).toBe(0);
    expect(cli(cwd, ['update', 's1', '--phase', 'approval']).status).toBe(0);
    return cwd;
  }
  const stateFile = (cwd: string) => join(cwd, '.claude', 'session', 's1', 'state.json');

  it.each([
    ['reject without --reason', ['reject', 's1'], '--reason'],
    ['reject --reason ""', ['reject', 's1', '--reason', ''], '--reason'],
    ['cleanup --hours abc', ['cleanup', '--hours', 'abc'], '`abc`'],
    ['cleanup --hours ""', ['cleanup', '--hours', ''], '--hours'],
    ['cleanup --hours " "', ['cleanup', '--hours', ' '], '--hours'],
    ['cleanup --hours 0x10', ['cleanup', '--hours', '0x10'], '`0x10`'],
    ['cleanup --hours 1e3', ['cleanup', '--hours', '1e3'], '`1e3`'],
    ['cleanup --hours -1', ['cleanup', '--hours=-1'], '`-1`'],
  ])('%s: exit 2, one line, nothing changed', (_label, args, mentions) => {
    const cwd = withSession();
    const before = readFileSync(stateFile(cwd), 'utf8');
    expectRefused(cli(cwd, args), 2, mentions);
    expect(readFileSync(stateFile(cwd), 'utf8')).toBe(before);
  });

  it('cleanup --hours takes fractions; hidden store options are still accepted', () => {
    const cwd = withSession();
    const dry = cli(cwd, ['cleanup', '--hours', '0.5', '--dry-run', '--json']);
    expect(dry.status).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ hours: 0.5, dry_run: true });
    expect(cli(cwd, ['machine', '--json', '--dir', join(cwd, 'x')]).status).toBe(0);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
  });
});
