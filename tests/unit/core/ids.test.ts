import { SessionError } from '../../../src/core/errors';
import { ID_PATTERN, assertValidId, generateId, isValidId, pickId, shortId } from '../../../src/core/ids';
import { codeOf } from '../../helpers';
import { randomHex8 } from '../../../src/platform/random';

describe('ids', () => {
  it('generates agent-YYYYMMDD-HHMMSS-xxxxxxxx in UTC', () => {
    expect(generateId(new Date('2026-01-08T18:05:30.999Z'), 'abc12345')).toBe('agent-20260108-180530-abc12345');
  });

  it('makes 8 lowercase hex digits, and generated ids are valid', () => {
    const hex = randomHex8();
    expect(hex).toMatch(/^[0-9a-f]{8}$/);
    expect(isValidId(generateId(new Date(), hex))).toBe(true);
  });

  it.each(['a', 'agent-1', 'A.b_c-d', 'x'.repeat(128), '9abc'])('accepts %s', (id) => {
    expect(isValidId(id)).toBe(true);
    expect(assertValidId(id)).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['dot', '.'],
    ['dot-dot', '..'],
    ['traversal', '../x'],
    ['absolute', '/etc'],
    ['slash', 'a/b'],
    ['backslash', 'a\\b'],
    ['NUL', 'a\u0000b'],
    ['leading dot', '.hidden'],
    ['leading dash', '-x'],
    ['space', 'a b'],
    ['unicode', 'agént'],
    ['too long', 'x'.repeat(129)],
  ])('refuses %s with E_USAGE', (_label, id) => {
    expect(isValidId(id)).toBe(false);
    expect(() => assertValidId(id)).toThrow(SessionError);
    try {
      assertValidId(id);
    } catch (error) {
      expect((error as SessionError).code).toBe('E_USAGE');
    }
  });

  it.each([[42], [null], [undefined], [{}]])('refuses the non-string %p', (value) => {
    expect(isValidId(value)).toBe(false);
  });

  it('keeps the documented pattern', () => {
    expect(ID_PATTERN.source).toBe('^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$');
  });
});

describe('shortId and pickId', () => {
  it.each([
    ['agent-20261128-012233-5bb8adff', '5bb8adff'],
    ['worker-5', 'worker-5'],
    ['agent-20261128-012233-5BB8ADFF', 'agent-20261128-012233-5BB8ADFF'],
    ['5bb8adff', '5bb8adff'],
  ])('shortId(%p) is %p', (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  it.each([
    ['abc', ['abc', 'x-abc'], 'abc'],
    ['abc', ['x-abc'], 'x-abc'],
  ])('pickId(%p, %p) is %p', (text, matches, id) => {
    expect(pickId(text, matches)).toBe(id);
  });

  it.each([
    ['abc', [], 'E_NOT_FOUND'],
    ['abc', ['x-abc', 'y-abc'], 'E_USAGE'],
    ['abc', Array.from({ length: 11 }, (_, i) => `s${i}-abc`), 'E_USAGE'],
  ])('pickId(%p, %p) throws %p', (text, matches, code) => {
    expect(codeOf(() => pickId(text, matches))).toBe(code);
  });

  it('names the candidates of an ambiguous part', () => {
    expect(() => pickId('abc', ['y-abc', 'x-abc'])).toThrow(/x-abc, y-abc/);
  });
});
