// Runs a built bin the way its loader does, once per representative call, in one process, then writes the V8 code
// cache of everything that ran (see code-cache.mjs): a call whose path was compiled into the cache deserializes it,
// one whose path was not compiles it from source (~4-6 M instructions more per hook call, callgrind).
// Usage: node scripts/make-code-cache.cjs dist/<name>.cjs <runs.json>, where runs.json is [{args, input, env?, relay?}]
// and each `input` names a file that becomes the run's stdin (fd 0, reopened before each run); `env` is added to the
// environment from that run on; `relay` ({socket, states}) has a stand-in relay answer there (scripts/cache-relay.cjs),
// and the cache is refused if such a run went to the database directly (it loaded `tls`) or never reached the relay.
'use strict';
const { closeSync, openSync, readFileSync, writeFileSync, renameSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const bin = process.argv[2];
const runs = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const text = readFileSync(bin, 'utf8');
const bundleFile = JSON.parse(/^const bundleFile = (".*");$/m.exec(text)[1]);
const cacheFile = JSON.parse(/^const cacheFile = (".*");$/m.exec(text)[1]);
const source = readFileSync(join(dirname(bin), bundleFile), 'latin1');
const script = new Script(source, { filename: bin });

let next = 0;
/** The stand-in relay, when a run needs one, and the runs that do. */
let relay = null;
const relayRuns = runs.filter((run) => run.relay !== undefined).length;
/** Starts the next run: its stdin on fd 0 (the lowest free descriptor once 0 is closed), its arguments, a fresh module. */
function start() {
  const { args, input, env } = runs[next++];
  Object.assign(process.env, env ?? {});
  closeSync(0);
  if (openSync(input, 'r') !== 0) throw new Error('Expected the run input to open as fd 0');
  process.argv = [process.argv[0], bin, ...args];
  const module_ = { exports: {}, filename: bin, id: bin };
  script.runInThisContext()(module_.exports, createRequire(bin), module_, bin, dirname(bin));
}
// A run is over when the event loop has nothing left to do; then the next one starts. Node emits 'beforeExit' again
// only when the listener left the loop something to do, and a hook call is synchronous from start to end (only
// promises, which do not keep the loop alive): without the immediate, the second run was the last one.
process.on('beforeExit', () => {
  if (next < runs.length) {
    start();
    setImmediate(() => {});
  }
});
process.on('exit', () => {
  if (next < runs.length) {
    process.stderr.write(`Expected ${runs.length} runs before writing the code cache, got ${next}\n`);
    process.exitCode = 1;
    return;
  }
  if (
    relayRuns > 0 &&
    (relay?.counted.connections !== relayRuns || process.moduleLoadList.includes('NativeModule tls'))
  ) {
    process.stderr.write(
      `Expected ${relayRuns} runs through the stand-in relay, got ${relay?.counted.connections ?? 0} ` +
        '(a run that found no relay connected to the database instead)\n',
    );
    process.exitCode = 1;
    return;
  }
  const out = join(dirname(bin), cacheFile);
  writeFileSync(`${out}.tmp`, script.createCachedData());
  renameSync(`${out}.tmp`, out);
});
const withRelay = runs.find((run) => run.relay !== undefined);
if (withRelay === undefined) start();
else {
  relay = require('./cache-relay.cjs').startCacheRelay(withRelay.relay.socket, withRelay.relay.states);
  relay.server.once('listening', start);
}
