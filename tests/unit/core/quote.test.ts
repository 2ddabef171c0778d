import { plainJson, quoted } from '../../../src/core/quote';

describe('quoted', () => {
  it('is a JSON string literal: quotes, backslashes and line breaks escaped, the same text when parsed', () => {
    const text = 'a "b" \\ c\nd\r\u0000e';
    expect(quoted(text)).toBe(JSON.stringify(text));
    expect(JSON.parse(quoted(text))).toBe(text);
  });

  it('escapes what JSON leaves raw but a reader may act on: DEL, C1, line separators, bidi overrides', () => {
    const text = 'x\u007f\u009b\u2028\u2029\u202e\u2066y';
    const result = quoted(text);
    expect(result).toBe('"x\\u007f\\u009b\\u2028\\u2029\\u202e\\u2066y"');
    expect(JSON.parse(result)).toBe(text);
  });

  it('cuts within its limit at a whole character, never inside an escape or a pair, the ellipsis inside the quotes', () => {
    expect(quoted('abcdef', 6)).toBe('"abc…"');
    expect(quoted('abcd', 6)).toBe('"abcd"');
    expect(quoted('ab\ncd', 6)).toBe('"ab…"');
    expect(quoted('a😀😀', 6)).toBe('"a😀…"');
    expect(quoted('ab😀', 5)).toBe('"ab…"');
    for (let limit = 3; limit < 20; limit++) {
      const result = quoted('x"\n\u009b😀y'.repeat(3), limit);
      expect(result.length).toBeLessThanOrEqual(limit);
      expect(result.startsWith('"') && result.endsWith('"')).toBe(true);
      // Well-formed: without the ellipsis it parses as JSON.
      expect(() => JSON.parse(result.replace('…"', '"'))).not.toThrow();
    }
  });
});

describe('plainJson', () => {
  it('is one line of JSON with the same value, line separators and bidi overrides escaped', () => {
    const value = { a: 'x"\n\u2028\u202e\u009b', b: [1, null], '\u2029': true };
    const text = plainJson(value);
    expect(text).not.toMatch(/[\n\u2028\u2029\u202e\u009b]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
