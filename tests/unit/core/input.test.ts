import { agentNameProblem, jsonBytes } from '../../../src/core/input';

describe('the naming rule', () => {
  it.each([['terraform-architect'], ['plugin:agent'], ['My Agent 2'], ['名前'], ['x" `y`']])('takes %j', (name) => {
    expect(agentNameProblem(name)).toBeNull();
  });

  it('takes a name of 256 characters and refuses a longer one (a Claude payload could name a session with megabytes)', () => {
    expect(agentNameProblem('a'.repeat(256))).toBeNull();
    expect(agentNameProblem('a'.repeat(257))).toContain('257');
    expect(agentNameProblem('a'.repeat(5_000_000))).not.toBeNull();
  });

  it.each([[''], [' '], ['a\nb'], ['a\u001b[2J'], ['a\u009b'], ['a\u202eb'], ['a\u2066b'], ['a\u2028b'], [5]])(
    'refuses %j',
    (name) => {
      expect(agentNameProblem(name)).not.toBeNull();
    },
  );
});

describe('jsonBytes', () => {
  it.each([
    [{}],
    [{ a: 'plain' }],
    [{ é: 'ü', n: 1.5, list: [true, null] }],
    [{ cjk: '名前', emoji: '😀', lone: '\ud800', escaped: '\n"\\\u0001' }],
  ])('is the UTF-8 size of the compact JSON: %j', (value) => {
    expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
  });
});
