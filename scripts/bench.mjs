// `npm run bench`: times each built bin as a whole process beside `node -e ''`, in one run, on stores of 10, 1,000
// and 10,000 sessions, and prints each target's verdict. Plain JS against dist/ (run `npm run build` first).
//
// Timer: hyperfine ≥ 1.16 (-N, --input, with warm-up) when `command -v hyperfine` finds it; else a built-in spawnSync loop that
// runs the commands of a group round-robin (so drift hits all of them alike) after warm-up runs.
// Peak RSS: `/usr/bin/time -f %M` when present; else a `--require` preload that prints the process's own
// `process.resourceUsage().maxRSS` at exit (Node cannot read a child's rusage), added to both sides alike.
// NODE_EXTRA_CA_CERTS is removed from the children's environment: on Node 20 it adds ~100 ms to every start
// (nodejs/node#40524) and would hide the code's own cost. Options: BENCH_RUNS (default 30), BENCH_WARMUP (3).
//
// Each hook row is read against two references run in the same group: `node -e ''` (Node's own start) and a
// hand-written hook doing the same I/O as `pre-delegate` by id approving a resume (scripts/bench/minimal-hook.cjs).
// The start-up group has a third: the file-system work `pre-delegate` by id does, call for call, by hand
// (scripts/bench/io-floor-hook.cjs): a hook row against it is the cost of our code, the rest of the gap is I/O.
// Each Node line (BENCH_NODE_LINES) runs that one too, and a fourth: the lean hook (scripts/bench/lean-hook.ts), that
// work plus the checks no hook may skip, with the bins' loader and code cache: the floor of any hook of ours.
// `npm run bench -- --instructions` counts instructions instead (valgrind --tool=callgrind, BENCH_RUNS default 1):
// slow, but repeatable on a loaded machine, where wall-clock medians are not. Its targets (docs/performance.md): every
// hook row on Node 22 and 24 within the lean hook + 0.10× the minimal hook, and, with `--baseline FILE` (the JSON of
// the same machine's run before a change), each row's growth: a hook row at most +1 M instructions, a CLI row +2 M
// (scripts/bench/verdicts.mjs, which also compares two runs written earlier).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
  readFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { nodeLines, nodeOf } from './node-binaries.mjs';
import { binOf } from './bundles.mjs';
import { growth, growthReport, LEAN_MARGIN, leanTarget, readRun, table } from './bench/verdicts.mjs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

// `--scale`: the CLI's listings on stores of 1,000 and 100,000 sessions, files and PostgreSQL (scripts/bench/scale.mjs).
if (process.argv.includes('--scale')) {
  await import('./bench/scale.mjs');
  process.exit(process.exitCode ?? 0);
}
const INSTRUCTIONS = process.argv.includes('--instructions');
/** `--baseline FILE`: an earlier instruction run of this machine, each row's growth held against it. */
const BASELINE = baselineRun();
/** The commit measured, read before anything runs (a commit made during a long run is not what it measured). */
const COMMIT = commitOf();
const RUNS = Number(process.env.BENCH_RUNS ?? (INSTRUCTIONS ? 1 : 30));
const WARMUP = Number(process.env.BENCH_WARMUP ?? (INSTRUCTIONS ? 0 : 3));
const SIZES = [10, 1000, 10000];
const AGENT = 'bench-agent';
/** Claude Code rows: a type with a parked session that a new agent resumes, and a linked agent that stops. */
const STARTER = 'bench-starter';
const START_AGENT = 'a00000000000000b1';
const STOPPER = 'bench-stopper';
const STOP_AGENT = 'a00000000000000c1';
const NODE = 'node -e ""';
const MINIMAL = 'minimal hook (by id)';
/** The second reference: pre-delegate's own file-system work by id, by hand (scripts/bench/io-floor-hook.cjs). */
const IO_FLOOR = 'I/O floor hook (by id)';
/**
 * The third, on each Node line: that work plus only the checks no hook may skip, from src/, with the bins' loader and
 * code cache (scripts/bench/lean-hook.ts, bundled by leanHook below): the floor of any hook of ours, however lean.
 */
const LEAN = 'lean hook (by id)';
/** The reference rows of a Node line, before its hook rows. */
const LINE_REFERENCES = [NODE, MINIMAL, IO_FLOOR, LEAN];
/** The start-up group's hook rows, held to the hook target of the Node that runs the bench (hookTarget below). */
const HOOK_ROWS = [
  'pre-delegate (seed, by id)',
  'pre-delegate (seed, by name)',
  'pre-delegate (Claude Code PreToolUse)',
  'pre-delegate (Claude Code SubagentStart)',
  'pre-delegate (Claude Code PermissionRequest)',
  'subagent-stop (seed, finalizes)',
  'subagent-stop (Claude Code SubagentStop)',
  'subagent-stop (Claude Code Stop)',
];
const STORE_SIZE_ROWS = Object.fromEntries(
  [
    `${NODE} (store size)`,
    `${MINIMAL} (store size)`,
    'pre-delegate by id, 10 sessions',
    'pre-delegate by id, 10,000 sessions',
    'pre-delegate by name, 10 sessions',
    'pre-delegate by name, 10,000 sessions',
    'pre-delegate (Claude Code SubagentStart of a new agent), 10 sessions',
    'pre-delegate (Claude Code SubagentStart of a new agent), 10,000 sessions',
  ].map((name) => [name, true]),
);
const dist = resolve('dist');
const bins = {
  cli: join(dist, 'agent-session.cjs'),
  pre: join(dist, 'pre-delegate.cjs'),
  stop: join(dist, 'subagent-stop.cjs'),
};
const minimalHook = resolve('scripts', 'bench', 'minimal-hook.cjs');
const ioFloorHook = resolve('scripts', 'bench', 'io-floor-hook.cjs');
for (const bin of Object.values(bins))
  if (!existsSync(bin)) throw new Error(`Expected a built bin at ${bin}; run \`npm run build\` first`);

// hyperfine feeds stdin from a file (`--input`) only since 1.16; older ones would need a shell on every run.
const hyperfine = !INSTRUCTIONS && commandExists('hyperfine') && hyperfineHasInput();
if (INSTRUCTIONS && !commandExists('valgrind')) throw new Error('Expected valgrind on PATH for --instructions');
const gnuTime = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'agent-session-bench-'));
const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;
baseEnv.AGENT_SESSION_LOG_DIR = join(work, 'logs');
mkdirSync(baseEnv.AGENT_SESSION_LOG_DIR);
// Each Node's code caches (scripts/loader/): made before the measured runs (warmCodeCaches), in the bench's own folder.
baseEnv.AGENT_SESSION_CACHE_DIR = join(work, 'code-cache');

// esbuild's plugins (the bins' options) need its asynchronous API: built before the synchronous rest.
const lean = await leanHook();
try {
  main();
} finally {
  rmSync(work, { recursive: true, force: true });
}

