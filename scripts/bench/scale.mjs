// `npm run bench -- --scale`: the CLI and the hooks on large stores (issues 32 item 8, 45). Times, as whole processes
// (wall clock and, with GNU time, CPU time: the medians of BENCH_RUNS, default 3), what a user runs on a big store: `list --limit 20`,
// `list --active-only --limit 20`, `pending` (and `--all-projects`), `stats` (and `--all-projects`), `show`,
// `should-resume`, `cleanup --dry-run` of a tenth of the store, and the `pre-delegate` hook by id and by name; with
// `--instructions`, the hooks' instruction counts too (valgrind), to hold them flat against the 1,000-session store.
// Stores: the file store (one project) of 1,000 and 100,000 sessions, PostgreSQL (100 projects) of 1,000 and 100,000,
// and with `--million` PostgreSQL of 1,000,000 (BENCH_SCALE_SIZES overrides the sizes: `1000,100000`).
// The stores are generated, not made by a million CLI calls: a few template sessions made by the CLI (approved and
// completed, failed, abandoned, investigating, waiting in approval), then copies under new ids written directly (the
// file store: state files; PostgreSQL: one INSERT … SELECT from generate_series, the facts table filled the same way):
// 1 % waiting in approval, 20 % investigating, 5 % failed, 4 % abandoned, the rest completed, last activity spread
// over 90 days, 10 agent names. PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), a
// schema per size (`bench_scale_<size>`), dropped afterwards unless BENCH_SCALE_KEEP=1, in which case a later run
// reuses it as it is (a million rows take minutes to make); the file stores' folder is then kept too.
// BENCH_SCALE_STORES=files or =postgres runs one kind of store. Every row runs whatever the one before printed or failed
// (its output goes to /dev/null; a failure is recorded in the row). `--json` prints the rows as JSON at the end.
// Plain JS against dist/ (run `npm run build` first).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const DIST = resolve(import.meta.dirname, '..', '..', 'dist');
const CLI = join(DIST, 'agent-session.cjs');
const PRE = join(DIST, 'pre-delegate.cjs');
const MILLION = process.argv.includes('--million');
const INSTRUCTIONS = process.argv.includes('--instructions');
const SIZES = (process.env.BENCH_SCALE_SIZES ?? `1000,100000${MILLION ? ',1000000' : ''}`).split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEEP = process.env.BENCH_SCALE_KEEP === '1';
/** Last activity is spread over this many days; cleanup's horizon leaves out the newest 90 % of it. */
const DAYS = 90;
const CLEANUP_HOURS = Math.round(DAYS * 24 * 0.9);
/** The file store holds one project's sessions; PostgreSQL those of 100. */
const PROJECTS = 100;
/** The templates, by how the CLI makes them, and their share (in 100ths) of the generated sessions. */
const TEMPLATES = [
  { key: 'approval', share: 1, steps: [['investigating'], ['planning'], ['approval']] },
  { key: 'investigating', share: 20, steps: [['investigating']] },
  { key: 'failed', share: 5, steps: [['investigating'], ['finalize', 'failed']] },
  { key: 'abandoned', share: 4, steps: [['finalize', 'abandoned']] },
  {
    key: 'completed',
    share: 70,
    steps: [['investigating'], ['planning'], ['approval'], ['approve'], ['finalize', 'completed']],
  },
];

