// scripts/node-line-suites.mjs: the e2e files `npm run test:node-lines` runs again on Node 22 and 24 (ESM: run by node).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

function listed(): { groups: Record<string, string[]>; paths: string[] } {
  const script =
    "import('./scripts/node-line-suites.mjs').then((m) => process.stdout.write(JSON.stringify({ groups: m.E2E_ON_EVERY_LINE, paths: m.e2eOnEveryLine() })));";
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { groups: Record<string, string[]>; paths: string[] };
}

function e2eFiles(dir = join(ROOT, 'tests', 'e2e')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? e2eFiles(join(dir, entry.name))
      : entry.name.endsWith('.test.ts')
        ? [relative(ROOT, join(dir, entry.name))]
        : [],
  );
}

it('names e2e test files that exist, each once, in groups that say what differs by Node', () => {
  const { groups, paths } = listed();
  expect(Object.keys(groups).length).toBeGreaterThan(0);
  const all = e2eFiles();
  // Each one an e2e test file of the tree (a renamed or removed one is named here), none twice.
  expect(paths.filter((path) => !all.includes(path))).toEqual([]);
  expect(new Set(paths).size).toBe(paths.length);
  // A subset: the rest runs once, in `npm test`.
  expect(paths.length).toBeLessThan(all.length);
});
