import fc from 'fast-check';
import { join } from 'node:path';
import { joinPath } from '../../../src/platform/paths';

// Segments that exercise path.join's normaliser: empty, `.`, `..`, separators, hidden names, dots inside names.
const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '/', '//', '.claude', 'session', 'a.b', '..x', 'x..', '.agents', 'state.json'),
  fc.stringMatching(/^[a-z0-9._/-]{0,12}$/),
);
const folder = fc.oneof(
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
  fc.array(segment, { maxLength: 6 }).map((parts) => parts.join('/')),
  fc.constantFrom('/', '', '.', '..', '/tmp/p/.claude/session', '/tmp/p/.claude/session/'),
);

describe('joinPath', () => {
  it('returns what path.join returns, for any folder and names', () => {
    fc.assert(
      fc.property(folder, fc.array(segment, { maxLength: 4 }), (dir, names) => {
        expect(joinPath(dir, ...names)).toBe(join(dir, ...names));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['/', ['a'], '/a'],
    ['/tmp/p/.claude/session', ['agent-1', 'state.json'], '/tmp/p/.claude/session/agent-1/state.json'],
    ['/tmp/p/.claude/session', ['.agents', '6162.json'], '/tmp/p/.claude/session/.agents/6162.json'],
    ['/tmp/p/.claude/session', [], '/tmp/p/.claude/session'],
    ['/tmp/a/../b', ['c'], '/tmp/b/c'],
    ['/tmp/a/./b/', ['c'], '/tmp/a/b/c'],
    ['/tmp', ['..', 'x'], '/x'],
    ['relative/dir', ['x'], 'relative/dir/x'],
    ['', ['x'], 'x'],
  ])('joins %s with %j as path.join: %s', (dir, names, expected) => {
    expect(joinPath(dir, ...names)).toBe(expected);
    expect(join(dir, ...names)).toBe(expected);
  });
});
