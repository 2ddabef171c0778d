import { assertFlagValues, rejectRepeats, usageMessage } from '../../../src/cli/options';
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

describe('rejectRepeats', () => {
  it('keeps one copy of a repeated identical value, and every --metadata', () => {
    const argv: Record<string, unknown> = { _: ['update'], phase: ['a', 'a'], metadata: ['{}', '{"b":1}'] };
    rejectRepeats(argv);
    expect(argv).toEqual({ _: ['update'], phase: 'a', metadata: ['{}', '{"b":1}'] });
  });

  it.each([[{ phase: ['a', 'b'] }], [{ dryRun: [true, false] }], [{ agent: ['x', 'x', 'y'] }]])(
    'refuses %p with E_USAGE',
    (argv) => {
      expect(codeOf(() => rejectRepeats({ ...argv }))).toBe('E_USAGE');
    },
  );
});

describe('usageMessage', () => {
  const usages = ['get <id>', 'create', 'list'];
  it.each([
    ['Not enough arguments following: since', ['stats', '--since'], 'Expected a value after `--since`'],
    ['Not enough non-option arguments: got 0, need at least 1', ['get'], 'Expected `agent-session get <id>`'],
    ['Missing required arguments: agent, purpose', ['create'], 'Expected `--agent` and `--purpose`'],
    ['Unknown argument: hours', ['list', '--hours', '3'], 'got `--hours`'],
    ['Unknown arguments: j, x', ['list', '-jx'], 'got `-j`, `-x`'],
    ['Unknown argument: extra', ['get', 'id', 'extra'], 'got `extra`'],
    ['Did you mean create?', ['creat'], 'Did you mean create?'],
  ])('%s', (message, args, expected) => {
    expect(usageMessage(message, args, usages)).toContain(expected);
  });
});
