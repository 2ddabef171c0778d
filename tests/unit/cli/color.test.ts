import { colourEnabled, paint, renderRows } from '../../../src/cli/color';

describe('colour', () => {
  it.each([
    [true, {}, true],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, {}, false],
    [undefined, {}, false],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [false, { FORCE_COLOR: '2' }, true],
    [false, { FORCE_COLOR: '3' }, true],
    [false, { FORCE_COLOR: 'true' }, true],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [true, { FORCE_COLOR: 'maybe' }, true],
    [false, { FORCE_COLOR: 'maybe' }, false],
    [true, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    [true, { TERM: 'dumb' }, false],
    [true, { TERM: 'xterm-256color' }, true],
    [false, { FORCE_COLOR: '1', TERM: 'dumb' }, true],
  ])('isTTY=%p env=%p → %p', (isTTY, env, expected) => {
    expect(colourEnabled(isTTY, env)).toBe(expected);
  });

  it('paints only when enabled', () => {
    expect(paint('x', 'green', false)).toBe('x');
    expect(paint('x', 'green', true)).toBe('\u001b[32mx\u001b[39m');
    expect(paint('x', undefined, true)).toBe('x');
  });

  it('aligns columns by visible width, with or without colour', () => {
    const rows = [
      ['A', 'B'],
      [{ text: 'long', style: 'red' as const }, 'x'],
    ];
    expect(renderRows(rows, false)).toBe('A     B\nlong  x');
    // eslint-disable-next-line no-control-regex
    expect(renderRows(rows, true).replace(/\u001b\[\d+m/g, '')).toBe('A     B\nlong  x');
    expect(renderRows(rows, true)).toContain('\u001b[31mlong\u001b[39m');
  });
});

describe('hostile and wide cells (issue 10 item 10)', () => {
  it.each([
    ['an escape sequence', 'x\u001b[2Jy', 'x\\u001b[2Jy'],
    ['a newline', 'a\nb', 'a\\u000ab'],
    ['a NUL', 'a\u0000b', 'a\\u0000b'],
    ['a C1 CSI', 'a\u009b2Jb', 'a\\u009b2Jb'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
  ])('escapes %s', (_label, name, shown) => {
    const table = renderRows(
      [
        ['NAME', 'N'],
        [name, '1'],
      ],
      false,
    );
    expect(table.split('\n')[1]).toBe(`${shown}  1`);
    // eslint-disable-next-line no-control-regex
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it.each([
    ['CJK', 'データ'],
    ['emoji', '✅👍🏽🚀'],
  ])('pads %s by display width (two columns a character)', (_label, wide) => {
    const table = renderRows(
      [
        ['NAME', 'N'],
        [wide, '1'],
        ['abcdef', '2'],
      ],
      false,
    );
    const [, wideRow, plainRow] = table.split('\n');
    // Six columns on screen: the next column starts after the same two spaces in both rows.
    expect(wideRow).toBe(`${wide}  1`);
    expect(plainRow).toBe('abcdef  2');
  });
});
