// Builds the Claude Code plugin's code into plugin/dist/ (committed: `claude plugin install` copies the plugin folder
// as it is and runs no npm install). Plain bundles, one per bin, and the PostgreSQL driver beside them: no V8 code
// cache, which only the building machine's Node would accept. `--check` builds in memory and compares with what is
// committed, exit 1 naming each file that differs (tests/e2e/plugin.test.ts runs it: the plugin never drifts from
// the source). Run `npm run build:plugin` after changing the source, and commit plugin/dist/.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  entries,
  forNode,
  PG_DRIVER_FILE,
  postgresDriverApart,
  yargsLocalesInDist,
  zodLocaleOnce,
} from './bundles.mjs';

// `--out DIR`: another folder than plugin/dist (the drift test checks a planted difference is found).
const outAt = process.argv.indexOf('--out');
const OUT = outAt > 0 ? process.argv[outAt + 1] : 'plugin/dist';
const check = process.argv.includes('--check');

/** Each file of plugin/dist/ and its text. */
async function pluginFiles() {
  const files = {};
  await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      const result = await build({
        entryPoints: [entry],
        ...forNode,
        minify: true,
        charset: 'ascii',
        write: false,
        banner: { js: '#!/usr/bin/env node' },
        plugins: [zodLocaleOnce, yargsLocalesInDist, postgresDriverApart],
      });
      files[`${name}.cjs`] = result.outputFiles[0].text;
    }),
  );
  const driver = await build({ entryPoints: ['postgres'], ...forNode, minify: true, write: false });
  files[PG_DRIVER_FILE.replace('./', '')] = driver.outputFiles[0].text;
  return files;
}

const files = await pluginFiles();
if (check) {
  const stale = Object.entries(files).filter(([file, text]) => {
    try {
      return readFileSync(join(OUT, file), 'utf8') !== text;
    } catch (error) {
      if (error.code === 'ENOENT') return true;
      throw error;
    }
  });
  if (stale.length > 0) {
    process.stderr.write(
      `Expected ${OUT}/ to be built from the current source; differs: ${stale.map(([f]) => f).join(', ')} ` +
        '(run `npm run build:plugin` and commit plugin/dist/)\n',
    );
    process.exitCode = 1;
  }
} else {
  mkdirSync(OUT, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(join(OUT, file), text);
    if (file !== PG_DRIVER_FILE.replace('./', '')) chmodSync(join(OUT, file), 0o755);
  }
}