function main() {
  const now = Date.now();
  // Each store is a project's own (`<project>/.claude/session`, the project a git clone with a remote), as most are:
  // its files name no project, and every call names the project from the clone's git config.
  const stores = Object.fromEntries(
    SIZES.map((size) => [
      size,
      makeStore(join(gitProject(join(work, `project-${size}`)), '.claude', 'session'), size, now),
    ]),
  );
  const empty = ['-e', ''];
  const results = {};
  const time = (group, commands) => Object.assign(results, measure(group, commands));

  // 1. Hooks and CLI reads against the 10-session store, side by side with both references.
  const s10 = stores[10];
  const big = stores[10000];
  const hookEnv = (store) => ({ AGENT_SESSION_DIR: store.root });
  const claude = (event, fields) =>
    JSON.stringify({
      hook_event_name: event,
      session_id: 'bench-session',
      transcript_path: join(work, 't.jsonl'),
      cwd: work,
      ...fields,
    });
  const claudePre = claude('PreToolUse', {
    tool_name: 'Agent',
    tool_input: { subagent_type: AGENT, prompt: 'Plan the change', description: 'plan' },
  });
  // A new Claude agent of a type with a parked session: it is relinked to it (a resume). Restored before each run.
  const claudeStart = claude('SubagentStart', { agent_id: START_AGENT, agent_type: STARTER });
  // The stop of a Claude agent linked to a session in approval: it stays open (parked). Restored before each run.
  const claudeStop = claude('SubagentStop', {
    agent_id: STOP_AGENT,
    agent_type: STOPPER,
    stop_hook_active: false,
    last_assistant_message: 'Plan ready. Waiting for your approval.',
  });
  // A running sub-agent asks to run its own recording command: allowed (src/hooks/claude/permission.ts). It only
  // starts when Claude Code would prompt; a tool call that needs no permission costs nothing.
  const claudePermission = (store) =>
    claude('PermissionRequest', {
      agent_id: STOP_AGENT,
      agent_type: STOPPER,
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: {
        command: `${process.execPath} ${bins.cli} --dir ${store.root} update agent-bench-cstop --phase approval`,
        description: 'Record the session phase',
      },
    });
  // The main agent's turn ends: the decisions waiting were told on the first run (the log folder's markers), as on
  // every turn after the one that parked them.
  const claudeMainStop = claude('Stop', { stop_hook_active: false, last_assistant_message: 'Done.' });
  const byId = (store) => JSON.stringify({ agent_name: AGENT, agent_id: store.target });
  const byName = JSON.stringify({ agent_name: AGENT });
  warmCodeCaches(process.execPath, bins);
  const leanEnv = warmLean(process.execPath, 'code-cache-lean');
  time('start-up', [
    { name: NODE, args: empty },
    { name: MINIMAL, args: [minimalHook], input: byId(s10), env: hookEnv(s10) },
    { name: IO_FLOOR, args: [ioFloorHook], input: byId(s10), env: hookEnv(s10) },
    { name: LEAN, args: [lean], input: byId(s10), env: { ...hookEnv(s10), ...leanEnv } },
    { name: 'pre-delegate (seed, by id)', args: [bins.pre], input: byId(s10), env: hookEnv(s10) },
    { name: 'pre-delegate (seed, by name)', args: [bins.pre], input: byName, env: hookEnv(s10) },
    { name: 'pre-delegate (Claude Code PreToolUse)', args: [bins.pre], input: claudePre, env: hookEnv(s10) },
    {
      name: 'pre-delegate (Claude Code SubagentStart)',
      args: [bins.pre],
      input: claudeStart,
      env: hookEnv(s10),
      prepare: () => s10.restoreClaude(),
    },
    {
      name: 'pre-delegate (Claude Code PermissionRequest)',
      args: [bins.pre],
      input: claudePermission(s10),
      env: hookEnv(s10),
      prepare: () => s10.restoreClaude(),
    },
    {
      name: 'subagent-stop (seed, finalizes)',
      args: [bins.stop],
      input: JSON.stringify({ task_info: { agent_id: s10.stopId }, agent_output: 'done', exit_code: 0 }),
      env: hookEnv(s10),
      prepare: () => s10.restoreStop(),
    },
    {
      name: 'subagent-stop (Claude Code SubagentStop)',
      args: [bins.stop],
      input: claudeStop,
      env: hookEnv(s10),
      prepare: () => s10.restoreClaude(),
    },
    { name: 'subagent-stop (Claude Code Stop)', args: [bins.stop], input: claudeMainStop, env: hookEnv(s10) },
    {
      name: 'agent-session should-resume',
      args: [bins.cli, 'should-resume', s10.target, '--dir', s10.root],
      okStatus: [0, 1],
    },
    { name: 'agent-session get', args: [bins.cli, 'get', s10.target, '--dir', s10.root] },
    // Claude Code's status line runs it as often as a hook: its own path, without the CLI's parser.
    { name: 'agent-session statusline', args: [bins.cli, 'statusline', '--dir', s10.root] },
    { name: 'agent-session update', args: [bins.cli, 'update', s10.other, '--dir', s10.root] },
  ]);

  // 2. Store size: the same hook calls on 10 and 10,000 sessions, side by side.
  time('store size', [
    { name: `${NODE} (store size)`, args: empty },
    { name: `${MINIMAL} (store size)`, args: [minimalHook], input: byId(s10), env: hookEnv(s10) },
    { name: 'pre-delegate by id, 10 sessions', args: [bins.pre], input: byId(s10), env: hookEnv(s10) },
    { name: 'pre-delegate by id, 10,000 sessions', args: [bins.pre], input: byId(big), env: hookEnv(big) },
    { name: 'pre-delegate by name, 10 sessions', args: [bins.pre], input: byName, env: hookEnv(s10) },
    { name: 'pre-delegate by name, 10,000 sessions', args: [bins.pre], input: byName, env: hookEnv(big) },
    // A new Claude agent id: no pointer names it yet, so its lookup must not grow with the store (docs/performance.md).
    {
      name: 'pre-delegate (Claude Code SubagentStart of a new agent), 10 sessions',
      args: [bins.pre],
      input: claudeStart,
      env: hookEnv(s10),
      prepare: () => s10.restoreClaude(),
    },
    {
      name: 'pre-delegate (Claude Code SubagentStart of a new agent), 10,000 sessions',
      args: [bins.pre],
      input: claudeStart,
      env: hookEnv(big),
      prepare: () => big.restoreClaude(),
    },
  ]);

  // 3. Whole-store commands: fewer runs, they take longer (skipped when counting instructions: minutes each).
  const slowRuns = Math.max(5, Math.round(RUNS / 3));
  if (!INSTRUCTIONS)
    time('whole store', [
      {
        name: 'agent-session list --json, 1,000 sessions',
        args: [bins.cli, 'list', '--json', '--dir', stores[1000].root],
        runs: slowRuns,
      },
      {
        name: 'agent-session list --json, 10,000 sessions',
        args: [bins.cli, 'list', '--json', '--dir', big.root],
        runs: slowRuns,
      },
      {
        name: 'agent-session cleanup, 1,000 stale of 10,000',
        args: [bins.cli, 'cleanup', '--hours', '24', '--dir', big.root],
        runs: slowRuns,
        prepare: () => big.restoreStale(),
      },
    ]);

  // 3b. The same hooks and commands on the PostgreSQL store (loopback), when a database answers.
  const pg = postgresRows({ stores, time, claude, claudePre, claudeStop, slowRuns });

  // 4. Peak RSS.
  const rss = INSTRUCTIONS
    ? {}
    : {
        [NODE]: peakRss(empty),
        [MINIMAL]: peakRss([minimalHook], byId(s10), hookEnv(s10)),
        'pre-delegate (seed, by id)': peakRss([bins.pre], byId(s10), hookEnv(s10)),
        'subagent-stop (Claude Code SubagentStop)': peakRss([bins.stop], claudeStop, hookEnv(s10)),
      };

  const m = (name) => results[name].median;
  // Each row against the references of its own group.
  // 4. Node lines: each hook on Node 20, 22 and 24 (BENCH_NODE_LINES), each beside `node -e ''` and the minimal hook
  // on the same Node, run from plugin/dist: bins built once, whatever Node built them, as a plugin's are. Each Node
  // makes its own code caches first (the loader's background maker), as on a user's machine after the first call.
  const lines = INSTRUCTIONS && !process.env.BENCH_NODE_LINES ? [] : nodeLines('BENCH_NODE_LINES', '20,22,24');
  const lineRows = [];
  for (const line of lines) {
    const { node, version } = nodeOf(line);
    const plugin = {
      cli: resolve('plugin', 'dist', 'agent-session.cjs'),
      pre: resolve('plugin', 'dist', 'pre-delegate.cjs'),
      stop: resolve('plugin', 'dist', 'subagent-stop.cjs'),
    };
    const cacheEnv = { AGENT_SESSION_CACHE_DIR: join(work, `code-cache-${line}`) };
    warmCodeCaches(node, plugin, cacheEnv);
    const leanEnv = warmLean(node, `code-cache-${line}-lean`);
    const env = (store) => ({ ...hookEnv(store), ...cacheEnv });
    const label = (name) => `Node ${version}: ${name}`;
    const rows = [
      { name: label(NODE), args: empty },
      { name: label(MINIMAL), args: [minimalHook], input: byId(s10), env: env(s10) },
      { name: label(IO_FLOOR), args: [ioFloorHook], input: byId(s10), env: env(s10) },
      { name: label(LEAN), args: [lean], input: byId(s10), env: { ...hookEnv(s10), ...leanEnv } },
      { name: label('pre-delegate (seed, by id)'), args: [plugin.pre], input: byId(s10), env: env(s10) },
      { name: label('pre-delegate (seed, by name)'), args: [plugin.pre], input: byName, env: env(s10) },
      { name: label('pre-delegate (Claude Code PreToolUse)'), args: [plugin.pre], input: claudePre, env: env(s10) },
      {
        name: label('pre-delegate (Claude Code SubagentStart)'),
        args: [plugin.pre],
        input: claudeStart,
        env: env(s10),
        prepare: () => s10.restoreClaude(),
      },
      {
        name: label('subagent-stop (Claude Code SubagentStop)'),
        args: [plugin.stop],
        input: claudeStop,
        env: env(s10),
        prepare: () => s10.restoreClaude(),
      },
    ].map((row) => ({ ...row, node }));
    time(`Node ${line}`, rows);
    lineRows.push({ line, version, rows: rows.map((r) => r.name), label });
  }

  const refs = (name) => {
    const line = /^Node v[\d.]+: /.exec(name)?.[0];
    if (line !== undefined) return { floor: m(`${line}${NODE}`), minimal: m(`${line}${MINIMAL}`) };
    return name in STORE_SIZE_ROWS
      ? { floor: m(`${NODE} (store size)`), minimal: m(`${MINIMAL} (store size)`) }
      : { floor: m(NODE), minimal: m(MINIMAL) };
  };
  for (const [name, s] of Object.entries(results)) {
    if (name.startsWith('agent-session list') || name.startsWith('agent-session cleanup')) continue;
    s.vs_node = round(s.median / refs(name).floor);
    if (!name.startsWith('agent-session')) s.vs_minimal = round(s.median / refs(name).minimal);
    // The hooks of the start-up group against the I/O their guarantees need (the rest is loading and deciding).
    if (!(name in STORE_SIZE_ROWS) && (HOOK_ROWS.includes(name) || name === IO_FLOOR))
      s.vs_io_floor = round(s.median / m(IO_FLOOR));
  }
  // The Agent SDK's hooks in-process (issue 25): no process per event, so each event is timed inside one app
  // process (scripts/bench/sdk-in-process.cjs), on a 1-session file store; target ≤ 2 ms median per event.
  const inProcess = INSTRUCTIONS ? null : sdkInProcess();
  if (inProcess !== null)
    for (const event of Object.keys(inProcess.events))
      results[`in-process (Agent SDK) ${event}`] = inProcessStats(inProcess, event);
  // opencode's plugin in-process (issue 36), timed the same way (scripts/bench/opencode-in-process.cjs), beside it.
  const opencode = INSTRUCTIONS ? null : inProcessOf('opencode-in-process.cjs');
  if (opencode !== null)
    for (const hook of Object.keys(opencode.events))
      results[`in-process (opencode) ${hook}`] = inProcessStats(opencode, hook);
  const verdicts = [];
  if (inProcess !== null)
    // One verdict per event, as the target reads: a pooled median would hide the writing events (SubagentStart, the
    // recording tool, SubagentStop), whose time is the disk's fsync.
    for (const event of Object.keys(inProcess.events)) {
      // Less the fsyncs its guarantee needs (counted and timed by scripts/bench/in-process.cjs; issue 45 item 4).
      const median = inProcessStats(inProcess, event).own_median;
      verdicts.push({
        what: `in-process hook (Agent SDK) ${event}, less its fsyncs`,
        value: median,
        unit: 'ms',
        target: 2,
        against: 'one event, in the app',
        met: median <= 2,
      });
    }
  if (opencode !== null)
    for (const hook of Object.keys(opencode.events)) {
      const median = inProcessStats(opencode, hook).own_median;
      verdicts.push({
        what: `in-process hook (opencode) ${hook}, less its fsyncs`,
        value: median,
        unit: 'ms',
        target: 2,
        against: 'one hook call, in opencode',
        met: median <= 2,
      });
    }
  const ratio = (name, base, target, baseName) =>
    verdicts.push({
      what: name,
      value: m(name) / base,
      unit: '×',
      target,
      against: baseName,
      met: m(name) / base <= target,
    });
  // A hook row on Node 22 and later (what users run): ≤ the lean hook + 0.10×, both × the minimal hook of the same
  // Node (the lean hook is the floor of any hook of ours: docs/performance.md); on Node 20 (end of life): ≤ 1.35× its
  // `node -e ''`. The start-up group runs on the bench's own Node; each Node line on its own.
  const hookTarget = (name, major, label) => {
    if (major < 22) return ratio(name, m(label(NODE)), 1.35, `node -e "", Node ${major}`);
    const leanRatio = m(label(LEAN)) / m(label(MINIMAL));
    const against = `minimal hook, Node ${major}: lean hook ${leanRatio.toFixed(2)}× + ${LEAN_MARGIN.toFixed(2)}×`;
    ratio(name, m(label(MINIMAL)), leanTarget(m(label(LEAN)), m(label(MINIMAL))), against);
  };
  for (const name of HOOK_ROWS) hookTarget(name, Number(process.versions.node.split('.')[0]), (row) => row);
  for (const { line, rows, label } of lineRows)
    for (const name of rows.slice(LINE_REFERENCES.length)) hookTarget(name, Number(line), label);
  for (const name of ['agent-session should-resume', 'agent-session get', 'agent-session update'])
    ratio(name, m(NODE), 2, NODE);
  ratio('pre-delegate by id, 10,000 sessions', m('pre-delegate by id, 10 sessions'), 1.05, '10 sessions');
  ratio('pre-delegate by name, 10,000 sessions', m('pre-delegate by name, 10 sessions'), 1.05, '10 sessions');
  ratio(
    'pre-delegate (Claude Code SubagentStart of a new agent), 10,000 sessions',
    m('pre-delegate (Claude Code SubagentStart of a new agent), 10 sessions'),
    1.05,
    '10 sessions',
  );
  const floor = m(NODE);
  const wholeProcess = (name, limit) =>
    verdicts.push({
      what: name,
      value: m(name),
      unit: 'ms',
      target: limit,
      against: 'whole process',
      met: m(name) <= limit,
    });
  if (!INSTRUCTIONS) {
    wholeProcess('agent-session list --json, 10,000 sessions', 500);
    wholeProcess('agent-session cleanup, 1,000 stale of 10,000', 1000);
    for (const name of ['pre-delegate (seed, by id)', 'subagent-stop (Claude Code SubagentStop)']) {
      const value = rss[name] / rss[NODE];
      verdicts.push({ what: `peak RSS, ${name}`, value, unit: '×', target: 1.3, against: NODE, met: value <= 1.3 });
    }
  }

  if (pg !== null) {
    // Each against the `node -e ''` of its own group: through the relay ≤ 1.5×, directly ≤ 2.5× (issue 23).
    const pgFloor = m(pg.floor);
    for (const name of pg.hooks) {
      results[name].vs_node = round(m(name) / pgFloor);
      ratio(name, pgFloor, name.startsWith('PostgreSQL relay') ? 1.5 : 2.5, 'node -e ""');
    }
    for (const name of pg.commands) ratio(name, floor, 2.5, 'node -e ""');
    for (const [name, limit] of pg.whole) wholeProcess(name, limit);
  }

  const machine = {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    timer: INSTRUCTIONS ? 'valgrind --tool=callgrind (instructions)' : hyperfine ? 'hyperfine' : 'built-in',
    rss: gnuTime ? '/usr/bin/time -f %M' : 'process.resourceUsage().maxRSS (preload)',
  };
  printReport(machine, results, rss, verdicts);
  if (pg?.split) printSplit(pg.split);
  // Each row against the same machine's run before the change (`--baseline FILE`).
  const compared = BASELINE === null ? null : growth(BASELINE.run, { instructions: results, machine });
  const before = BASELINE === null ? '' : `${BASELINE.run.commit ?? BASELINE.run.date} (${BASELINE.file})`;
  if (compared !== null) console.log(`\n${growthReport(compared, before)}`);
  mkdirSync('bench-results', { recursive: true });
  const kind = INSTRUCTIONS ? 'instructions' : 'bench';
  const out = join('bench-results', `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const figures = INSTRUCTIONS ? { instructions: results } : { timings_ms: results, peak_rss_kb: rss };
  const run = {
    date: new Date().toISOString(),
    commit: COMMIT,
    machine,
    node_lines: Object.fromEntries(lineRows.map(({ line, version }) => [line, version])),
    runs: RUNS,
    warmup: WARMUP,
    ...figures,
    postgres_split_ms: pg?.split ?? null,
    verdicts,
    ...(compared === null
      ? {}
      : { baseline: { file: BASELINE.file, commit: BASELINE.run.commit ?? null, ...compared } }),
  };
  writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\nFigures written to ${out}`);
}

