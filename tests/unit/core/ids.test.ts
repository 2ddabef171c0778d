import { SessionError } from '../../../src/core/errors';
import { ID_PATTERN, assertValidId, generateId, isValidId } from '../../../src/core/ids';
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
