import { colourEnabled, paint, renderRows } from '../../../src/cli/color';

describe('colour', () => {
  it.each([
    [true, {}, true],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, {}, false],
    [undefined, {}, false],
    [false, { FORCE_COLOR: '1' }, false],
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
