// docs/performance.md holds the current figures, the targets and how they are measured, not the history of every lead
// (issue 31: at most 12 KB; the history lives in git). The README's figures are the page's, and every file the page
// names exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

it('is at most 12 KB (12,000 bytes)', () => {
  expect(Buffer.byteLength(page)).toBeLessThanOrEqual(12_000);
});

/** The README's "Performance" section, up to the next heading of its level. */
const readmeSection = /^## Performance\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
const ranges = [...new Set([...readmeSection.matchAll(/\d+\.\d+–\d+\.\d+×/g)].map((m) => m[0]))];

it('the README has a Performance section with its figures', () => {
  expect(ranges.length).toBeGreaterThan(0);
});

it.each(ranges)("the README's %s stands on the page", (range) => {
  expect(page).toContain(range);
});

it.each([...new Set([...page.matchAll(/\b(?:src|scripts|tests)\/[\w./-]+\.(?:ts|cjs|mjs|json)\b/g)].map((m) => m[0]))])(
  'names %s, which exists',
  (file) => {
    expect(existsSync(join(ROOT, file))).toBe(true);
  },
);
