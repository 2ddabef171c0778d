// Fills a store folder with generated sessions (tests/support/generate-sessions.ts), for trying `show`, `pending`,
// `stats` and `report` on a store of realistic size: `npm run generate-store -- DIR [COUNT] [SEED]`.
// Run with ts-node (a dev dependency); refuses a folder that already holds sessions.
import { readdirSync } from 'node:fs';
import { FileStore } from '../src/store/file-store';
import { generateSessions } from '../tests/support/generate-sessions';

const [dir, countText = '1000', seedText = '1'] = process.argv.slice(2);
if (dir === undefined || !/^\d+$/.test(countText) || !/^\d+$/.test(seedText)) {
  process.stderr.write('usage: npm run generate-store -- DIR [COUNT] [SEED]\n');
  process.exitCode = 2;
} else {
  let existing: string[] = [];
  try {
    existing = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing.length > 0) {
    process.stderr.write(`generate-store: ${dir} is not empty; give a new folder\n`);
    process.exitCode = 4;
  } else {
    const store = new FileStore(dir);
    const states = generateSessions({ count: Number(countText), now: new Date(), seed: Number(seedText) });
    for (const state of states) store.create(state);
    process.stdout.write(`Generated ${states.length} sessions in ${dir}\n`);
  }
}
