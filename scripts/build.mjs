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
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
import {
  entries,
  forNode,
  PG_DRIVER_FILE,
  postgresDriverApart,
  yargsLocalesInDist,
  zodLocaleOnce,
} from './bundles.mjs';
import { writeParsers } from './parsers.mjs';
import { writePhaseTable } from './phase-table.mjs';

const sourcemap = process.env.AGENT_SESSION_SOURCEMAP === '1';
const withCache = process.env.AGENT_SESSION_CODE_CACHE !== '0' && !sourcemap;

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
if (withCache) for (const name of Object.keys(entries)) await makeCodeCache(name);
