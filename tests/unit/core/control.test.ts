import {
  escapeControl,
  escapeControlInLines,
  escapeJsonForTerminal,
  unsafeCharacters,
  UNSAFE,
} from '../../../src/core/control';
import { plainJson, quoted } from '../../../src/core/quote';

// The one rule of what no view shows as it is (issue 40 item 5): Unicode's controls, format characters and line and
// paragraph separators, each written as `\uXXXX` by every view.
const SPELLED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('the rule', () => {
  it('is exactly Unicode’s Cc, Cf, Zl and Zp, on every code point (of this Node’s Unicode tables)', () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (UNSAFE.test(char) !== SPELLED.test(char)) differ.push(code.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it.each([
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['a paragraph separator', 'a\u2029b', 'a\\u2029b'],
    ['a zero-width space', 'a\u200bb', 'a\\u200bb'],
    ['a zero-width joiner', 'a\u200db', 'a\\u200db'],
    ['a word joiner', 'a\u2060b', 'a\\u2060b'],
    ['a soft hyphen', 'a\u00adb', 'a\\u00adb'],
    ['the Arabic letter mark', 'a\u061cb', 'a\\u061cb'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['an isolate', 'a\u2066b\u2069', 'a\\u2066b\\u2069'],
    ['a byte order mark', 'a\ufeffb', 'a\\ufeffb'],
    ['a tag character (astral: two escapes, as JSON writes it)', 'a\u{e0041}b', 'a\\udb40\\udc41b'],
    ['a C1 CSI', 'a\u009b2Jb', 'a\\u009b2Jb'],
    ['a newline', 'a\nb', 'a\\u000ab'],
  ])('escapes %s in a terminal’s text', (_name, text, shown) => {
    expect(escapeControl(text)).toBe(shown);
  });

  it('keeps what is not hidden: letters of every script, emoji, a non-breaking space', () => {
    const text = 'データ ✅👍🏽 عربى\u00a0x';
    expect(escapeControl(text)).toBe(text);
    expect(unsafeCharacters(text)).toEqual([]);
  });

  it('in lines, keeps a line break and a tab, escapes the rest', () => {
    expect(escapeControlInLines('a\n\tb\u202e\r\u2028')).toBe('a\n\tb\\u202e\\u000d\\u2028');
  });

  it('in JSON, escapes inside strings and leaves the same value', () => {
    const value = { command: "true '\u202e\u2066' ; x\u200b \u00adsh\u2028", indent: [1] };
    const text = escapeJsonForTerminal(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(SPELLED_WITHOUT_NEWLINE);
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(plainJson(value))).toEqual(value);
    expect(plainJson(value)).not.toMatch(SPELLED);
  });

  it('names what it escaped, each once, in order', () => {
    expect(unsafeCharacters('\u202ea\u200b\u202e\n', 'lines')).toEqual(['U+202E', 'U+200B']);
    expect(unsafeCharacters('a\nb')).toEqual(['U+000A']);
    expect(unsafeCharacters('\u{e0041}')).toEqual(['U+E0041']);
  });

  it('is the rule of the texts given to a model too', () => {
    expect(quoted('a\u200b\u00ad\u061c\u2028')).toBe('"a\\u200b\\u00ad\\u061c\\u2028"');
    expect(quoted('a\nb')).toBe(JSON.stringify('a\nb'));
  });
});

const SPELLED_WITHOUT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
