// Bundles each bin into one minified CommonJS file: a bundle starts in ~60 ms where unbundled tsc output
// takes ~390 ms (../shared/notes/libraries-and-style.md §B). Source maps stay off unless AGENT_SESSION_SOURCEMAP=1.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

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
