// Bundles each bin into one minified CommonJS file: a bundle starts in ~60 ms where unbundled tsc output
// takes ~390 ms (../shared/notes/libraries-and-style.md §B). Source maps stay off unless AGENT_SESSION_SOURCEMAP=1.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const entries = {
  'agent-session': 'tools/agent-session.ts',
  'pre-delegate': 'hooks/pre-delegate.ts',
  'subagent-stop': 'hooks/subagent-stop.ts',
};
const sourcemap = process.env.AGENT_SESSION_SOURCEMAP === '1';

await Promise.all(
  Object.entries(entries).map(async ([name, entry]) => {
    const outfile = `dist/${name}.cjs`;
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
      logLevel: 'warning',
    });
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
  logLevel: 'warning',
});
// Its types: declarations only (esbuild emits none), into dist/types/ (package.json `types`).
rmSync('dist/types', { recursive: true, force: true });
execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