/** Which stores (BENCH_SCALE_STORES: `files`, `postgres`, or both, the default). */
const STORES = (process.env.BENCH_SCALE_STORES ?? 'files,postgres').split(',');
const work = mkdtempSync(join(tmpdir(), 'agent-session-scale-'));
const env = { ...process.env, AGENT_SESSION_LOG_DIR: join(work, 'logs'), AGENT_SESSION_RELAY: 'off' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.AGENT_SESSION_DIR;
delete env.AGENT_SESSION_CONFIG;
const cli = (cwd, args, extra = {}) =>
  execFileSync(process.execPath, [CLI, ...args], { cwd, env: { ...env, ...extra }, encoding: 'utf8' }).trim();

/** The template sessions, made by the CLI in `cwd`: their ids by key. */
function templates(cwd, extra) {
  const ids = {};
  for (const template of TEMPLATES) {
    const id = cli(cwd, ['create', '--agent', 'agent-0', '--purpose', `scale ${template.key}`], extra);
    for (const [step, arg] of template.steps) {
      if (step === 'finalize') cli(cwd, ['finalize', id, arg, '--summary', 'done'], extra);
      else if (step === 'approve') cli(cwd, ['approve', id, '--note', 'ok'], { ...extra, CLAUDECODE: '' });
      else cli(cwd, ['update', id, '--phase', step], extra);
    }
    ids[template.key] = id;
  }
  return ids;
}

/** The template of the n-th generated session (TEMPLATES' shares, in 100ths). */
function templateOf(n) {
  let slot = n % 100;
  for (const template of TEMPLATES) {
    if (slot < template.share) return template.key;
    slot -= template.share;
  }
  return 'completed';
}

const idOf = (n) => `agent-20260101-000000-${(0x10000000 + n).toString(16).slice(-8)}`;

/** A random last activity within DAYS of `now`, and a creation up to two hours before it (ms since the epoch). */
function timesOf(now) {
  const active = now - Math.floor(Math.random() * DAYS * 86_400_000);
  return { active, created: active - Math.floor(Math.random() * 7_200_000) };
}

function fileStore(size) {
  const project = join(work, `files-${size}`);
  const root = join(project, '.claude', 'session');
  mkdirSync(root, { recursive: true });
  const made = templates(project, {});
  const states = Object.fromEntries(
    Object.entries(made).map(([key, id]) => [key, JSON.parse(readFileSync(join(root, id, 'state.json'), 'utf8'))]),
  );
  const now = Date.now();
  const start = Date.now();
  for (let n = 0; n < size - TEMPLATES.length; n++) {
    const id = idOf(n);
    const template = states[templateOf(n)];
    const { active, created } = timesOf(now);
    const state = {
      ...template,
      agent_id: id,
      agent_name: `agent-${n % 10}`,
      created_at: new Date(created).toISOString(),
      last_updated: new Date(active).toISOString(),
      ...(template.finalized_at === undefined ? {} : { finalized_at: new Date(active).toISOString() }),
    };
    mkdirSync(join(root, id), { mode: 0o700 });
    writeFileSync(join(root, id, 'state.json'), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  }
  note(`generated the file store of ${size} sessions in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return { cwd: project, extra: {}, target: made.approval, name: 'agent-0', projects: 1 };
}

function pgStore(size) {
  const schema = `bench_scale_${size}`;
  const extra = { AGENT_SESSION_DATABASE_URL: URL, AGENT_SESSION_DATABASE_SCHEMA: schema, AGENT_SESSION_PROJECT: 'p0' };
  const cwd = join(work, `pg-${size}`);
  mkdirSync(cwd);
  const [{ count } = { count: -1 }] = KEEP
    ? sql(`SELECT count(*)::integer AS count FROM "${schema}".sessions`, true)
    : [];
  if (count === size) {
    note(`reusing the schema ${schema} (${size} sessions)`);
    const [row] = sql(`SELECT id FROM "${schema}".sessions WHERE project = 'p0' AND phase = 'approval' LIMIT 1`);
    return { cwd, extra, target: row.id, name: 'agent-0', projects: PROJECTS, drop: () => undefined };
  }
  sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  cli(cwd, ['migrate'], extra);
  const made = templates(cwd, extra);
  const start = Date.now();
  const s = `"${schema}"`;
  const iso = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const slots = TEMPLATES.map((template, i) => {
    const from = TEMPLATES.slice(0, i).reduce((sum, one) => sum + one.share, 0);
    return `WHEN n % 100 < ${from + template.share} THEN '${made[template.key]}'`;
  }).join(' ');
  // One statement per step; the facts (session_facts, kept by a trigger for every other writer) are copied from the
  // templates' rather than computed a million times.
  sql(`
    CREATE TEMP TABLE gen AS
      SELECT 'agent-20260101-000000-' || lpad(to_hex(n), 8, '0') AS id, 'p' || (n % ${PROJECTS}) AS project,
        'agent-' || (n % 10) AS agent, CASE ${slots} END AS template, active,
        active - random() * interval '2 hours' AS created
      FROM (SELECT n, date_trunc('milliseconds', clock_timestamp() - random() * interval '${DAYS} days') AS active
        FROM generate_series(1, ${size - TEMPLATES.length}) n) g;
    UPDATE gen SET created = date_trunc('milliseconds', created);
    ALTER TABLE ${s}.sessions DISABLE TRIGGER session_facts_follow;
    INSERT INTO ${s}.sessions (id, agent_name, phase, error_count, created_at, last_activity, finalized_at, project, state)
      SELECT g.id, g.agent, t.phase, t.error_count, g.created, g.active,
        CASE WHEN t.finalized_at IS NULL THEN NULL ELSE g.active END, g.project,
        t.state || jsonb_build_object('agent_id', g.id, 'agent_name', g.agent, 'project', g.project,
          'created_at', ${iso('g.created')}, 'last_updated', ${iso('g.active')})
          || CASE WHEN t.finalized_at IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('finalized_at', ${iso('g.active')}) END
      FROM gen g JOIN ${s}.sessions t ON t.id = g.template;
    ALTER TABLE ${s}.sessions ENABLE TRIGGER session_facts_follow;
    INSERT INTO ${s}.session_facts
      SELECT g.id, g.project, g.agent, f.phase, g.created, g.active, f.error_count, f.duration_seconds, f.resumes,
        f.approvals, f.rejections, f.decision_waits, f.interruptions, f.carried_on, f.interrupted_now,
        f.permission_requests, f.permissions_granted, f.permissions_refused, f.permissions_spent, f.continued, f.primed
      FROM gen g JOIN ${s}.session_facts f ON f.id = g.template`);
  // As autovacuum leaves a table that has lived a while: statistics, and the visibility map index-only scans need.
  sql(`VACUUM ANALYZE ${s}.sessions`);
  sql(`VACUUM ANALYZE ${s}.session_facts`);
  note(`generated PostgreSQL's ${size} sessions in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return {
    cwd,
    extra,
    target: made.approval,
    name: 'agent-0',
    projects: PROJECTS,
    drop: () => (KEEP ? undefined : sql(`DROP SCHEMA "${schema}" CASCADE`)),
  };
}

/** Runs SQL on the bench database (statements separated by `;` as one simple query); the rows of the last one. */
function sql(text, quiet = false) {
  const driver = createRequire(import.meta.url).resolve('postgres');
  const script = `const sql = require(${JSON.stringify(driver)})(process.argv[1], { max: 1, onnotice: () => {} });
    sql.unsafe(process.argv[2]).simple().then((rows) => { process.stdout.write(JSON.stringify([...(Array.isArray(rows[0]) ? rows.at(-1) : rows)])); return sql.end(); },
      (e) => { ${quiet ? '' : 'console.error(e.message); '}process.exit(1); });`;
  try {
    return JSON.parse(
      execFileSync(process.execPath, ['-e', script, URL, text], { encoding: 'utf8', maxBuffer: 1 << 26 }) || '[]',
    );
  } catch (error) {
    if (quiet) return [];
    throw error;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function note(text) {
  process.stderr.write(`scale: ${text}\n`);
}

/** The rows measured on one store: a CLI command, or a hook given its stdin. */
function rowsOf(store) {
  const short = store.target.slice(-8);
  const cliRow = (row, args) => ({ row, args: [CLI, ...args] });
  return [
    cliRow('list --limit 20', ['list', '--limit', '20']),
    cliRow('list --active-only --limit 20', ['list', '--active-only', '--limit', '20']),
    cliRow('pending', ['pending']),
    ...(store.projects > 1 ? [cliRow('pending --all-projects', ['pending', '--all-projects'])] : []),
    cliRow('stats', ['stats']),
    ...(store.projects > 1 ? [cliRow('stats --all-projects', ['stats', '--all-projects'])] : []),
    cliRow('show', ['show', short]),
    cliRow('should-resume', ['should-resume', short]),
    cliRow(`cleanup --dry-run (a tenth stale)`, ['cleanup', '--dry-run', '--hours', String(CLEANUP_HOURS)]),
    {
      row: 'pre-delegate (seed, by id)',
      args: [PRE],
      input: JSON.stringify({ agent_name: store.name, agent_id: store.target }),
      hook: true,
    },
    { row: 'pre-delegate (seed, by name)', args: [PRE], input: JSON.stringify({ agent_name: 'agent-7' }), hook: true },
  ];
}

/** GNU time, when present: each run's CPU seconds (user + system) besides its wall time. */
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0;

/**
 * One run: its wall time and CPU time (s), or the failure. Output goes to /dev/null (a long listing cannot stop the
 * bench). On a loaded machine the wall clock is mostly the wait for a core; the CPU time is the command's own.
 */
function runOnce(store, row) {
  const start = process.hrtime.bigint();
  const timeFile = join(work, 'time.txt');
  const [command, args] = GNU_TIME
    ? ['/usr/bin/time', ['-o', timeFile, '-f', '%U %S', process.execPath, ...row.args]]
    : [process.execPath, row.args];
  const result = spawnSync(command, args, {
    cwd: store.cwd,
    env: { ...env, ...store.extra, ...(row.hook ? { CLAUDE_PROJECT_DIR: store.cwd } : {}) },
    input: row.input ?? '',
    stdio: ['pipe', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = GNU_TIME
    ? readFileSync(timeFile, 'utf8')
        .trim()
        .split('\n')
        .at(-1)
        .split(' ')
        .reduce((sum, part) => sum + Number(part), 0)
    : null;
  // should-resume answers `false …` with exit 1: an answer, not a failure.
  const failed = result.status !== 0 && !(row.row === 'should-resume' && result.status === 1);
  const stderr = String(result.stderr).replace(/^Command exited with non-zero status \d+\n?/m, '');
  return { seconds, cpu, error: failed ? `exit ${result.status ?? result.signal}: ${stderr.slice(0, 200)}` : null };
}

/** The row's instruction count in millions (callgrind), or null when valgrind is not there. */
function instructionsOf(store, row) {
  const out = join(work, 'callgrind.out');
  const result = spawnSync(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...row.args],
    {
      cwd: store.cwd,
      env: { ...env, ...store.extra, CLAUDE_PROJECT_DIR: store.cwd },
      input: row.input ?? '',
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  if (result.error !== undefined) return null;
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  return totals === null ? null : Number(totals[1]) / 1e6;
}

const results = [];
try {
  for (const [kind, make] of [
    ['files', fileStore],
    ['postgres', pgStore],
  ]) {
    if (!STORES.includes(kind)) continue;
    for (const size of SIZES) {
      // A million sessions are PostgreSQL's only (the file store is one project's folder).
      if (kind === 'files' && size > 100_000) continue;
      let store;
      try {
        store = make(size);
      } catch (error) {
        results.push({ store: kind, sessions: size, row: '(generating the store)', error: String(error.message) });
        note(`${kind} ${size}: the store could not be made: ${error.message}`);
        continue;
      }
      try {
        for (const row of rowsOf(store)) {
          // One run first: the file store's listing cache is written by the first listing, as a user's first call.
          runOnce(store, row);
          const times = [];
          const cpus = [];
          let error = null;
          for (let run = 0; run < RUNS && error === null; run++) {
            const once = runOnce(store, row);
            times.push(once.seconds);
            if (once.cpu !== null) cpus.push(once.cpu);
            error = once.error;
          }
          const instructions = INSTRUCTIONS && row.hook ? instructionsOf(store, row) : null;
          const entry = {
            store: kind,
            sessions: size,
            row: row.row,
            median_s: Number(median(times).toFixed(3)),
            ...(cpus.length === 0 ? {} : { cpu_s: Number(median(cpus).toFixed(2)) }),
            ...(instructions === null ? {} : { instructions_m: Number(instructions.toFixed(1)) }),
            ...(error === null ? {} : { error }),
          };
          results.push(entry);
          process.stdout.write(
            `${kind.padEnd(9)} ${String(size).padStart(8)}  ${row.row.padEnd(36)} ${entry.median_s.toFixed(3)} s` +
              `${entry.cpu_s === undefined ? '' : ` (cpu ${entry.cpu_s.toFixed(2)} s)`}` +
              `${instructions === null ? '' : `  ${entry.instructions_m} M instructions`}${error === null ? '' : `  FAILED ${error}`}\n`,
          );
        }
      } finally {
        store.drop?.();
      }
    }
  }
} finally {
  // BENCH_SCALE_KEEP=1 keeps the file stores too (their folder is named on stderr), to look into a slow row.
  if (KEEP) note(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
