// Issue 30 item 2: every cut of a text on a code-point boundary (cutText), and the repair of a text that already holds
// a lone surrogate (wellFormed, wellFormedDeep): PostgreSQL's jsonb refuses one.
import { cutText, excerpt, isWellFormed, wellFormed, wellFormedDeep } from '../../../src/core/text';

const SMILE = '\u{1F600}'; // two UTF-16 code units
const HIGH = '\uD83D';
const LOW = '\uDE00';

describe('cutText', () => {
  it.each([
    ['short text is kept', 'abc', 5, '…', 'abc'],
    ['exactly the limit is kept', 'abcde', 5, '…', 'abcde'],
    ['a long text ends with the mark', 'abcdef', 5, '…', 'abcd…'],
    ['a pair that straddles the cut is left out whole', `abc${SMILE}x`, 5, '…', 'abc…'],
    ['a pair that ends at the cut is kept', `ab${SMILE}xyz`, 5, '…', `ab${SMILE}…`],
    ['another mark', `${'a'.repeat(116)}${SMILE.repeat(5)}`, 120, '...', `${'a'.repeat(116)}...`],
    ['no mark', `${'a'.repeat(59)}${SMILE}`, 60, '', 'a'.repeat(59)],
  ])('%s', (_label, text, limit, mark, expected) => {
    const cut = cutText(text, limit, mark);
    expect(cut).toBe(expected);
    expect(cut.length).toBeLessThanOrEqual(limit);
    expect(isWellFormed(cut)).toBe(true);
  });

  it.each([997, 998, 999])('excerpt of %i letters then emojis never ends in half a pair', (letters) => {
    const cut = excerpt(`${'a'.repeat(letters)}${SMILE.repeat(3000)}`, 1000);
    expect(isWellFormed(cut)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('wellFormed', () => {
  it.each([
    ['a lone high surrogate', `a${HIGH}b`, 'a\uFFFDb'],
    ['a lone low surrogate', `a${LOW}b`, 'a\uFFFDb'],
    ['a high one at the end', `a${HIGH}`, 'a\uFFFD'],
    ['two highs then a low', `${HIGH}${HIGH}${LOW}`, `\uFFFD${SMILE}`],
    ['a pair is kept', `a${SMILE}b`, `a${SMILE}b`],
  ])('%s', (_label, text, expected) => {
    expect(isWellFormed(text)).toBe(text === expected);
    expect(wellFormed(text)).toBe(expected);
  });
});

describe('wellFormedDeep', () => {
  it('repairs strings and keys at any depth and keeps `__proto__` a plain key', () => {
    const value = JSON.parse(`{"a":["x","\\ud83d"],"b":{"\\ude00k":1,"__proto__":{"c":"\\ud83d"}},"n":2}`) as unknown;
    const fixed = wellFormedDeep(value) as Record<string, unknown>;
    expect(JSON.stringify(fixed)).toBe(
      JSON.stringify({
        a: ['x', '\uFFFD'],
        b: JSON.parse('{"\uFFFDk":1,"__proto__":{"c":"\uFFFD"}}') as unknown,
        n: 2,
      }),
    );
    expect(Object.getPrototypeOf(fixed.b)).toBe(Object.prototype);
    expect(Object.keys(fixed.b as object)).toContain('__proto__');
  });

  it('returns the value itself when nothing needs repair', () => {
    const value = { a: ['x', SMILE], b: { c: 1 } };
    expect(wellFormedDeep(value)).toBe(value);
  });
});
