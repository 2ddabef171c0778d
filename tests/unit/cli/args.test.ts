import { parseHours, parseMetadata } from '../../../src/cli/args';
import { codeOf } from '../../helpers';

const nested = (depth: number): string => `${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('parseMetadata', () => {
  it.each([
    ['{"task_id":"T1"}', { task_id: 'T1' }],
    ['{}', {}],
    [nested(100), JSON.parse(nested(100))],
  ])('reads %s', (text, expected) => {
    expect(parseMetadata(text)).toEqual(expected);
  });

  it('reads nothing as nothing', () => {
    expect(parseMetadata(undefined)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{oops'],
    ['an array', '[1]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['nested 101 objects deep', nested(101)],
    ['nested 5,000 arrays deep', `{"d":${'['.repeat(5000)}${']'.repeat(5000)}}`],
  ])('refuses %s with E_USAGE', (_label, text) => {
    expect(codeOf(() => parseMetadata(text))).toBe('E_USAGE');
  });
});

describe('parseHours', () => {
  it.each([
    ['24', 24],
    ['0', 0],
    ['1.5', 1.5],
    [6, 6],
  ])('reads %p', (raw, hours) => {
    expect(parseHours(raw)).toBe(hours);
  });

  it.each(['abc', '-1', '0x10', '1e3', 'Infinity', '', -2])('refuses %p with E_USAGE', (raw) => {
    expect(codeOf(() => parseHours(raw))).toBe('E_USAGE');
  });
});
