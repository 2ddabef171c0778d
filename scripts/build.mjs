// Builds dist/: the bins (a loader and a bundle each, the code-cache maker, the PostgreSQL driver: scripts/bundles.mjs
// binFiles, the same files the plugin commits in plugin/dist/), the library (dist/index.cjs) and its types. A bundle
// starts in ~60 ms where unbundled tsc output takes ~390 ms (measured when the build was chosen).
//
// Each bin is a small loader that reads its bundle from `<bin>.bundle` beside it and compiles it with `vm.Script` and a
// V8 code cache that the user's own Node makes on first use (scripts/loader/): nothing here depends on the building
// machine's Node. AGENT_SESSION_SOURCEMAP=1 builds plain bundles with source maps instead (the loader would shift
// every line).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  binFiles,
  entries,
  libraryFile,
  forNode,
  PG_DRIVER_FILE,
  postgresDriverApart,
  yargsLocalesInDist,
  zodLocaleOnce,
} from './bundles.mjs';
import { writeParsers } from './parsers.mjs';
import { writePhaseTable } from './phase-table.mjs';

const sourcemap = process.env.AGENT_SESSION_SOURCEMAP === '1';

// The phase table the bins decide on, read from the XState machine (the source of the rules) before bundling.
await writePhaseTable();
// The parsers the bins use instead of zod, generated from the zod schemas (scripts/zod-codegen.ts).
await writeParsers();
mkdirSync('dist', { recursive: true });
// Code caches shipped by older builds: one made here served only this machine's Node.
for (const file of readdirSync('dist')) if (file.endsWith('.cache')) rmSync(join('dist', file));

if (sourcemap) {
  await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      const outfile = `dist/${name}.cjs`;
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
    }),
  );
  await build({
    entryPoints: ['postgres'],
    outfile: join('dist', PG_DRIVER_FILE),
    ...forNode,
    minify: true,
    sourcemap,
  });
} else {
  for (const [file, { text, mode }] of Object.entries(await binFiles())) {
    writeFileSync(join('dist', file), text);
    chmodSync(join('dist', file), mode);
  }
}
// The library: `require('agent-session')` (bundles.mjs libraryFile, the same file the plugin commits).
if (sourcemap) {
  await build({
    entryPoints: ['src/index.ts'],
    external: ['@anthropic-ai/claude-agent-sdk'],
    outfile: 'dist/index.cjs',
    ...forNode,
    sourcemap,
    plugins: [zodLocaleOnce, postgresDriverApart],
  });
} else writeFileSync('dist/index.cjs', await libraryFile());
// Its types: declarations only (esbuild emits none), into dist/types/ (package.json `types`).
rmSync('dist/types', { recursive: true, force: true });
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  { stdio: 'inherit' },
);
