import { counted } from '../../../src/core/plural';

describe('counted', () => {
  it.each([
    [0, '0 sessions'],
    [1, '1 session'],
    [2, '2 sessions'],
  ])('%p → %p', (count, expected) => {
    expect(counted(count, 'session')).toBe(expected);
  });

  it('takes an irregular plural', () => {
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
    expect(counted(3, 'entry', 'entries')).toBe('3 entries');
  });
});
