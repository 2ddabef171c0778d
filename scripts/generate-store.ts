// Fills a store folder with generated sessions (tests/support/generate-sessions.ts), for trying `show`, `pending`,
// `stats` and `report` on a store of realistic size: `npm run generate-store -- DIR [COUNT] [SEED]`.
// Run with ts-node (a dev dependency); refuses a folder that already holds anything.
import { readdirSync } from 'node:fs';
import { FileStore } from '../src/store/file-store';
import { generateSessions } from '../tests/support/generate-sessions';

async function main(): Promise<number> {
  const [dir, countText = '1000', seedText = '1'] = process.argv.slice(2);
  if (dir === undefined || !/^\d+$/.test(countText) || !/^\d+$/.test(seedText)) {
    process.stderr.write('usage: npm run generate-store -- DIR [COUNT] [SEED]\n');
    return 2;
  }
  let existing: string[] = [];
  try {
    existing = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing.length > 0) {
    process.stderr.write(`generate-store: ${dir} is not empty; give a new folder\n`);
    return 4;
  }
  const store = new FileStore(dir);
  try {
    const states = generateSessions({ count: Number(countText), now: new Date(), seed: Number(seedText) });
    for (const state of states) await store.create(state);
    process.stdout.write(`Generated ${states.length} sessions in ${dir}\n`);
  } finally {
    await store.close();
  }
  return 0;
}

void main().then((code) => {
  process.exitCode = code;
});
