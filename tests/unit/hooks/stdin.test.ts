import { PassThrough } from 'node:stream';
import { JsonScanner, readJsonInput } from '../../../src/hooks/stdin';

const options = { timeoutMs: 200, maxBytes: 1024 };

describe('JsonScanner', () => {
  it.each([
    ['{"a":1}', 7],
    ['  {"a":"}"}', 11],
    ['{"a":"\\"}"}x', 11],
    ['[1,[2]] trailing', 7],
    ['{"a":{"b":[{}]}}', 16],
  ])('finds the end of %s', (text, end) => {
    expect(new JsonScanner().feed(text)).toBe(end);
  });

  it('works across chunks', () => {
    const scanner = new JsonScanner();
    expect(scanner.feed('{"a": "x\\')).toBe(-1);
    expect(scanner.feed('"}", "b": [')).toBe(-1);
    expect(scanner.feed(']} rest')).toBe(2);
  });

  it.each(['42', '"text"', 'garbage {}', 'null'])('leaves %s to EOF', (text) => {
    const scanner = new JsonScanner();
    expect(scanner.feed(text)).toBe(-1);
    expect(scanner.feed('{}')).toBe(-1);
  });
});

describe('readJsonInput', () => {
  it('answers as soon as one object arrived, even if stdin stays open', async () => {
    const stream = new PassThrough();
    const pending = readJsonInput(stream, { ...options, timeoutMs: 10_000 });
    stream.write('{"agent_name": ');
    stream.write('"x"}');
    await expect(pending).resolves.toEqual({ kind: 'json', value: { agent_name: 'x' } });
  });

  it('parses at EOF for non-object documents', async () => {
    const stream = new PassThrough();
    const pending = readJsonInput(stream, options);
    stream.end('42');
    await expect(pending).resolves.toEqual({ kind: 'json', value: 42 });
  });

  it('reports empty input', async () => {
    const stream = new PassThrough();
    const pending = readJsonInput(stream, options);
    stream.end();
    await expect(pending).resolves.toEqual({ kind: 'empty' });
  });

  it('reports garbage and incomplete input', async () => {
    const garbage = new PassThrough();
    const a = readJsonInput(garbage, options);
    garbage.end('not json');
    expect((await a).kind).toBe('invalid');
    const open = new PassThrough();
    const b = readJsonInput(open, options);
    open.write('{"never": "closed"');
    expect((await b).kind).toBe('invalid'); // time limit reached with an incomplete document
  });

  it('gives up on silence at the time limit', async () => {
    await expect(readJsonInput(new PassThrough(), options)).resolves.toMatchObject({ kind: 'invalid' });
  });

  it('stops at the size cap', async () => {
    const stream = new PassThrough();
    const pending = readJsonInput(stream, options);
    stream.write(`{"big": "${'x'.repeat(2048)}"}`);
    await expect(pending).resolves.toMatchObject({
      kind: 'invalid',
      problem: expect.stringContaining('larger than 1024'),
    });
  });

  it('keeps what arrived of an unreadable document, so the caller can tell whose it was', async () => {
    const big = new PassThrough();
    const tooBig = readJsonInput(big, options);
    big.write(`{"hook_event_name": "PreToolUse", "x": "${'x'.repeat(2048)}"}`);
    await expect(tooBig).resolves.toMatchObject({
      kind: 'invalid',
      received: expect.stringContaining('"hook_event_name": "PreToolUse"'),
    });
    const cut = new PassThrough();
    const cutShort = readJsonInput(cut, options);
    cut.end('{"hook_event_name": "SubagentStop", "agent_id": "a');
    await expect(cutShort).resolves.toMatchObject({
      kind: 'invalid',
      received: '{"hook_event_name": "SubagentStop", "agent_id": "a',
    });
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const stream = new PassThrough();
    const pending = readJsonInput(stream, options);
    const bytes = Buffer.from('{"name":"é✓"}');
    stream.write(bytes.subarray(0, 10));
    stream.write(bytes.subarray(10));
    await expect(pending).resolves.toEqual({ kind: 'json', value: { name: 'é✓' } });
  });
});