/** The in-process hook samples (ms per event), from a child node on the built library; BENCH_RUNS cycles. */
function sdkInProcess() {
  return inProcessOf('sdk-in-process.cjs');
}

/** The samples of one in-process host's script of scripts/bench/ (the Agent SDK's, opencode's). */
function inProcessOf(file) {
  const script = resolve('scripts', 'bench', file);
  const result = spawnSync(process.execPath, [script, String(RUNS), String(WARMUP)], {
    env: baseEnv,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`Expected ${script} to succeed, got ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

// --- PostgreSQL ---

/**
 * The PostgreSQL rows: the stores of 10 and 10,000 sessions copied into two fresh schemas of the bench database
 * (`AGENT_SESSION_BENCH_DATABASE_URL`, else `AGENT_SESSION_TEST_DATABASE_URL`, else postgres://127.0.0.1:5432/test)
 * with the built `agent-session copy`, the same hook and command rows as on files, and the in-process split of a
 * hook's time (driver load, connect + auth, one query). Without a database that answers: one line, no rows.
 */
function postgresRows({ stores, time, claude, claudePre, claudeStop, slowRuns }) {
  const url =
    process.env.AGENT_SESSION_BENCH_DATABASE_URL ??
    process.env.AGENT_SESSION_TEST_DATABASE_URL ??
    'postgres://127.0.0.1:5432/test';
  const probe = runSplit(url, 1);
  if (probe.error !== undefined) {
    console.log(`PostgreSQL rows skipped: ${maskUrl(url)} does not answer (${probe.error})`);
    return null;
  }
  const suffix = Math.random().toString(16).slice(2, 10);
  const schemas = { 10: `bench_${suffix}_10`, 10000: `bench_${suffix}_10000` };
  // The project of the store copied in (its folder's): the hooks and commands run for it.
  const envOf = (size) => ({
    AGENT_SESSION_DATABASE_URL: url,
    AGENT_SESSION_DATABASE_SCHEMA: schemas[size],
    CLAUDE_PROJECT_DIR: join(stores[size].root, '..', '..'),
  });
  const cli = (size, args) => {
    const result = spawnSync(process.execPath, [bins.cli, ...args], {
      env: { ...baseEnv, ...envOf(size) },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.status !== 0)
      throw new Error(`agent-session ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  /**
   * The hook rows on the 10-session schema with `env`: seed by id and by name (approving and recording a resume),
   * PreToolUse, SubagentStart of a new agent relinking a parked session (a fresh one per run), subagent-stop
   * finalizing (a fresh session per run) and SubagentStop keeping its session open.
   */
  const pgHooks = (prefix, env) => {
    let runs = 0;
    const start = {
      name: `${prefix}: pre-delegate (Claude Code SubagentStart)`,
      args: [bins.pre],
      env,
      prepare: () => {
        const type = `bench-start-${prefix.includes('relay') ? 'r' : 'd'}-${++runs}`;
        cli(10, ['create', '--agent', type, '--purpose', 'bench', '--id', `pg-${type}`]);
        cli(10, ['update', `pg-${type}`, '--phase', 'approval']);
        // A new Claude agent each run (17 characters, as Claude Code's), of its own row.
        const agent = `a${prefix.includes('relay') ? 'e' : 'd'}${String(runs).padStart(15, '0')}`;
        start.input = claude('SubagentStart', { agent_id: agent, agent_type: type });
      },
    };
    const stop = {
      name: `${prefix}: subagent-stop (seed, finalizes)`,
      args: [bins.stop],
      env,
      prepare: () => {
        const id = `pg-stop-${prefix.includes('relay') ? 'r' : 'd'}-${++runs}`;
        cli(10, ['create', '--agent', 'agent-stopper', '--purpose', 'bench', '--id', id]);
        cli(10, ['update', id, '--phase', 'executing']);
        stop.input = JSON.stringify({ task_info: { agent_id: id }, agent_output: 'done', exit_code: 0 });
      },
    };
    return [
      {
        name: `${prefix}: pre-delegate (seed, by id)`,
        args: [bins.pre],
        input: JSON.stringify({ agent_name: AGENT, agent_id: stores[10].target }),
        env,
      },
      {
        name: `${prefix}: pre-delegate (seed, by name)`,
        args: [bins.pre],
        input: JSON.stringify({ agent_name: AGENT }),
        env,
      },
      { name: `${prefix}: pre-delegate (Claude Code PreToolUse)`, args: [bins.pre], input: claudePre, env },
      start,
      stop,
      { name: `${prefix}: subagent-stop (Claude Code SubagentStop)`, args: [bins.stop], input: claudeStop, env },
    ];
  };
  /** `agent-session relay serve` for `env`, running once this returns (it answers `relay status`). */
  const startRelay = (env) => {
    const child = spawn(process.execPath, [bins.cli, 'relay', 'serve'], {
      env: { ...baseEnv, ...env, AGENT_SESSION_RELAY_IDLE_SECONDS: '3600' },
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i++) {
      const status = spawnSync(process.execPath, [bins.cli, 'relay', 'status', '--json'], {
        env: { ...baseEnv, ...env },
        encoding: 'utf8',
      });
      if (status.status === 0 && JSON.parse(status.stdout).running) return child;
      spawnSync('sleep', ['0.05']);
    }
    child.kill('SIGKILL');
    throw new Error('Expected the relay to start for the PostgreSQL rows');
  };
  try {
    for (const size of [10, 10000]) {
      cli(size, ['migrate']);
      cli(size, ['copy', '--from', stores[size].root, '--to', url]);
    }
    const s10 = stores[10];
    const big = stores[10000];
    // The hooks twice, side by side: connecting directly (AGENT_SESSION_RELAY=off), and through the relay that holds
    // the connection (src/store/relay/), started below before the timing, in a runtime folder of the bench's own.
    const relayFolder = join(work, 'xdg');
    mkdirSync(relayFolder, { mode: 0o700 });
    const direct = { ...envOf(10), AGENT_SESSION_RELAY: 'off' };
    const relayed = { ...envOf(10), XDG_RUNTIME_DIR: relayFolder };
    const hooks = [...pgHooks('PostgreSQL direct', direct), ...pgHooks('PostgreSQL relay', relayed)];
    const commands = [
      {
        name: 'PostgreSQL: agent-session should-resume',
        args: [bins.cli, 'should-resume', s10.target],
        env: envOf(10),
        okStatus: [0, 1],
      },
      { name: 'PostgreSQL: agent-session get', args: [bins.cli, 'get', s10.target], env: envOf(10) },
      { name: 'PostgreSQL: agent-session update', args: [bins.cli, 'update', s10.other], env: envOf(10) },
    ];
    const relay = startRelay(relayed);
    try {
      warmDatabaseCaches(relayed);
      time('PostgreSQL, start-up', [
        { name: 'node -e "" (PostgreSQL)', args: ['-e', ''] },
        ...hooks,
        ...(INSTRUCTIONS ? [] : commands),
      ]);
    } finally {
      relay.kill('SIGTERM');
    }
    if (INSTRUCTIONS)
      return {
        hooks: hooks.map((hook) => hook.name),
        commands: [],
        whole: [],
        split: null,
        floor: 'node -e "" (PostgreSQL)',
      };
    // The stale sessions cleanup removes are copied back before each run (not timed).
    // Another clone's own store (of the same remote: the same project), so the copy keeps their project.
    const staleDir = join(gitProject(join(work, 'stale-10000')), '.claude', 'session');
    big.restoreStale();
    copyStale(big, staleDir);
    time('PostgreSQL, whole store', [
      {
        name: 'PostgreSQL: agent-session list --json, 10,000 sessions',
        args: [bins.cli, 'list', '--json'],
        env: envOf(10000),
        runs: slowRuns,
      },
      {
        name: 'PostgreSQL: agent-session cleanup, 1,000 stale of 10,000',
        args: [bins.cli, 'cleanup', '--hours', '24'],
        env: envOf(10000),
        runs: slowRuns,
        prepare: () => {
          const probe = spawnSync(process.execPath, [bins.cli, 'get', big.staleIds[0]], {
            env: { ...baseEnv, ...envOf(10000) },
          });
          // Exit 3: the last run removed them.
          if (probe.status === 3) cli(10000, ['copy', '--from', staleDir, '--to', url]);
        },
      },
    ]);
    return {
      floor: 'node -e "" (PostgreSQL)',
      hooks: hooks.map((hook) => hook.name),
      commands: commands.map((command) => command.name),
      whole: [
        ['PostgreSQL: agent-session list --json, 10,000 sessions', 500],
        ['PostgreSQL: agent-session cleanup, 1,000 stale of 10,000', 1000],
      ],
      split: runSplit(url, RUNS),
    };
  } finally {
    for (const schema of Object.values(schemas)) dropSchema(url, schema);
  }
}

/** A folder holding copies of the big store's stale sessions only (what cleanup removes). */
function copyStale(store, dir) {
  for (const id of store.staleIds) {
    mkdirSync(join(dir, id), { recursive: true });
    copyFileSync(join(store.root, id, 'state.json'), join(dir, id, 'state.json'));
  }
}

/**
 * The in-process split of a PostgreSQL hook's time, in `runs` fresh processes: loading the driver, connecting and
 * authenticating (the first query's round trip included), and one more query. Medians in ms, or `error`.
 */
function runSplit(url, runs) {
  const script = `
    const { performance } = require('node:perf_hooks');
    const t0 = performance.now();
    const postgres = require(${JSON.stringify(createRequire(import.meta.url).resolve('postgres'))});
    const t1 = performance.now();
    const sql = postgres(process.argv[1], { max: 1, prepare: false, fetch_types: false, connect_timeout: 3, onnotice: () => {} });
    sql.unsafe('SELECT clock_timestamp()').then(async () => {
      const t2 = performance.now();
      await sql.unsafe('SELECT 1');
      const t3 = performance.now();
      await sql.end();
      process.stdout.write(JSON.stringify({ load: t1 - t0, connect: t2 - t1, query: t3 - t2 }));
    }, (error) => { process.stdout.write(JSON.stringify({ error: String(error.message) })); });`;
  const samples = { load: [], connect: [], query: [] };
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, ['-e', script, url], {
      env: baseEnv,
      encoding: 'utf8',
      timeout: 20_000,
    });
    let parsed;
    try {
      parsed = JSON.parse(result.stdout);
    } catch {
      return { error: result.stderr.trim() || `exit ${result.status}` };
    }
    if (parsed.error !== undefined) return { error: parsed.error };
    for (const key of Object.keys(samples)) samples[key].push(parsed[key]);
  }
  return Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, stats(values).median]));
}

