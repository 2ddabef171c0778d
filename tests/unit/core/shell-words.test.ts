import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { plainWords } from '../../../src/core/shell-words';

describe('plainWords', () => {
  it.each([
    ['agent-session update a1 --phase approval', ['agent-session', 'update', 'a1', '--phase', 'approval']],
    ['x --metadata \'{"plan": "3 buckets; rm -rf /"}\'', ['x', '--metadata', '{"plan": "3 buckets; rm -rf /"}']],
    ['x "two words"', ['x', 'two words']],
    ["x --error='it'\\''s broken'", ['x', "--error=it's broken"]],
    ['x\t y  ', ['x', 'y']],
    ["'/with space/node' '/p/dist/agent-session.cjs'", ['/with space/node', '/p/dist/agent-session.cjs']],
    ['', []],
  ])('reads %j as its words', (command, words) => {
    expect(plainWords(command)).toEqual(words);
  });

  it.each([
    'x; rm -rf ~',
    'x && y',
    'x || y',
    'x | tee f',
    'x > f',
    'x < f',
    'x $(id)',
    'x `id`',
    'x "$(id)"',
    'x "`id`"',
    'x "$HOME"',
    'x $HOME',
    'x & y',
    'x\ny',
    "x 'a\nb'",
    'x *',
    'x ?',
    'x [ab]',
    'x ~/f',
    'x {a,b}',
    'x # comment',
    'x (y)',
    'x !!',
    '=node x',
    'x =y',
    "x 'unclosed",
    'x "unclosed',
    'x \\',
  ])('refuses %j', (command) => {
    expect(plainWords(command)).toBeNull();
  });

  // What the shells themselves read: a text we call plain must give them exactly our words (no expansion, no second
  // command). The folder is empty, so a glob that slipped through would still print itself: the words differ only
  // where quoting or splitting does.
  it.each(['sh', 'bash'])('reads every plain text as %s does', (shell) => {
    const empty = mkdtempSync(join(tmpdir(), 'agent-session-words-'));
    const chars = fc.oneof(
      { arbitrary: fc.constantFrom(...'ab -_=./:'.split('')), weight: 8 },
      { arbitrary: fc.constantFrom(...'\'"\\'.split('')), weight: 3 },
      { arbitrary: fc.constantFrom(...';&|$`*~#{}()<>!\t'.split('')), weight: 1 },
    );
    let plain = 0;
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 14 }), (parts) => {
        const command = `printf '%s\\0' ${parts.join('')}`;
        const words = plainWords(command);
        if (words === null) return;
        plain++;
        const run = spawnSync(shell, ['-c', command], { encoding: 'utf8', cwd: empty, env: { PATH: '/usr/bin:/bin' } });
        expect(run.status).toBe(0);
        const printed = run.stdout.split('\0').slice(0, -1);
        // printf with no argument prints its format once, with an empty %s.
        expect(['printf', '%s\\0', ...printed]).toEqual(words.length === 2 ? [...words, ''] : words);
      }),
      { numRuns: 300 },
    );
    rmSync(empty, { recursive: true });
    // The property compared real shell runs, not only refusals.
    expect(plain).toBeGreaterThan(60);
  });
});
