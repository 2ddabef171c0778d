// Fills a store folder with generated sessions (tests/support/generate-sessions.ts), for trying `show`, `pending`,
// `stats` and `report` on a store of realistic size: `npm run generate-store -- DIR [COUNT] [SEED]`. They belong to the
// project of the folder it is run from (the one `--dir DIR` commands run from there name).
// Run with ts-node (a dev dependency); refuses a folder that already holds anything.
import { readdirSync } from 'node:fs';
import { withProject } from '../src/core/project';
import { resolveCall } from '../src/app/call';
import { openSessions } from '../src/app/stores';
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
  // Opened as `--dir DIR` from here: the sessions belong to the project the commands run from here will name.
  const sessions = openSessions(resolveCall({ dir, env: process.env, cwd: process.cwd() }));
  try {
    const states = generateSessions({ count: Number(countText), now: new Date(), seed: Number(seedText) });
    for (const state of states) await sessions.store.create(withProject(state, sessions.project));
    process.stdout.write(`Generated ${states.length} sessions of the project ${sessions.project} in ${dir}\n`);
  } finally {
    await sessions.close();
  }
  return 0;
}

void main().then((code) => {
  process.exitCode = code;
});