function dropSchema(url, schema) {
  const script = `const sql = require(${JSON.stringify(createRequire(import.meta.url).resolve('postgres'))})(process.argv[1], { max: 1, onnotice: () => {} });
    sql.unsafe('DROP SCHEMA IF EXISTS "${schema}" CASCADE').then(() => sql.end(), (e) => { console.error(e.message); process.exit(1); });`;
  spawnSync(process.execPath, ['-e', script, url], { env: baseEnv, stdio: 'inherit' });
}

function maskUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '****';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

function printSplit(split) {
  console.log('');
  console.log(
    table(
      ['PostgreSQL, in process (median ms)', 'load postgres.js', 'connect + auth', 'one query'],
      [['fresh process, loopback', split.load.toFixed(1), split.connect.toFixed(1), split.query.toFixed(2)]],
    ),
  );
}

// --- stores ---

/** A store of `size` sessions over 20 agents; the bench agent has a fresh resumable session (`target`). */
/** Makes `dir` a git clone's folder (its `.git/config` as `git clone` writes it, origin on GitHub); returns it. */
function gitProject(dir) {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(
    join(dir, '.git', 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n' +
      '[remote "origin"]\n\turl = git@github.com:bench/project.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' +
      '[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
  );
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return dir;
}

function makeStore(root, size, now) {
  mkdirSync(root, { recursive: true });
  const iso = (ms) => new Date(ms).toISOString();
  // The newest session of each agent name, for its pointer (see below).
  const newest = new Map();
  const write = (id, agent, phase, lastMs, claude) => {
    mkdirSync(join(root, id), { recursive: true });
    if (!(newest.get(agent)?.lastMs >= lastMs)) newest.set(agent, { id, lastMs });
    const state = {
      schema_version: 1,
      agent_id: id,
      agent_name: agent,
      purpose: 'bench',
      created_at: iso(lastMs - 60_000),
      last_updated: iso(lastMs),
      phase,
      metadata: { task_id: id },
      resume_ready: ['investigating', 'planning', 'approval'].includes(phase),
      history:
        phase === 'initializing' ? [] : [{ from_phase: 'initializing', to_phase: phase, timestamp: iso(lastMs) }],
      error_count: 0,
      last_error: null,
      ...(claude === undefined ? {} : { claude }),
    };
    writeFileSync(join(root, id, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
    return join(root, id, 'state.json');
  };
  const phases = ['investigating', 'planning', 'approval', 'executing', 'completed'];
  // 10% of the big store is stale (48 h idle): what `cleanup --hours 24` removes.
  const staleIds = [];
  for (let i = 0; i < size - 3; i++) {
    const id = `agent-bench-${String(i).padStart(6, '0')}`;
    const stale = size >= 10000 && i % 10 === 0;
    if (stale) staleIds.push(id);
    write(
      id,
      i % 20 === 0 ? AGENT : `agent-${i % 20}`,
      phases[i % phases.length],
      stale ? now - 48 * 3_600_000 - i : now - 3_600_000 - i * 10,
    );
  }
  const target = 'agent-bench-target';
  write(target, AGENT, 'approval', now);
  const other = 'agent-bench-other';
  write(other, 'agent-other', 'planning', now);
  const stopId = 'agent-bench-stop';
  const stopFile = write(stopId, 'agent-stopper', 'executing', now);
  const stopTemplate = join(root, '..', `stop-template-${size}.json`);
  copyFileSync(stopFile, stopTemplate);
  const restoreStale = () => {
    for (const [k, id] of staleIds.entries()) write(id, `agent-${k % 20}`, 'executing', now - 48 * 3_600_000 - k);
  };
  // Claude Code: a parked session of STARTER (no agent runs it) and one of STOPPER linked to a running agent, with
  // the pointers the hooks keep; restoreClaude puts all of it back as it was before a SubagentStart or SubagentStop.
  const started = write('agent-bench-start', STARTER, 'approval', now);
  const stopped = write('agent-bench-cstop', STOPPER, 'approval', now, {
    agent_id: STOP_AGENT,
    session_id: 'bench-session',
    agent_type: STOPPER,
    linked_at: iso(now),
  });
  const hex = (text) => Buffer.from(text, 'utf8').toString('hex');
  mkdirSync(join(root, '.agents'), { recursive: true, mode: 0o700 });
  mkdirSync(join(root, '.claude-agents'), { recursive: true, mode: 0o700 });
  const pointer = (name, id, lastMs = now) =>
    `${JSON.stringify({ agent_name: name, agent_id: id, last_updated: iso(lastMs) })}\n`;
  // A store made by agent-session has a pointer for every agent name (each first create sets it) and both indexes'
  // markers (src/store/index-marker.ts: every session has its pointer): lookups never scan, and the lookup of a new
  // Claude agent reads no session.
  for (const [name, { id, lastMs }] of newest)
    writeFileSync(join(root, '.agents', `${hex(name)}.json`), pointer(name, id, lastMs), { mode: 0o600 });
  const marker = `${JSON.stringify({ complete: true, version: 1 })}\n`;
  for (const folder of ['.agents', '.claude-agents'])
    writeFileSync(join(root, folder, 'complete.json'), marker, { mode: 0o600 });
  const claudeFiles = [
    [started, readFileSync(started)],
    [stopped, readFileSync(stopped)],
    [join(root, '.agents', `${hex(STARTER)}.json`), pointer(STARTER, 'agent-bench-start')],
    [join(root, '.agents', `${hex(STOPPER)}.json`), pointer(STOPPER, 'agent-bench-cstop')],
    [join(root, '.claude-agents', hex(STOP_AGENT)), 'agent-bench-cstop'],
  ];
  const restoreClaude = () => {
    for (const [file, content] of claudeFiles) writeFileSync(file, content, { mode: 0o600 });
    rmSync(join(root, '.claude-agents', hex(START_AGENT)), { force: true });
  };
  restoreClaude();
  // The finalized session is put back as it was, with its agent's pointer: restored alone, the session would be older
  // than what the pointer records, no pointer would be set again, and every later run would scan the store for it.
  const stopPointer = join(root, '.agents', `${hex('agent-stopper')}.json`);
  const restoreStop = () => {
    copyFileSync(stopTemplate, stopFile);
    writeFileSync(stopPointer, pointer('agent-stopper', stopId), { mode: 0o600 });
  };
  restoreStop();
  return { root, target, other, stopId, restoreStop, restoreStale, restoreClaude, staleIds };
}

// --- timing ---

/**
 * Builds scripts/bench/lean-hook.ts as a bin is built (scripts/bundles.mjs binOf: the same options, loader and
 * code-cache maker) into the bench's folder, as `pre-delegate` (the maker runs pre-delegate's calls, by id among them).
 * @returns its loader's path
 */
async function leanHook() {
  const dir = join(work, 'lean');
  mkdirSync(dir);
  const bin = await binOf('pre-delegate', resolve('scripts', 'bench', 'lean-hook.ts'), { hook: true });
  for (const [file, text] of Object.entries(bin)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'make-cache.cjs'), readFileSync(resolve('scripts', 'loader', 'make-cache.cjs')));
  return join(dir, 'pre-delegate.cjs');
}

/**
 * Makes the lean hook's code cache for `node` as a bin's is made, by its loader's background maker after a first call,
 * in a folder of its own (`folder`, in the bench's): named pre-delegate, its maker would remove the real one's cache
 * as an older bundle's. @returns the environment that points the lean hook at that cache
 */
function warmLean(node, folder) {
  const env = { AGENT_SESSION_CACHE_DIR: join(work, folder) };
  spawnSync(node, [lean], { input: '{}', env: { ...baseEnv, ...env } });
  awaitCaches(env.AGENT_SESSION_CACHE_DIR, '.v8', 1, `the lean hook's code cache of ${node}`);
  return env;
}

/**
 * Runs each bin once with `node` and waits until its code cache is made (the loader starts the maker in the
 * background on a call that found none): measured runs then load it, as every call after a user's first does.
 */
function warmCodeCaches(node, binsOf, extraEnv = {}) {
  const env = { ...baseEnv, ...extraEnv, AGENT_SESSION_DIR: join(work, 'warm-store') };
  const dir = env.AGENT_SESSION_CACHE_DIR;
  for (const bin of [binsOf.cli, binsOf.pre, binsOf.stop]) {
    spawnSync(node, [bin, ...(bin === binsOf.cli ? ['--version'] : [])], { input: '{}', env, encoding: 'utf8' });
  }
  awaitCaches(dir, '.v8', 3, `the code caches of ${node}`);
}

/** Waits (at most 30 s) until `dir` holds `count` code caches named `…<suffix>` and no maker is still writing one. */
function awaitCaches(dir, suffix, count, what) {
  const files = () => (existsSync(dir) ? readdirSync(dir) : []);
  const made = () => files().filter((f) => f.endsWith(suffix)).length;
  for (let i = 0; i < 300 && (made() < count || files().some((f) => f.endsWith('.making'))); i++)
    spawnSync('sleep', ['0.1']);
  if (made() < count) throw new Error(`Expected ${what} in ${dir}; found ${made()} of ${count}`);
}

/**
 * The hooks' `-database` code caches (scripts/loader/), which their loader has made after a call that used a database:
 * one call of each hook bin with `env`, then the wait for the background makers, as on a user's machine.
 */
function warmDatabaseCaches(env) {
  const calls = [
    [bins.pre, { agent_name: 'warm-up' }],
    [bins.stop, { task_info: { agent_id: 'warm-up' }, exit_code: 0 }],
  ];
  for (const [bin, input] of calls)
    spawnSync(process.execPath, [bin], { input: JSON.stringify(input), env: { ...baseEnv, ...env } });
  awaitCaches(baseEnv.AGENT_SESSION_CACHE_DIR, '-database.v8', 2, "the hooks' database code caches");
}

function measure(group, commands) {
  const how = INSTRUCTIONS ? 'callgrind instruction counts' : hyperfine ? 'hyperfine' : 'built-in timer';
  process.stderr.write(`timing: ${group} (${how})\n`);
  return hyperfine ? measureHyperfine(commands) : measureBuiltIn(commands);
}

/** One run under callgrind: the process's instruction count (Ir), in millions, and its result. */
function countInstructions(command) {
  const out = join(work, 'callgrind.out');
  const result = spawnSync(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, command.node ?? process.execPath, ...command.args],
    {
      input: command.input ?? '',
      env: { ...baseEnv, ...command.env },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, 'utf8'));
  // Node's start-up runs a prime search of random length (detail::sprp: 3 to 10 M instructions here), the one part
  // of the count that changes from run to run; left out, counts repeat within ±0.5 M.
  const annotated = spawnSync('callgrind_annotate', ['--inclusive=no', out], { encoding: 'utf8' }).stdout ?? '';
  const sprp = /^\s*([\d,]+) .*detail::sprp/m.exec(annotated);
  rmSync(out, { force: true });
  return { result, value: (Number(totals[1]) - Number(sprp?.[1].replace(/,/g, '') ?? 0)) / 1e6 };
}

function measureBuiltIn(commands) {
  const samples = commands.map(() => []);
  const rounds = Math.max(...commands.map((c) => c.runs ?? RUNS)) + WARMUP;
  for (let round = 0; round < rounds; round++) {
    commands.forEach((command, k) => {
      if (round >= (command.runs ?? RUNS) + WARMUP) return;
      command.prepare?.();
      let result;
      let ms;
      if (INSTRUCTIONS) ({ result, value: ms } = countInstructions(command));
      else {
        const started = process.hrtime.bigint();
        result = spawnSync(command.node ?? process.execPath, command.args, {
          input: command.input ?? '',
          env: { ...baseEnv, ...command.env },
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
        });
        ms = Number(process.hrtime.bigint() - started) / 1e6;
      }
      if (!(command.okStatus ?? [0]).includes(result.status))
        throw new Error(`${command.name} exited ${result.status}: ${result.stderr}`);
      if (round >= WARMUP) samples[k].push(ms);
    });
  }
  return Object.fromEntries(commands.map((command, k) => [command.name, stats(samples[k])]));
}

function measureHyperfine(commands) {
  const out = {};
  for (const command of commands) {
    if (command.prepare) {
      // hyperfine's --prepare takes a shell command, not a closure: such commands use the built-in timer.
      Object.assign(out, measureBuiltIn([command]));
      continue;
    }
    const json = join(work, 'hyperfine.json');
    const inputFile = join(work, 'input.json');
    writeFileSync(inputFile, command.input ?? '');
    const args = [
      '-N',
      '--warmup',
      String(WARMUP),
      '--runs',
      String(command.runs ?? RUNS),
      '--input',
      inputFile,
      '--export-json',
      json,
      '--style',
      'none',
    ];
    if ((command.okStatus ?? [0]).some((code) => code !== 0)) args.push('--ignore-failure');
    execFileSync('hyperfine', [...args, shellQuote([command.node ?? process.execPath, ...command.args])], {
      env: { ...baseEnv, ...command.env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    out[command.name] = stats(JSON.parse(readFileSync(json, 'utf8')).results[0].times.map((seconds) => seconds * 1000));
  }
  return out;
}

/**
 * One in-process event's figures: its wall time, the fsyncs it made (median count, and their median milliseconds), its
 * time less them (`own_median`, what the ≤ 2 ms target reads) and its CPU time (a loaded machine's wall clock is
 * mostly the wait for a core).
 */
function inProcessStats(run, event) {
  const samples = run.events[event];
  const fsyncMs = run.fsync_ms?.[event] ?? samples.map(() => 0);
  return {
    ...stats(samples),
    fsyncs: stats(run.fsyncs?.[event] ?? [0]).median,
    fsync_ms: stats(fsyncMs).median,
    own_median: stats(samples.map((ms, i) => ms - fsyncMs[i])).median,
    ...(run.cpu_ms?.[event] === undefined ? {} : { cpu_ms: stats(run.cpu_ms[event]).median }),
  };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median: round(median), min: round(sorted[0]), max: round(sorted.at(-1)), runs: sorted.length };
}

// --- memory ---

function peakRss(args, input = '', env = {}) {
  const values = [];
  for (let i = 0; i < 7; i++) {
    if (gnuTime) {
      const result = spawnSync('/usr/bin/time', ['-f', 'peak_rss_kb=%M', process.execPath, ...args], {
        input,
        env: { ...baseEnv, ...env },
        encoding: 'utf8',
      });
      values.push(Number(/peak_rss_kb=(\d+)/.exec(result.stderr)[1]));
    } else {
      const preload = join(work, 'rss-preload.cjs');
      writeFileSync(
        preload,
        "process.on('exit', () => process.stderr.write('peak_rss_kb=' + process.resourceUsage().maxRSS + '\\n'));\n",
      );
      const result = spawnSync(process.execPath, ['--require', preload, ...args], {
        input,
        env: { ...baseEnv, ...env },
        encoding: 'utf8',
      });
      values.push(Number(/peak_rss_kb=(\d+)/.exec(result.stderr)[1]));
    }
  }
  return stats(values).median;
}

// --- output ---

function printReport(machine, results, rss, verdicts) {
  console.log(
    `\nagent-session bench: Node ${machine.node}, ${machine.platform}, ${machine.cpus} × ${machine.cpu}; timer ${machine.timer}, ${RUNS} runs after ${WARMUP} warm-up${INSTRUCTIONS ? '' : `; RSS via ${machine.rss}`}\n`,
  );
  const x = (value) => (value === undefined ? '' : `${value.toFixed(2)}×`);
  console.log(
    table(
      [
        'command',
        INSTRUCTIONS ? 'median M instr.' : 'median ms',
        'min',
        'max',
        'runs',
        '× node -e ""',
        '× minimal hook',
        '× I/O floor',
      ],
      Object.entries(results).map(([name, s]) => [
        name,
        s.median.toFixed(1),
        s.min.toFixed(1),
        s.max.toFixed(1),
        String(s.runs),
        x(s.vs_node),
        x(s.vs_minimal),
        x(s.vs_io_floor),
      ]),
    ),
  );
  if (Object.keys(rss).length > 0) {
    console.log('');
    console.log(
      table(
        ['peak RSS', 'KB'],
        Object.entries(rss).map(([name, kb]) => [name, String(kb)]),
      ),
    );
  }
  console.log('');
  console.log(
    table(
      ['target', 'measured', 'limit', 'against', 'verdict'],
      verdicts.map((v) => [
        v.what,
        v.unit === 'ms' ? `${v.value.toFixed(v.value < 10 ? 2 : 0)} ms` : `${v.value.toFixed(2)}×`,
        v.unit === 'ms' ? `≤ ${v.target} ms` : `≤ ${v.target.toFixed(2)}×`,
        v.against,
        v.met ? 'met' : 'NOT met',
      ]),
    ),
  );
}

/**
 * `--baseline FILE` read before anything is measured (a wrong file fails in a second, not after the run): `{ file,
 * run }`, or null without the option. Exits 2 with one line on stderr for a missing value, a run that is not an
 * instruction count, or a bench not counting instructions (the growth limits are in instructions).
 */
function baselineRun() {
  const at = process.argv.indexOf('--baseline');
  if (at === -1) return null;
  const file = process.argv[at + 1];
  const fail = (message) => {
    process.stderr.write(`${message}\n`);
    process.exit(2);
  };
  if (file === undefined || file.startsWith('--')) fail('Expected --baseline FILE, the JSON of an earlier run');
  if (!INSTRUCTIONS) fail('Expected --baseline with --instructions: the growth limits are in instructions');
  try {
    return { file, run: readRun(file) };
  } catch (error) {
    return fail(error.message);
  }
}

/** The commit measured, `+` when the tree has uncommitted changes; null outside a git checkout. */
function commitOf() {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' });
  if (head.status !== 0) return null;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout;
  return `${head.stdout.trim()}${dirty.trim() === '' ? '' : '+'}`;
}

function round(value) {
  return Math.round(value * 100) / 100;
}

function hyperfineHasInput() {
  const match = /(\d+)\.(\d+)/.exec(spawnSync('hyperfine', ['--version'], { encoding: 'utf8' }).stdout ?? '');
  return match !== null && (Number(match[1]) > 1 || Number(match[2]) >= 16);
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function shellQuote(argv) {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
