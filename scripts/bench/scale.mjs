// `npm run bench -- --scale`: the CLI's listings at scale (issue 32 item 8). Times `list --limit 20`,
// `list --active-only`, `pending`, `stats` and `cleanup --dry-run` as whole processes (wall clock, the median of
// BENCH_RUNS, default 5) on a file store and on PostgreSQL of 1,000 and 100,000 sessions (BENCH_SCALE_SIZES), the
// PostgreSQL one holding sessions of 100 projects. Plain JS against dist/ (run `npm run build` first). PostgreSQL:
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), a schema of its own, dropped afterwards.
// The stores are made fast: four sessions through the CLI, then copies of their state files (or rows) under new ids.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'agent-session.cjs');
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = ['list --limit 20', 'list --active-only', 'pending', 'stats', 'cleanup --dry-run --hours 24'];
const PHASES = [['planning', 'approval'], ['investigating'], ['planning', 'approval'], []];

const work = mkdtempSync(join(tmpdir(), 'agent-session-scale-'));
const env = { ...process.env, AGENT_SESSION_LOG_DIR: join(work, 'logs') };
delete env.NODE_EXTRA_CA_CERTS;
delete env.AGENT_SESSION_DIR;
const cli = (cwd, args, extra = {}) =>
  execFileSync(process.execPath, [CLI, ...args], { cwd, env: { ...env, ...extra }, encoding: 'utf8' }).trim();

/** Four sessions made by the CLI in `cwd` (approval, investigating, executing, initializing). */
function templates(cwd, extra) {
  return PHASES.map((phases, index) => {
    const id = cli(cwd, ['create', '--agent', `agent-${index}`, '--purpose', 'scale'], extra);
    for (const phase of phases) cli(cwd, ['update', id, '--phase', phase], extra);
    if (index === 2) cli(cwd, ['approve', id], extra);
    return id;
  });
}

const hex = (n) => (n + 0x10000000).toString(16).slice(-8);

function fileStore(size) {
  const project = join(work, `files-${size}`);
  const root = join(project, '.claude', 'session');
  mkdirSync(root, { recursive: true });
  const states = templates(project, {}).map((id) => readFileSync(join(root, id, 'state.json'), 'utf8'));
  for (let n = 4; n < size; n++) {
    const id = `agent-20260101-000000-${hex(n)}`;
    mkdirSync(join(root, id), { mode: 0o700 });
    const state = JSON.parse(states[n % 4]);
    writeFileSync(join(root, id, 'state.json'), JSON.stringify({ ...state, agent_id: id }), { mode: 0o600 });
  }
  return { cwd: project, extra: {} };
}

function pgStore(size) {
  const schema = `bench_scale_${process.pid}_${size}`;
  const extra = { AGENT_SESSION_DATABASE_URL: URL, AGENT_SESSION_DATABASE_SCHEMA: schema, AGENT_SESSION_PROJECT: 'p0' };
  const cwd = join(work, `pg-${size}`);
  mkdirSync(cwd);
  cli(cwd, ['migrate'], extra);
  templates(cwd, extra);
  sql(`INSERT INTO ${schema}.sessions (id, agent_name, phase, error_count, created_at, last_activity, finalized_at, project, state)
    SELECT t.id || '-' || n, t.agent_name, t.phase, t.error_count, t.created_at, t.last_activity, t.finalized_at,
      'p' || (n % 100), jsonb_set(jsonb_set(t.state, '{agent_id}', to_jsonb(t.id || '-' || n)), '{project}', to_jsonb('p' || (n % 100)))
    FROM generate_series(1, ${Math.ceil(size / 4) - 1}) n, ${schema}.sessions t;
    ANALYZE ${schema}.sessions`);
  return { cwd, extra, drop: () => sql(`DROP SCHEMA ${schema} CASCADE`) };
}

function sql(text) {
  const driver = createRequire(import.meta.url).resolve('postgres');
  const script = `const sql = require(${JSON.stringify(driver)})(process.argv[1], { max: 1, onnotice: () => {} });
    sql.unsafe(process.argv[2]).simple().then(() => sql.end(), (e) => { console.error(e.message); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script, URL, text], { stdio: 'inherit' });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const results = [];
try {
  for (const [kind, make] of [
    ['files', fileStore],
    ['postgres', pgStore],
  ]) {
    for (const size of SIZES) {
      const store = make(size);
      try {
        for (const row of ROWS) {
          const args = row.split(' ');
          // One run first: the file store's summary cache is written by the first listing, as a user's first call.
          spawnSync(process.execPath, [CLI, ...args], { cwd: store.cwd, env: { ...env, ...store.extra } });
          const times = [];
          for (let run = 0; run < RUNS; run++) {
            const start = process.hrtime.bigint();
            const result = spawnSync(process.execPath, [CLI, ...args], {
              cwd: store.cwd,
              env: { ...env, ...store.extra },
            });
            times.push(Number(process.hrtime.bigint() - start) / 1e9);
            if (result.status !== 0) throw new Error(`${row}: exit ${result.status}: ${result.stderr}`);
          }
          results.push({ row, store: kind, sessions: size, median_s: Number(median(times).toFixed(3)) });
          process.stdout.write(
            `${kind.padEnd(9)} ${String(size).padStart(7)}  ${row.padEnd(30)} ${median(times).toFixed(3)} s\n`,
          );
        }
      } finally {
        store.drop?.();
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
