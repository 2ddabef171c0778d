// agent-session's built library put through what a host adapter needs of it, step by step, in whatever runtime loads
// this file: Node (the host test itself) and Bun (opencode's plugin runtime, through tests/host/opencode-probe.js).
// Each step says whether it worked, the error code when it did not, and its wall clock; the test compares both
// runtimes' steps. Steps: load the library, open the file store, create / update / read a session (atomic writes,
// fsync, the session lock), the files left in its folder, a state.json that is a symlink (O_NOFOLLOW refuses it), a
// lock held by a live process (the lock's wait: E_BUSY after the timeout), and a lock of a dead owner (recovered).
const { readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

/**
 * @param {{ library: string, store: string, cwd: string, holderPid: number }} options where the library is (a path
 *   or a package name), an empty store folder, the project folder, and a live process other than this one
 * @returns {Promise<{ runtime: string, steps: { step: string, ok: boolean, code?: string, ms: number, detail?: unknown }[] }>}
 */
async function probeLibrary(options) {
  const steps = [];
  const step = async (name, work) => {
    const started = performance.now();
    try {
      const detail = await work();
      steps.push({ step: name, ok: true, ms: performance.now() - started, detail });
    } catch (error) {
      steps.push({
        step: name,
        ok: false,
        ms: performance.now() - started,
        code: error && error.code,
        detail: String(error && error.stack ? error.stack : error).slice(0, 800),
      });
    }
  };
  let lib;
  await step('load', () => {
    lib = require(options.library);
    return Object.keys(lib).length;
  });
  let sessions;
  await step('open', async () => {
    sessions = await lib.openStore({ dir: options.store, cwd: options.cwd });
    return sessions.project;
  });
  let id;
  await step('create', async () => {
    id = (await sessions.create({ agent_name: 'library-probe', purpose: 'runtime probe' })).agent_id;
    return id;
  });
  await step('update', async () => (await sessions.update(id, { phase: 'investigating', metadata: { n: 1 } })).phase);
  await step('read', async () => {
    const state = await sessions.get(id);
    return { phase: state.phase, metadata: state.metadata, history: state.history.length };
  });
  // Only state.json is left: no temp file of the atomic write, no lock.
  await step('files', () => readdirSync(join(options.store, id)).sort());

  // A state.json that is a symlink (to a copy of a good state) is refused, never followed.
  await step('symlinked state', async () => {
    const other = (await sessions.create({ agent_name: 'library-probe', purpose: 'symlinked' })).agent_id;
    const file = join(options.store, other, 'state.json');
    const copy = join(options.store, '..', `${other}.copy.json`);
    writeFileSync(copy, readFileSync(file));
    unlinkSync(file);
    symlinkSync(copy, file);
    return (await sessions.get(other)).phase;
  });

  // A lock whose owner runs (another process, its start time from /proc): the update waits, then gives up.
  const strict = new lib.Sessions({
    store: new lib.FileStore(options.store, { lock: { timeoutMs: 600, staleMs: 60_000 } }),
  });
  const lock = join(options.store, id, 'state.json.lock');
  const holder = options.holderPid;
  const start = readFileSync(`/proc/${holder}/stat`, 'utf8').split(') ')[1].split(' ')[19];
  writeFileSync(lock, `${holder} ${start} ${Date.now()} 0badc0de`);
  await step('live lock', async () => (await strict.update(id, { metadata: { n: 2 } })).metadata);
  // The same pid with another start time: its owner is gone (the pid was reused); the lock is taken over.
  writeFileSync(lock, `${holder} 1 ${Date.now()} 0badc0de`);
  await step('dead lock', async () => (await strict.update(id, { metadata: { n: 3 } })).metadata);
  await step('files after', () => readdirSync(join(options.store, id)).sort());
  await step('close', () => sessions.close());
  return { runtime: typeof Bun === 'undefined' ? `node ${process.version}` : `bun ${process.versions.bun}`, steps };
}

/** A probe of one cheap call, for the per-event cost: a session to read, made once per store. */
async function openProbe(library, store, cwd) {
  const lib = require(library);
  const sessions = await lib.openStore({ dir: store, cwd });
  const { agent_id: id } = await sessions.create({ agent_name: 'event-probe', purpose: 'per-event cost' });
  return {
    /** Reads the session; the call's wall clock in ms. */
    async read() {
      const started = performance.now();
      await sessions.get(id);
      return performance.now() - started;
    },
    /** Merges `metadata` into the session (a locked, atomic, fsynced write); its wall clock in ms. */
    async write(metadata) {
      const started = performance.now();
      await sessions.update(id, { metadata });
      return performance.now() - started;
    },
    close: () => sessions.close(),
  };
}

/** `count` reads and writes of the event probe back to back: each call's wall clock in ms. */
async function burst(probe, count) {
  const reads = [];
  const writes = [];
  for (let i = 0; i < count; i++) {
    reads.push(await probe.read());
    writes.push(await probe.write({ burst: i }));
  }
  return { reads, writes };
}

module.exports = { probeLibrary, openProbe, burst };

// `<runtime> library-probe.cjs <library> <store> <count>`: a burst in a process of its own (Bun: opencode's binary
// with BUN_BE_BUN=1), printed as JSON.
if (require.main === module) {
  const [library, store, count] = process.argv.slice(2);
  openProbe(library, store, process.cwd())
    .then(async (probe) => {
      const result = await burst(probe, Number(count));
      await probe.close();
      process.stdout.write(`${JSON.stringify(result)}\n`);
    })
    .catch((error) => {
      process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
      process.exitCode = 1;
    });
}
