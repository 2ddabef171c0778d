import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { valueCandidates } from '../../../src/cli/completion';
import { FINAL_PHASES, PHASES } from '../../../src/core/phase-names';
import { tempDir } from '../../helpers';

const base = tempDir();
const root = join(base, 'store');
for (const id of ['a-1', 'a-2', 'b-1']) mkdirSync(join(root, id), { recursive: true });
mkdirSync(join(root, '.agents'));
mkdirSync(join(root, 'not an id'));
writeFileSync(join(root, 'loose'), 'x');
const io = { env: { AGENT_SESSION_DIR: root }, cwd: base };

describe('valueCandidates', () => {
  it.each([
    [
      ['get', ''],
      ['a-1', 'a-2', 'b-1'],
    ],
    [
      ['delete', 'a'],
      ['a-1', 'a-2'],
    ],
    [['should-resume', '--json', 'b'], ['b-1']],
    [
      ['--dir', root, 'export', ''],
      ['a-1', 'a-2', 'b-1'],
    ],
    [[`--dir=${join(base, 'elsewhere')}`, 'get', ''], []],
    [['update', 'a-1', '--phase', ''], [...PHASES]],
    [['update', 'a-1', '--phase', 'ex'], ['executing']],
    [['finalize', 'a-1', 'f'], ['failed']],
    [['finalize', 'a-1', ''], [...FINAL_PHASES]],
    [['completion', 'z'], ['zsh']],
    [['adopt', 'a-1', 'b'], ['b-1']],
    [['update', 'a-1', '--metadata', ''], []],
    [['create', '--agent', ''], []],
  ])('%p → %p', (words, expected) => {
    expect(valueCandidates(words, io)).toEqual(expected);
  });

  it.each([
    [['']],
    [['cre']],
    [['update', 'a-1', '--']],
    [['update', 'a-1', '']],
    [['list', '--agent', 'x', '']],
    [['finalize', 'a-1', 'completed', '']],
  ])('%p is left to the default completion', (words) => {
    expect(valueCandidates(words, io)).toBeUndefined();
  });

  it('offers nothing from a store root that is a file', () => {
    writeFileSync(join(base, 'file-root'), 'x');
    expect(valueCandidates(['get', ''], { env: { AGENT_SESSION_DIR: join(base, 'file-root') }, cwd: base })).toEqual(
      [],
    );
  });
});
