// Bundles each bin into one minified CommonJS file: a bundle starts in ~60 ms where unbundled tsc output
// takes ~390 ms (measured when the build was chosen). Source maps stay off unless AGENT_SESSION_SOURCEMAP=1.
//
// Each bin is a small loader that reads its bundle from `<bin>.bundle` beside it and compiles it with `vm.Script` and
// a V8 code cache made here, after a representative run, so a hook starts without parsing and compiling the
// bundle again (Node 20 has no `module.enableCompileCache`). The cache is optional: when it is missing, or V8
// rejects it (another Node version or V8 flags), the loader compiles the source itself, with the same result.
// Set AGENT_SESSION_CODE_CACHE=0 to build without caches.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  bundleFileName,
  cacheFileName,
  loaderSource,
  makeCodeCache,
  WRAPPER_HEAD,
  WRAPPER_TAIL,
} from './code-cache.mjs';
import { writeParsers } from './parsers.mjs';
import { writePhaseTable } from './phase-table.mjs';

const entries = {
  'agent-session': 'tools/agent-session.ts',
  'pre-delegate': 'hooks/pre-delegate.ts',
  'subagent-stop': 'hooks/subagent-stop.ts',
};
// yargs' ESM shim finds its locale files from `import.meta.url`, which a CommonJS bundle does not have: it then
// falls back to the working folder and reads `<cwd>/../../../locales/<LANG>.json`, so a folder above wherever the
// CLI runs could rewrite (or break) its messages. Pointed inside dist/, where no locales folder exists, yargs reads
// no file and uses its built-in English texts. (`__filename`, the bin's own path: the shim declares a `__dirname` of
// its own.)
// The shim also imports `assert` for two internal checks, and reads `process.stdout.columns` when it loads, which
// makes process.stdout (on a pipe: `net` and the stream machinery). Together ~15 M instructions on every CLI call
// (callgrind), now that the CLI writes fd 1 directly (src/cli/process-io.ts): the checks become two plain functions,
// the read a getter (yargs asks only to lay out help without `.wrap()`, which the CLI always sets).
const SHIM_EDITS = [
  ['fileURLToPath(import.meta.url)', "__filename + '/../yargs/lib/platform-shims/esm.mjs'"],
  [
    "import { notStrictEqual, strictEqual } from 'assert'",
    "const notStrictEqual = (a, b, m) => { if (a === b) throw new Error(m ?? 'yargs: an internal check failed'); };\n" +
      "const strictEqual = (a, b, m) => { if (a !== b) throw new Error(m ?? 'yargs: an internal check failed'); };",
  ],
  [
    "stdColumns: typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null",
    "get stdColumns() { return typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null }",
  ],
  // Outside a node_modules folder (dist/ of a checkout) the shim would call process.cwd() as it loads, which throws in
  // a removed working folder before the CLI can say so: a getter, read only by yargs' package.json lookup (inside a
  // try), which the CLI never needs (it gives its version).
  ['mainFilename: mainFilename || process.cwd(),', 'get mainFilename() { return mainFilename || process.cwd() },'],
];
const yargsLocalesInDist = {
  name: 'yargs-locales-in-dist',
  setup(build) {
    build.onLoad({ filter: /yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of SHIM_EDITS) {
        if (!text.includes(from)) throw new Error(`Expected yargs' ESM shim to have ${from}; check the yargs update`);
        text = text.replace(from, to);
      }
      return { contents: text, loader: 'js' };
    });
  },
};
const sourcemap = process.env.AGENT_SESSION_SOURCEMAP === '1';

