// README.md is the user's door, a few screens (issue 24: at most 15 KB); the reference lives in docs/, and every
// link of the README to it must lead somewhere.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
