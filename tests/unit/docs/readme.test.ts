// README.md is the user's door, a few screens (issue 24: at most 15 KB); the reference lives in docs/, and every
// link of the README to it must lead somewhere.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_TABLE } from '../../../src/cli/command-table';

const ROOT = join(__dirname, '..', '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

it('is at most 15 KB (15,000 bytes)', () => {
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000);
});

it.each([...new Set([...readme.matchAll(/\]\(((?:docs\/)?[\w./-]+\.md)(?:#[\w-]+)?\)/g)].map((m) => m[1]!))])(
  'links to %s, which exists',
  (target) => {
    expect(existsSync(join(ROOT, target))).toBe(true);
  },
);

// The README's command table is the whole CLI (issue 44 item 4): one row per command of src/cli/command-table.ts.
describe('the command table', () => {
  const section = /^## Commands\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const rows = [...section.matchAll(/^\| `([a-z-]+)/gm)].map((m) => m[1]!);

  it.each(COMMAND_TABLE.map((entry) => entry.command.split(' ')[0]!))('has a row for `%s`', (name) => {
    expect(rows).toContain(name);
  });

  it('has no row for a command the CLI lacks, and one row each', () => {
    const names = COMMAND_TABLE.map((entry) => entry.command.split(' ')[0]!);
    expect([...rows].sort()).toEqual([...names].sort());
  });
});
