// What the in-process benches of scripts/bench/ share (sdk-in-process.cjs, opencode-in-process.cjs): a fresh project
// on the file store, the environment of a user's host, the warm-up and timed cycles, and the one JSON object printed
// for scripts/bench.mjs (milliseconds: each hook's samples, and all of them pooled; per sample, the fsyncs it made and
// the milliseconds they took, and the process's CPU milliseconds).
const fs = require('node:fs');
const { mkdtempSync, mkdirSync, rmSync } = fs;

// Every fsync the library makes is counted and timed (issue 45 item 4: an event's own time is its time less the
// flushes its guarantee needs). Patched before the library loads: its bundle calls `fs.fsyncSync` through the module.
const flushes = { count: 0, ns: 0n };
for (const name of ['fsyncSync', 'fdatasyncSync']) {
  const original = fs[name];
  fs[name] = (...args) => {
    const start = process.hrtime.bigint();
    try {
      return original(...args);
    } finally {
      flushes.count += 1;
      flushes.ns += process.hrtime.bigint() - start;
    }
  };
}
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const RUNS = Number(process.argv[2] ?? 30);
const WARMUP = Number(process.argv[3] ?? 3);

/**
 * Runs `bench({ base, dir, env, timed, cycles })` in a project folder `dir` made under a temp `base` (removed after),
 * then prints the samples; a failure is printed on stderr with exit code 1. `timed(name, run, keep)` awaits `run`,
 * keeps its time under `name` when `keep`, and gives back its answer; `cycles(each)` awaits `each(cycle, keep)` for
 * the warm-up cycles (keep false) and the timed ones (`<runs> <warm-up>` of the command line, 30 and 3 by default).
 */
function inProcessBench(prefix, bench) {
  const main = async () => {
    const base = mkdtempSync(join(tmpdir(), prefix));
    const dir = join(base, 'project');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    // Without settings of this machine: AGENT_SESSION_* would pick another store.
    const env = { PATH: process.env.PATH, HOME: base };
    try {
      const samples = {};
      const fsyncs = {};
      const fsyncMs = {};
      const cpuMs = {};
      const timed = async (name, run, keep) => {
        const before = { ...flushes };
        const cpu = process.cpuUsage();
        const start = process.hrtime.bigint();
        const answer = await run();
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (keep) {
          // The process's own CPU time too: on a loaded machine the wall clock is mostly the wait for a core.
          const used = process.cpuUsage(cpu);
          (cpuMs[name] ??= []).push((used.user + used.system) / 1000);
          (samples[name] ??= []).push(ms);
          (fsyncs[name] ??= []).push(flushes.count - before.count);
          (fsyncMs[name] ??= []).push(Number(flushes.ns - before.ns) / 1e6);
        }
        return answer;
      };
      const cycles = async (each) => {
        for (let cycle = 0; cycle < WARMUP + RUNS; cycle++) await each(cycle, cycle >= WARMUP);
      };
      await bench({ base, dir, env, timed, cycles });
      const all = Object.values(samples).flat();
      process.stdout.write(`${JSON.stringify({ events: samples, all, fsyncs, fsync_ms: fsyncMs, cpu_ms: cpuMs })}\n`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
  main().catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}

module.exports = { inProcessBench };
