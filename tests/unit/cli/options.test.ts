import { assertFlagValues } from '../../../src/cli/options';
import { codeOf } from '../../helpers';

describe('assertFlagValues', () => {
  it.each([
    [['cleanup', '--dry-run']],
    [['cleanup', '--dry-run=true']],
    [['list', '--json=false', '--no-json=false']],
    [['update', 's1', '--error=--json=yes']],
    [['update', 's1', '--', '--json=yes']],
    [['list', '--agent=x=y']],
  ])('accepts %p', (args) => {
    expect(codeOf(() => assertFlagValues(args))).toBeUndefined();
  });

  it.each([
    [['cleanup', '--dry-run=yes']],
    [['cleanup', '--dry-run=1']],
    [['cleanup', '--dry-run=']],
    [['list', '--no-active-only=no']],
    [['get', 's1', '--json=TRUE']],
  ])('refuses %p with E_USAGE', (args) => {
    expect(codeOf(() => assertFlagValues(args))).toBe('E_USAGE');
  });
});
