// Issue 41 item 4: each event pays only for its own code. Each row of the table of events (src/core/events.ts) is run
// on its built bin with a minimal payload of its event, and the bytes of code that call loads (the bundle it
// compiles, the files it requires: tests/support/code-bytes-probe.cjs) are held against the row's budget in
// tests/hook-code-budget.json. A feature that grows every hook (a heavy import on a hook path, even a lazy `require`:
// esbuild puts it in the bundle every call compiles) fails here until its budget is raised with a reason. No timing:
// bytes, the same on every Node line (the code cache is off: its size is V8's, and it is made in the background).
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EVENTS, type EventRow } from '../../src/core/events';
import { BIN, run, tempDir } from '../helpers';

const ROOT = resolve(__dirname, '..', '..');
const BUDGET_FILE = 'tests/hook-code-budget.json';
const PROBE = join(ROOT, 'tests', 'support', 'code-bytes-probe.cjs');

/** A row's budget: the most bytes of code its call may load, and why it is that much. */
interface Budget {
  readonly bytes: number;
  readonly reason: string;
}
const budgets = (JSON.parse(readFileSync(join(ROOT, BUDGET_FILE), 'utf8')) as { rows: Record<string, Budget> }).rows;

const { EVENT_SAMPLES } = require(join(ROOT, 'scripts', 'loader', 'make-cache.cjs')) as {
  EVENT_SAMPLES: Record<string, (cli: string) => Record<string, unknown>[]>;
};

/** The seed protocol's calls (README "Seed protocol"), which no row of the table names: one per bin. */
const SEED_ROWS = [
  ['seed pre-delegate', BIN.preDelegate, JSON.stringify({ agent_name: 'budget' })],
  [
    'seed subagent-stop',
    BIN.subagentStop,
    JSON.stringify({ task_info: { agent_id: 'agent-20260101-000000-0000cafe' } }),
  ],
] as const;

const work = tempDir();
const HOOK_BIN = { 'pre-delegate': BIN.preDelegate, 'subagent-stop': BIN.subagentStop } as const;

/** What one call loads: each script compiled and file required, with its bytes. */
function loaded(bin: string, args: readonly string[], input: string, name: string): { what: string; bytes: number }[] {
  const project = join(work, name);
  mkdirSync(join(project, '.claude'), { recursive: true });
  const out = join(work, `${name}.json`);
  const result = run(bin, args, {
    cwd: project,
    input,
    env: {
      HOME: join(work, 'home'),
      AGENT_SESSION_DIR: join(project, '.claude', 'session'),
      AGENT_SESSION_CODE_CACHE: '0',
      NODE_OPTIONS: `--require ${PROBE}`,
      CODE_BYTES_OUT: out,
    },
  });
  expect(result.status).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as { what: string; bytes: number }[];
}

/** The payload of a row's event: the host's common fields and the build's first sample of it (make-cache.cjs). */
function payloadOf(row: EventRow, project: string): string {
  const sample = EVENT_SAMPLES[row.event]?.('agent-session')[0] ?? {};
  return JSON.stringify({ hook_event_name: row.event, session_id: 's-budget', cwd: project, ...sample });
}

/** The message of a row over its budget: the row, the bytes, the budget, and how to raise it. */
function overBudget(row: string, files: readonly { what: string; bytes: number }[], budget: Budget): string {
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  const biggest = [...files].sort((a, b) => b.bytes - a.bytes).slice(0, 3);
  return (
    `Expected the ${row} row to load at most ${budget.bytes} bytes of code (its budget in ${BUDGET_FILE}), got ` +
    `${total} (${biggest.map((file) => `${file.bytes} ${file.what}`).join('; ')}). What a hook bin bundles, every ` +
    `row of it loads, even behind a lazy require: keep a module one path needs out of the hooks' bundles (its own ` +
    `file, as the PostgreSQL driver's: scripts/bundles.mjs); if every call must carry it, raise the row's "bytes" ` +
    `in ${BUDGET_FILE} and say why in its "reason".`
  );
}

describe('the bytes of code each event row loads, against its budget', () => {
  it('every row of the table has a budget with a reason, and every budget a row', () => {
    const names = [...EVENTS.map((row) => row.event), ...SEED_ROWS.map(([name]) => name)].sort();
    expect(Object.keys(budgets).sort()).toEqual(names);
    for (const budget of Object.values(budgets)) {
      expect(Number.isInteger(budget.bytes) && budget.bytes > 0).toBe(true);
      expect(budget.reason.trim()).not.toBe('');
    }
  });

  it.each(EVENTS.map((row) => [row.event, row] as const))('%s', (event, row: EventRow) => {
    // A row no Claude Code wiring fires is run as the first host that fires it (Codex's PostModelRequest).
    const host = row.hosts.includes('claude-code') ? [] : ['--host', row.hosts[0]!];
    const project = join(work, event);
    const files = loaded(HOOK_BIN[row.bin], host, payloadOf(row, project), event);
    const total = files.reduce((sum, file) => sum + file.bytes, 0);
    const budget = budgets[event]!;
    if (total > budget.bytes) throw new Error(overBudget(event, files, budget));
    // The probe saw the bundle itself: a call that compiled nothing would pass any budget.
    expect(files.some((file) => file.what.startsWith('compiled ') && file.bytes > 10_000)).toBe(true);
  });

  it.each(SEED_ROWS)('%s', (name, bin, input) => {
    const files = loaded(bin, [], input, name.replace(/\W+/g, '-'));
    const total = files.reduce((sum, file) => sum + file.bytes, 0);
    const budget = budgets[name]!;
    if (total > budget.bytes) throw new Error(overBudget(name, files, budget));
    expect(files.some((file) => file.what.startsWith('compiled ') && file.bytes > 10_000)).toBe(true);
  });
});
