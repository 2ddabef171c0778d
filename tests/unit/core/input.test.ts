import { agentNameProblem } from '../../../src/core/input';

describe('the naming rule', () => {
  it.each([['terraform-architect'], ['plugin:agent'], ['My Agent 2'], ['名前'], ['x" `y`']])('takes %j', (name) => {
    expect(agentNameProblem(name)).toBeNull();
  });

  it.each([[''], [' '], ['a\nb'], ['a\u001b[2J'], ['a\u009b'], ['a\u202eb'], ['a\u2066b'], ['a\u2028b'], [5]])(
    'refuses %j',
    (name) => {
      expect(agentNameProblem(name)).not.toBeNull();
    },
  );
});
