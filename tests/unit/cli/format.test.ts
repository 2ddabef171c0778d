import { outputWidth, renderFitted, wrapWords, type FitColumn } from '../../../src/cli/format';

const COLUMNS: readonly FitColumn[] = [
  { header: ['NAME'], priority: 0 },
  { header: ['LOW'], priority: 3 },
  { header: ['TWO', 'LINES'], priority: 1 },
  { header: ['MID'], priority: 2 },
];
const ROWS = [
  ['alpha', '1', '22', '333'],
  ['beta', '4444', '5', '6'],
];

describe('renderFitted', () => {
  it('shows every column when they fit, headers on two lines, no trailing spaces', () => {
    const { text, leftOut } = renderFitted(COLUMNS, ROWS, 80);
    expect(leftOut).toEqual([]);
    expect(text.split('\n')).toEqual([
      'NAME   LOW   TWO    MID',
      '             LINES',
      'alpha  1     22     333',
      'beta   4444  5      6',
    ]);
  });

  it('leaves out the highest priorities first, keeps the order of the rest, and names what it left out', () => {
    // NAME (5) + TWO LINES (5) + MID (3), two spaces apart: 17 columns; LOW (4 more and a gap) does not fit.
    const { text, leftOut } = renderFitted(COLUMNS, ROWS, 17);
    expect(leftOut).toEqual(['LOW']);
    expect(text.split('\n')[0]).toBe('NAME   TWO    MID');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(17);
    // A narrower width takes a smaller column of a later priority when it still fits.
    expect(renderFitted(COLUMNS, ROWS, 10).leftOut).toEqual(['LOW', 'TWO LINES']);
  });

  it('keeps priority 0 whatever the width, and counts display width and escaped control characters', () => {
    expect(renderFitted(COLUMNS, ROWS, 1).leftOut).toEqual(['LOW', 'TWO LINES', 'MID']);
    const wide = renderFitted(COLUMNS, [['名前\u001b', '1', '2', '3']], 20);
    // 名前 takes four columns and ESC is shown as six characters (\u001b): NAME is 10 wide, then TWO LINES (5).
    expect(wide.leftOut).toEqual(['LOW', 'MID']);
  });

  it('joins a slashed header without a space in the names it left out', () => {
    const columns: FitColumn[] = [
      { header: ['A'], priority: 0 },
      { header: ['DONE/', 'FAILED'], priority: 1 },
    ];
    expect(renderFitted(columns, [['a', '1/2']], 3).leftOut).toEqual(['DONE/FAILED']);
  });

  it('bolds every header line when coloured', () => {
    const { text } = renderFitted(COLUMNS, ROWS, 80, true);
    const [first, second] = text.split('\n');
    expect(first).toContain('\u001b[1mNAME');
    expect(second).toContain('\u001b[1mLINES');
  });
});

describe('outputWidth', () => {
  it.each([
    [{ columns: 90, env: { COLUMNS: '200' } }, 90],
    [{ columns: undefined, env: { COLUMNS: '100' } }, 100],
    [{ columns: undefined, env: { COLUMNS: '0' } }, 120],
    [{ columns: undefined, env: { COLUMNS: 'wide' } }, 120],
    [{ columns: undefined, env: {} }, 120],
  ])('%p → %p', (io, expected) => {
    expect(outputWidth(io)).toBe(expected);
  });
});

describe('wrapWords', () => {
  it('breaks between words, a longer word alone', () => {
    expect(wrapWords('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapWords('a verylongword b', 4)).toEqual(['a', 'verylongword', 'b']);
    expect(wrapWords('', 10)).toEqual([]);
  });
});
