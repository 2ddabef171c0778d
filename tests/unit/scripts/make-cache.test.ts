// scripts/loader/make-cache.cjs (shipped as dist/make-cache.cjs) runs a bin on each of its representative calls, one
// after another in one process, before it serializes what V8 compiled: a call it skipped would be compiled from source
// at every call of that path. A hook call is synchronous from start to end, which once left Node no reason to emit
// 'beforeExit' a second time, so only the first two of pre-delegate's three calls ran (Claude Code's SubagentStart was
// never in its cache).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS } from '../../../src/core/events';
import { tempDir } from '../../helpers';

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'loader', 'make-cache.cjs');
const root = tempDir();

/** A fake bin as the build lays one out: a loader and its bundle beside it. */
function fakeBin(name: string, body: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const bin = join(dir, 'hook.cjs');
  writeFileSync(bin, '');
  writeFileSync(join(dir, 'hook.bundle'), `(function (exports, require, module, __filename, __dirname) {${body}})`);
  return bin;
}

/** Runs make-cache.cjs on `bin` with one run per input (each becomes fd 0); what the runs recorded, the cache made. */
function makeCache(bin: string, inputs: readonly string[], planted: readonly string[] = []) {
  const dir = join(bin, '..');
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(inputs.map((input, i) => ({ args: [`--run=${i}`], input }))));
  const out = join(dir, 'out');
  writeFileSync(out, '');
  const cacheDir = join(dir, 'cache');
  mkdirSync(cacheDir, { mode: 0o700 });
  const cache = join(cacheDir, 'hook-0123456789abcdef-v0-x64-0.v8');
  for (const file of planted) writeFileSync(join(cacheDir, file), 'old', { mode: 0o600 });
  const marker = `${cache}.making`;
  writeFileSync(marker, '');
  const result = spawnSync(process.execPath, [SCRIPT, bin, cache, marker, join(dir, 'runs.json')], {
    env: { PATH: process.env.PATH, OUT: out },
    encoding: 'utf8',
  });
  return {
    status: result.status,
    stderr: result.stderr,
    recorded: readFileSync(out, 'utf8'),
    cacheBytes: existsSync(cache) ? statSync(cache).size : 0,
    cacheMode: existsSync(cache) ? statSync(cache).mode & 0o777 : 0,
    left: readdirSync(cacheDir).filter((f) => !f.endsWith('.v8')),
    caches: readdirSync(cacheDir)
      .filter((f) => f.endsWith('.v8'))
      .sort(),
  };
}

// Each run appends its stdin and its argument to $OUT, as a hook reads fd 0 and process.argv.
const RECORD =
  "const fs = require('node:fs'); const line = fs.readFileSync(0, 'utf8') + ' ' + process.argv[2] + '\\n';";

describe('make-cache', () => {
  it("removes older bundles' caches of this Node, of both kinds, and keeps the rest", () => {
    const bin = fakeBin('cleanup', `${RECORD}`);
    const made = makeCache(
      bin,
      ['a'],
      [
        'hook-00000000000000aa-v0-x64-0.v8', // an older bundle, this Node: removed
        'hook-00000000000000aa-v0-x64-0-database.v8', // the same, the database kind: removed
        'hook-0123456789abcdef-v0-x64-0-database.v8', // this bundle's other kind: kept
        'hook-00000000000000aa-v1-x64-0.v8', // another Node: kept
        'other-00000000000000aa-v0-x64-0.v8', // another bin: kept
      ],
    );
    expect(made.status).toBe(0);
    expect(made.caches).toEqual([
      'hook-00000000000000aa-v1-x64-0.v8',
      'hook-0123456789abcdef-v0-x64-0-database.v8',
      'hook-0123456789abcdef-v0-x64-0.v8',
      'other-00000000000000aa-v0-x64-0.v8',
    ]);
  });

  it('runs every call of a synchronous bin, in order, then writes the cache (0600), the marker removed', () => {
    const bin = fakeBin('sync', `${RECORD} fs.appendFileSync(process.env.OUT, line);`);
    const made = makeCache(bin, ['a', 'b', 'c', 'd']);
    expect(made).toMatchObject({ status: 0, recorded: 'a --run=0\nb --run=1\nc --run=2\nd --run=3\n' });
    expect(made.cacheBytes).toBeGreaterThan(0);
    expect(made.cacheMode).toBe(0o600);
    expect(made.left).toEqual([]);
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
    expect(made).toMatchObject({ status: 1, recorded: 'a --run=0\nb --run=1\n', cacheBytes: 0, left: [] });
    expect(made.stderr).toContain('Expected 3 runs');
  });
});

describe('the table of events in the maker', () => {
  /** makeCacheFile(rows) of scripts/bundles.mjs: `{ text }`, or `{ error }` with the message it threw. */
  function makeCacheFile(rows: unknown): { text?: string; error?: string } {
    const script =
      "import('./scripts/bundles.mjs').then((m) => { try { process.stdout.write(JSON.stringify({ text: m.makeCacheFile(JSON.parse(process.argv[1])) })); }" +
      ' catch (e) { process.stdout.write(JSON.stringify({ error: e.message })); } });';
    const result = spawnSync(process.execPath, ['-e', script, JSON.stringify(rows)], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { text?: string; error?: string };
  }

  it('has a representative run of every event of the table', () => {
    const { EVENT_SAMPLES } = require(SCRIPT) as { EVENT_SAMPLES: Record<string, (cli: string) => object[]> };
    const runs = EVENTS.map(({ event }) => [event, EVENT_SAMPLES[event]?.('agent-session --dir /s').length ?? 0]);
    expect(runs.filter(([, count]) => count === 0)).toEqual([]);
  });

  it('is shipped with the rows of the table written in', () => {
    const made = makeCacheFile(EVENTS);
    const line = /^const EVENTS = (.*);$/m.exec(made.text ?? '')?.[1];
    expect(JSON.parse(line ?? 'null')).toEqual(EVENTS.map(({ event, bin, hosts }) => ({ event, bin, hosts })));
    expect(readFileSync(join(ROOT, 'dist', 'make-cache.cjs'), 'utf8')).toBe(made.text);
  });

  it('fails the build on an event it has no run of, naming it', () => {
    const made = makeCacheFile([...EVENTS, { event: 'NewEvent', bin: 'pre-delegate', hosts: ['claude-code'] }]);
    expect(made.error).toContain('NewEvent');
    expect(made.text).toBeUndefined();
  });
});
