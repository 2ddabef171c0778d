// Writes the Claude Code plugin's code into plugin/dist/ (committed: `claude plugin install` copies the plugin folder
// as it is and runs no npm install): the same bin files as dist/ (scripts/bundles.mjs binFiles: loaders, bundles, the
// code-cache maker, the PostgreSQL driver), nothing of the building machine's Node in them. `--check` builds in memory
// and compares with what is committed, exit 1 naming each file that differs (tests/e2e/plugin.test.ts runs it: the
// plugin never drifts from the source); `--out DIR` checks or writes another folder. Run `npm run build:plugin` after
// changing the source, and commit plugin/dist/.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binFiles } from './bundles.mjs';

const outAt = process.argv.indexOf('--out');
const OUT = outAt > 0 ? process.argv[outAt + 1] : 'plugin/dist';
const check = process.argv.includes('--check');

const files = await binFiles();
if (check) {
  const present = (() => {
    try {
      return readdirSync(OUT);
    } catch (error) {
      if (error.code === 'ENOENT') return [];
      throw error;
    }
  })();
  const differs = Object.entries(files)
    .filter(([file, { text }]) => !present.includes(file) || readFileSync(join(OUT, file), 'latin1') !== text)
    .map(([file]) => file);
  const extra = present.filter((file) => !(file in files));
  if (differs.length + extra.length > 0) {
    process.stderr.write(
      `Expected ${OUT}/ to be built from the current source; differs: ${[...differs, ...extra].join(', ')} ` +
        '(run `npm run build:plugin` and commit plugin/dist/)\n',
    );
    process.exitCode = 1;
  }
} else {
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (!(file in files)) rmSync(join(OUT, file));
  for (const [file, { text, mode }] of Object.entries(files)) {
    writeFileSync(join(OUT, file), text);
    chmodSync(join(OUT, file), mode);
  }
}
