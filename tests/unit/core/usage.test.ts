import { EMPTY_TALLY, estimateCost, priceOf, tallyRows } from '../../../src/core/usage';

const reply = (id: string, model: string, usage: object, content: object[] = []) =>
  JSON.stringify({ type: 'assistant', message: { id, model, usage, content } });
const usage = (input: number, output: number, read = 0, creation = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: creation,
});

describe('tallyRows', () => {
  it('sums tokens per model once per reply, counts each tool call a step and each edited file once', () => {
    const rows = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'TASK' } }),
      // One reply written as two rows (one per content block), each carrying the reply's usage: counted once.
      reply('m1', 'claude-sonnet-4-5', usage(10, 5, 100, 20), [{ type: 'text', text: 'hi' }]),
      reply('m1', 'claude-sonnet-4-5', usage(10, 5, 100, 20), [
        { type: 'tool_use', name: 'Write', input: { file_path: '/p/a.ts', content: 'x' } },
      ]),
      reply('m2', 'claude-sonnet-4-5', usage(1, 2), [
        { type: 'tool_use', name: 'Edit', input: { file_path: '/p/a.ts' } },
        { type: 'tool_use', name: 'Bash', input: { command: 'ls' } },
        { type: 'tool_use', name: 'Edit', input: { file_path: '/p/b.ts' } },
      ]),
      reply('m3', 'claude-haiku-4-5', usage(7, 3)),
      'not json',
      '',
    ];
    expect(tallyRows(EMPTY_TALLY, rows.join('\n'))).toEqual({
      tokens: {
        'claude-sonnet-4-5': { input: 11, output: 7, cache_read: 100, cache_creation: 20 },
        'claude-haiku-4-5': { input: 7, output: 3, cache_read: 0, cache_creation: 0 },
      },
      steps: 4,
      files_modified: ['/p/a.ts', '/p/b.ts'],
      last_message_id: 'm3',
    });
  });

  it('reads on from a tally: the rows of a reply already counted add no tokens again', () => {
    const first = tallyRows(EMPTY_TALLY, reply('m1', 'm', usage(10, 5)));
    const second = tallyRows(first, [reply('m1', 'm', usage(10, 5)), reply('m2', 'm', usage(1, 1))].join('\n'));
    expect(second.tokens.m).toEqual({ input: 11, output: 6, cache_read: 0, cache_creation: 0 });
  });

  it.each([
    ['a negative count', usage(-5, 2)],
    ['a text', { input_tokens: '5', output_tokens: 2 }],
    ['a fraction', { input_tokens: 1.5, output_tokens: 2 }],
  ])('counts %s as nothing', (_label, bad) => {
    expect(tallyRows(EMPTY_TALLY, reply('x', 'm', bad)).tokens.m).toEqual({
      input: 0,
      output: 2,
      cache_read: 0,
      cache_creation: 0,
    });
  });
});

describe('the price table', () => {
  it.each([
    ['claude-opus-4-6', 5, 25],
    ['claude-opus-4-5-20251101', 5, 25],
    ['claude-opus-4-1-20250805', 15, 75],
    ['claude-sonnet-4-5-20250929', 3, 15],
    ['claude-haiku-4-5', 1, 5],
    ['claude-3-5-haiku-20241022', 0.8, 4],
  ])('%s: $%p in, $%p out per million', (model, input, output) => {
    expect(priceOf(model)).toMatchObject({ input, output });
  });

  it('has no price for a model it does not know', () => {
    expect(priceOf('gpt-5')).toBeNull();
  });

  it('takes the user’s price for a family or for an exact model first', () => {
    const mine = { input: 1, output: 1, cache_read: 1, cache_creation: 1 };
    expect(priceOf('claude-sonnet-4-5', { sonnet: mine })).toBe(mine);
    expect(priceOf('gpt-5', { 'gpt-5': mine })).toBe(mine);
    expect(priceOf('claude-haiku-4-5', { sonnet: mine })).toMatchObject({ input: 1, output: 5 });
  });

  it('estimates the cost of tokens per model, marked estimated, naming the models it cannot price', () => {
    const cost = estimateCost({
      'claude-sonnet-4-5': { input: 1_000_000, output: 100_000, cache_read: 2_000_000, cache_creation: 400_000 },
      'gpt-5': { input: 5, output: 5, cache_read: 0, cache_creation: 0 },
    });
    // 3 + 1.5 + 0.6 + 1.5
    expect(cost.usd).toBeCloseTo(6.6, 10);
    expect(cost).toMatchObject({ estimated: true, unpriced: ['gpt-5'] });
    expect(estimateCost({}).usd).toBe(0);
  });
});
