// Issue 40 (1): the trust model is written down (docs/security.md) and the README leads to it: who can write each input
// (the user, a sandboxed agent, an agent with edit permission, the repository's history, another OS user, a teammate on
// a shared database) and what each may cause, with the tools that draw the same line. Every setting's rule for the
// workspace file (core/config.ts WORKSPACE_TRUST) is the one docs/configuration.md states.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_KEYS, WORKSPACE_TRUST } from '../../../src/core/config';

const ROOT = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

it('the README links to docs/security.md', () => {
  expect(read('README.md')).toContain('(docs/security.md)');
});

it('names every writer in the table of who can write each input, and what each input may cause', () => {
  const doc = read('docs/security.md');
  const header = doc.split('\n').find((line) => line.startsWith('| input | you |'));
  expect(header?.split('|').map((cell) => cell.trim())).toEqual([
    '',
    'input',
    'you',
    'sandboxed agent',
    'agent with edit permission',
    'repository history',
    'another OS user',
    'teammate on a shared DB',
    '',
  ]);
  expect(doc).toContain('| input | may cause | guarded by |');
  for (const anchor of ['direnv', 'mise', 'Workspace Trust', 'trust dialog', 'safe.directory', "Codex's sandbox"])
    expect(doc).toContain(anchor);
});

it('docs/configuration.md names every setting in its table of what needs trust', () => {
  const doc = read('docs/configuration.md');
  const start = doc.indexOf("| setting in the project's file | applies without your trust |");
  expect(start).toBeGreaterThan(0);
  const table = doc.slice(start, doc.indexOf('\n\n', start));
  for (const key of CONFIG_KEYS) expect({ key, listed: table.includes(`\`${key}\``) }).toEqual({ key, listed: true });
  // Those that never apply untrusted are in the `never` row.
  const never = table
    .split('\n')
    .filter((line) => / never \|$/.test(line))
    .join('\n');
  for (const key of CONFIG_KEYS.filter((k) => WORKSPACE_TRUST[k] === 'trusted')) expect(never).toContain(`\`${key}\``);
});