// src/core/state.ts imports zod's English locale by its CommonJS path (jest cannot load the ESM one), which
// requires zod's CommonJS core a second time: 16 KB more in every bundle, evaluated at start-up. Bundles take the
// ESM file, the same messages on the one zod core.
const zodLocaleOnce = {
  name: 'zod-locale-once',
  setup(build) {
    build.onResolve({ filter: /^zod\/v4\/locales\/en\.cjs$/ }, (args) =>
      build.resolve('zod/v4/locales/en.js', { kind: args.kind, resolveDir: args.resolveDir }),
    );
  },
};
const withCache = process.env.AGENT_SESSION_CODE_CACHE !== '0' && !sourcemap;
/** What every bundle here shares: one CommonJS file for Node 20, no license comments. */
const forNode = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  logLevel: 'warning',
};

// The PostgreSQL driver (postgres.js) is its own file, dist/postgres.cjs, required at run time from the bundle's
// folder: bundled inline it is never evaluated on the file store (src/service/assembly.ts requires the PostgreSQL
// store lazily), but it made every bin's source and V8 code cache larger (+39 KB cache, +4 M instructions per hook
// call on the file store: docs/performance.md). Only the driver is split out, not src/store/postgres/: that code
// throws the bundle's own SessionError, which a second copy of src/core/ would not be (`instanceof`). ts-node and
// jest run src/ and resolve `postgres` from node_modules as before.
const PG_DRIVER_FILE = './postgres.cjs';
const postgresDriverApart = {
  name: 'postgres-driver-apart',
  setup(build) {
    build.onResolve({ filter: /^postgres$/ }, () => ({ path: PG_DRIVER_FILE, external: true }));
  },
};

// The phase table the bins decide on, read from the XState machine (the source of the rules) before bundling.
await writePhaseTable();
// The parsers the bins use instead of zod, generated from the zod schemas (scripts/zod-codegen.ts).
await writeParsers();
mkdirSync('dist', { recursive: true });
// Caches are named by a hash of their source: old ones would never be read again.
for (const file of readdirSync('dist')) if (file.endsWith('.cache')) rmSync(join('dist', file));

await Promise.all(
  Object.entries(entries).map(async ([name, entry]) => {
    const outfile = `dist/${name}.cjs`;
    if (sourcemap) {
      // Source maps point into a plain bundle; the loader would shift every line.
      await build({
        entryPoints: [entry],
        outfile,
        ...forNode,
        minify: true,
        sourcemap,
        banner: { js: '#!/usr/bin/env node' },
        plugins: [zodLocaleOnce, yargsLocalesInDist, postgresDriverApart],
      });
      chmodSync(outfile, 0o755);
      return;
    }
    const result = await build({
      entryPoints: [entry],
      ...forNode,
      minify: true,
      // ASCII output keeps the embedded source a one-byte string for V8.
      charset: 'ascii',
      write: false,
      plugins: [zodLocaleOnce, yargsLocalesInDist, postgresDriverApart],
    });
    const source = `${WRAPPER_HEAD}${result.outputFiles[0].text}${WRAPPER_TAIL}`;
    // The loader reads the bundle as latin1, which is its text only while every byte is ASCII.
    if (Buffer.byteLength(source) !== source.length)
      throw new Error(`Expected the ${name} bundle to be ASCII (charset: 'ascii')`);
    writeFileSync(join('dist', bundleFileName(name)), source);
    writeFileSync(outfile, loaderSource(name, cacheFileName(name, source), { hook: name !== 'agent-session' }));
    chmodSync(outfile, 0o755);
  }),
);

// The driver, shared by the bins and the library (see postgresDriverApart). Minified like the bins.
await build({ entryPoints: ['postgres'], outfile: join('dist', PG_DRIVER_FILE), ...forNode, minify: true, sourcemap });
// The library: `require('agent-session')`. Not minified, so a user's stack traces stay readable.
await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.cjs',
  ...forNode,
  sourcemap,
  plugins: [zodLocaleOnce, postgresDriverApart],
});
// Its types: declarations only (esbuild emits none), into dist/types/ (package.json `types`).
rmSync('dist/types', { recursive: true, force: true });
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  { stdio: 'inherit' },
);
if (withCache) for (const name of Object.keys(entries)) makeCodeCache(name);
