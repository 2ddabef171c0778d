// scripts/bench/verdicts.mjs: the lean-hook target and each row's growth against an earlier run (ESM: run by node).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'bench', 'verdicts.mjs');

/** `verdicts.mjs`'s export `name` called with `args` (JSON values), in a node of its own: its result, or `error`. */
function call(name: string, ...args: unknown[]): { out?: unknown; error?: string } {
  const script =
    `import(${JSON.stringify(SCRIPT)}).then((m) => { try { process.stdout.write(JSON.stringify({ out: ` +
    `m[${JSON.stringify(name)}](...JSON.parse(process.argv[1])) })); } catch (e) { process.stdout.write(` +
    'JSON.stringify({ error: e.message })); } });';
  const result = spawnSync(process.execPath, ['-e', script, JSON.stringify(args)], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { out?: unknown; error?: string };
}

interface Row {
  name: string;
  kind: string;
  before: number;
  after: number;
  delta: number;
  limit: number | null;
  met: boolean | null;
}
interface Growth {
  rows: Row[];
  onlyBefore: string[];
  onlyAfter: string[];
  notes: string[];
}

const machine = { node: 'v20.20.2', platform: 'linux x64', cpu: 'Xeon' };
const run = (figures: Record<string, number>, overrides: Record<string, unknown> = {}) => ({
  date: '2026-11-28T00:00:00.000Z',
  machine,
  instructions: Object.fromEntries(Object.entries(figures).map(([name, median]) => [name, { median }])),
  ...overrides,
});

describe('rowKind: which rows a growth limit holds', () => {
  it.each([
    ['pre-delegate (seed, by id)', 'hook'],
    ['subagent-stop (Claude Code SubagentStop)', 'hook'],
    ['pre-delegate by name, 10,000 sessions', 'hook'],
    ['Node v22.23.3: pre-delegate (Claude Code SubagentStart)', 'hook'],
    ['PostgreSQL relay: subagent-stop (seed, finalizes)', 'hook'],
    ['PostgreSQL direct: pre-delegate (Claude Code SubagentStart)', 'direct'],
    ['agent-session update', 'cli'],
    ['agent-session list --json, 100,000 sessions', 'cli'],
    ['PostgreSQL: agent-session get', 'cli'],
    ['Node v24.21.0: lean hook (by id)', 'reference'],
    ['minimal hook (by id)', 'reference'],
    ['node -e "" (PostgreSQL)', 'reference'],
    ['in-process (Agent SDK) SubagentStart', 'reference'],
  ])('%s is a %s row', (name, kind) => {
    expect(call('rowKind', name).out).toBe(kind);
  });
});

describe('leanTarget', () => {
  it('is the lean hook over the minimal hook of the same Node, plus 0.10', () => {
    expect(call('leanTarget', 89.5, 79).out).toBeCloseTo(89.5 / 79 + 0.1, 10);
  });
});

describe('growth: each row against the run before the change', () => {
  it('holds a hook row to +1 M and a CLI row to +2 M, a reference row to nothing, at and past each limit', () => {
    const before = run({
      'pre-delegate (seed, by id)': 98,
      'subagent-stop (seed, finalizes)': 97,
      'agent-session get': 125,
      'agent-session update': 134,
      'minimal hook (by id)': 80,
    });
    const after = run({
      'pre-delegate (seed, by id)': 99,
      'subagent-stop (seed, finalizes)': 98.2,
      'agent-session get': 127,
      'agent-session update': 136.5,
      'minimal hook (by id)': 90,
    });
    const { out } = call('growth', before, after) as { out: Growth };
    const verdicts = Object.fromEntries(out.rows.map((r) => [r.name, [r.limit, r.met]]));
    expect(verdicts).toEqual({
      'pre-delegate (seed, by id)': [1, true],
      'subagent-stop (seed, finalizes)': [1, false],
      'agent-session get': [2, true],
      'agent-session update': [2, false],
      'minimal hook (by id)': [null, null],
    });
    expect(out.rows.find((r) => r.name === 'agent-session update')).toMatchObject({
      before: 134,
      after: 136.5,
      delta: 2.5,
    });
  });

  it('meets a Node line under another patch version, says so, and lists the rows only one run has', () => {
    const before = run({ 'Node v22.23.3: pre-delegate (seed, by id)': 98, 'agent-session get': 125 });
    const after = run(
      { 'Node v22.24.0: pre-delegate (seed, by id)': 98.5, 'list (scale), 100,000 sessions': 5 },
      { machine: { ...machine, cpu: 'EPYC' } },
    );
    const { out } = call('growth', before, after) as { out: Growth };
    expect(out.rows.map((r) => [r.name, r.met])).toEqual([['Node v22.24.0: pre-delegate (seed, by id)', true]]);
    expect(out.onlyBefore).toEqual(['agent-session get']);
    expect(out.onlyAfter).toEqual(['list (scale), 100,000 sessions']);
    expect(out.notes).toEqual([
      'machine cpu: Xeon before, EPYC now',
      "Node 22: v22.23.3 before, v22.24.0 now (Node's own change is in the deltas)",
    ]);
  });

  it('refuses a wall-clock run, which has no instruction counts', () => {
    const wallClock = { machine, timings_ms: { 'agent-session get': { median: 100 } } };
    expect(call('growth', wallClock, run({})).error).toMatch(/earlier run to be an instruction count/);
  });
});

describe('node scripts/bench/verdicts.mjs BEFORE AFTER', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'verdicts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

  it('prints each shared row with its delta and verdict, and the count within limits', () => {
    const before = join(dir, 'before.json');
    const after = join(dir, 'after.json');
    writeFileSync(before, JSON.stringify(run({ 'pre-delegate (seed, by id)': 98, 'agent-session get': 125 })));
    writeFileSync(after, JSON.stringify(run({ 'pre-delegate (seed, by id)': 97.6, 'agent-session get': 127.5 })));
    const result = cli(before, after);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /\| pre-delegate \(seed, by id\) +\| 98\.0 +\| 97\.6 +\| −0\.4 +\| ≤ \+1 M +\| met +\|/,
    );
    expect(result.stdout).toMatch(/\| agent-session get +\| 125\.0 +\| 127\.5 +\| \+2\.5 +\| ≤ \+2 M +\| NOT met +\|/);
    expect(result.stdout).toContain('1 of 2 hook and CLI rows within their growth limit; 1 NOT');
  });

  it.each([
    [[], /^Usage: node scripts\/bench\/verdicts\.mjs BEFORE\.json AFTER\.json\n$/],
    [['missing.json', 'missing.json'], /^Expected missing\.json to be a bench run's JSON .*ENOENT.*\n$/],
  ])('exits 2 with one line on stderr for %j', (args, message) => {
    const result = cli(...args.map((a) => (a.endsWith('.json') ? join(dir, a) : a)));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.replace(dir + '/', '')).toMatch(message);
  });

  it('exits 2 naming a file that holds wall-clock figures', () => {
    const file = join(dir, 'bench.json');
    writeFileSync(file, JSON.stringify({ machine, timings_ms: {} }));
    const result = cli(file, file);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `Expected ${file} to be an instruction count (\`npm run bench -- --instructions\`), with its rows\n`,
    );
  });
});
