import { describeJsonError, locateJsonError } from '../../../src/core/json-error';

describe('locateJsonError', () => {
  it.each([
    ['{"a": hunter2}', 1, 7, /unexpected character/],
    ['{\n  "password": "hunter2', 2, 15, /unterminated string/],
    ['{"a": 1,}', 1, 9, /property name/],
    ['{"a" 1}', 1, 6, /expected ':'/],
    ['[1 2]', 1, 4, /expected ',' or ']'/],
    ['{"a": 1} secret', 1, 10, /after the JSON value/],
    ['', 1, 1, /end of input/],
    ['{"a": "x\\q"}', 1, 9, /bad escape/],
    ['{"a": "\t"}', 1, 8, /control character/],
    ['{"a": -}', 1, 7, /malformed number/],
    ['{\r\n"k": [1,\n  2,\n  tru]}', 4, 3, /unexpected character/],
  ])('%j: line %i, column %i', (text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = locateJsonError(text);
    expect(found).toMatchObject({ line, column });
    expect(found!.problem).toMatch(problem);
  });

  it('finds nothing in valid JSON', () => {
    expect(locateJsonError('{"a": [1, -2.5e3, "x\\u00e9", true, null, {}]}')).toBeNull();
    expect(describeJsonError('{}')).toBe('a syntax error');
  });

  it('never quotes the text it describes', () => {
    const text = '{"metadata": {"password": hunter2-secret}}';
    expect(describeJsonError(text)).not.toContain('hunter2');
    expect(describeJsonError(text)).toBe('line 1, column 27: unexpected character where a value was expected');
  });
});
