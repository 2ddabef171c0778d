// Bundles each bin into one minified CommonJS file: a bundle starts in ~60 ms where unbundled tsc output
// takes ~390 ms (measured when the build was chosen). Source maps stay off unless AGENT_SESSION_SOURCEMAP=1.
//
// Each bin is a small loader with the bundle inside as a string: it compiles the bundle with `vm.Script` and a
// V8 code cache made here, after a representative run, so a hook starts without parsing and compiling the
// bundle again (Node 20 has no `module.enableCompileCache`). The cache is optional: when it is missing, or V8
// rejects it (another Node version or V8 flags), the loader compiles the source itself, with the same result.
// Set AGENT_SESSION_CODE_CACHE=0 to build without caches.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loaderSource, cacheFileName, makeCodeCache, WRAPPER_HEAD, WRAPPER_TAIL } from './code-cache.mjs';
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
const yargsLocalesInDist = {
  name: 'yargs-locales-in-dist',
  setup(build) {
    build.onLoad({ filter: /yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = 'fileURLToPath(import.meta.url)';
      if (!text.includes(from)) throw new Error(`Expected yargs' ESM shim to read ${from}; check the yargs update`);
      return { contents: text.replace(from, "__filename + '/../yargs/lib/platform-shims/esm.mjs'"), loader: 'js' };
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

// The phase table the bins decide on, read from the XState machine (the source of the rules) before bundling.
await writePhaseTable();
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
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        minify: true,
        sourcemap,
        legalComments: 'none',
        banner: { js: '#!/usr/bin/env node' },
        plugins: [zodLocaleOnce, yargsLocalesInDist],
        logLevel: 'warning',
      });
      chmodSync(outfile, 0o755);
      return;
    }
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      legalComments: 'none',
      // ASCII output keeps the embedded source a one-byte string for V8.
      charset: 'ascii',
      write: false,
      plugins: [zodLocaleOnce, yargsLocalesInDist],
      logLevel: 'warning',
    });
    const source = `${WRAPPER_HEAD}${result.outputFiles[0].text}${WRAPPER_TAIL}`;
    writeFileSync(outfile, loaderSource(source, cacheFileName(name, source)));
    chmodSync(outfile, 0o755);
  }),
);

// The library: `require('agent-session')`. Not minified, so a user's stack traces stay readable.
await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap,
  legalComments: 'none',
  plugins: [zodLocaleOnce],
  logLevel: 'warning',
});
// Its types: declarations only (esbuild emits none), into dist/types/ (package.json `types`).
rmSync('dist/types', { recursive: true, force: true });
execFileSync(
  process.execPath,
  [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  { stdio: 'inherit' },
);
if (withCache) for (const name of Object.keys(entries)) makeCodeCache(name);
