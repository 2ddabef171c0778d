// scripts/make-code-cache.cjs runs a bin on each of its representative calls, one after another in one process, before
// it serializes what V8 compiled: a call it skipped would be compiled from source at every call of that path. A hook
// call is synchronous from start to end, which once left Node no reason to emit 'beforeExit' a second time, so only
// the first two of pre-delegate's three calls ran (Claude Code's SubagentStart was never in its cache).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'make-code-cache.cjs');
const root = tempDir();

/** A fake bin as build.mjs lays one out (a loader naming its bundle and cache, the bundle beside it). */
function fakeBin(name: string, body: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const bin = join(dir, 'hook.cjs');
  writeFileSync(bin, 'const bundleFile = "hook.bundle";\nconst cacheFile = "hook.cache";\n');
  writeFileSync(join(dir, 'hook.bundle'), `(function (exports, require, module, __filename, __dirname) {${body}})`);
  return bin;
}

/** Runs make-code-cache.cjs on `bin` with one run per input (each becomes fd 0); returns what the runs recorded. */
function makeCache(bin: string, inputs: readonly string[]) {
  const dir = join(bin, '..');
  const runs = inputs.map((text, i) => {
    const input = join(dir, `input-${i}`);
    writeFileSync(input, text);
    return { args: [`--run=${i}`], input };
  });
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(runs));
  const out = join(dir, 'out');
  writeFileSync(out, '');
  const result = spawnSync(process.execPath, [SCRIPT, bin, join(dir, 'runs.json')], {
    env: { PATH: process.env.PATH, OUT: out },
    encoding: 'utf8',
  });
  const cache = join(dir, 'hook.cache');
  return {
    status: result.status,
    stderr: result.stderr,
    recorded: readFileSync(out, 'utf8'),
    cacheBytes: existsSync(cache) ? statSync(cache).size : 0,
  };
}

// Each run appends its stdin and its argument to $OUT, as a hook reads fd 0 and process.argv.
const RECORD =
  "const fs = require('node:fs'); const line = fs.readFileSync(0, 'utf8') + ' ' + process.argv[2] + '\\n';";

describe('make-code-cache', () => {
  it('runs every call of a synchronous bin, in order, then writes the cache', () => {
    const bin = fakeBin('sync', `${RECORD} fs.appendFileSync(process.env.OUT, line);`);
    const made = makeCache(bin, ['a', 'b', 'c', 'd']);
    expect(made).toMatchObject({ status: 0, recorded: 'a --run=0\nb --run=1\nc --run=2\nd --run=3\n' });
    expect(made.cacheBytes).toBeGreaterThan(0);
  });

  it('lets a call that waits on the event loop finish before the next one starts', () => {
    const bin = fakeBin('async', `${RECORD} setTimeout(() => fs.appendFileSync(process.env.OUT, line), 5);`);
    const made = makeCache(bin, ['a', 'b', 'c']);
    expect(made).toMatchObject({ status: 0, recorded: 'a --run=0\nb --run=1\nc --run=2\n' });
  });

  it('fails, writing no cache, when a call ends the process before the others ran', () => {
    const bin = fakeBin(
      'exits',
      `${RECORD} fs.appendFileSync(process.env.OUT, line); if (line[0] === 'b') process.exit(0);`,
    );
    const made = makeCache(bin, ['a', 'b', 'c']);
    expect(made).toMatchObject({ status: 1, recorded: 'a --run=0\nb --run=1\n', cacheBytes: 0 });
    expect(made.stderr).toContain('Expected 3 runs');
  });
});
