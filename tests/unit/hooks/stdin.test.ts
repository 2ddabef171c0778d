import { PassThrough } from 'node:stream';
import { JsonScanner, readJsonInput, readJsonSync, type ByteSource } from '../../../src/hooks/stdin';

const options = { timeoutMs: 200, maxBytes: 1024 };

describe('JsonScanner', () => {
  it.each([
    ['{"a":1}', 7],
    ['  {"a":"}"}', 11],
    ['{"a":"\\"}"}x', 11],
    ['[1,[2]] trailing', 7],
    ['{"a":{"b":[{}]}}', 16],
  ])('finds the end of %s', (text, end) => {
    expect(new JsonScanner().feed(Buffer.from(text))).toBe(end);
  });

  it('works across chunks', () => {
    const scanner = new JsonScanner();
    expect(scanner.feed(Buffer.from('{"a": "x\\'))).toBe(-1);
    expect(scanner.feed(Buffer.from('"}", "b": ['))).toBe(-1);
    expect(scanner.feed(Buffer.from(']} rest'))).toBe(2);
  });

  it.each(['42', '"text"', 'garbage {}', 'null'])('leaves %s to EOF', (text) => {
    const scanner = new JsonScanner();
    expect(scanner.feed(Buffer.from(text))).toBe(-1);
    expect(scanner.feed(Buffer.from('{}'))).toBe(-1);
  });
});

describe('JsonScanner on bytes', () => {
  it('ends a document whose multi-byte characters hold no structural byte, and skips a byte-order mark', () => {
    const text = '{"name":"é✓ }] 😀"}';
    expect(new JsonScanner().feed(Buffer.from(`\ufeff${text} tail`))).toBe(3 + Buffer.byteLength(text));
  });
});

/** A byte source from a script of reads: chunks, `null` for "nothing yet", an Error to throw, then the end. */
function scripted(steps: readonly (string | Buffer | null | Error)[]): ByteSource & { reads: number } {
  const queue = [...steps];
  const source = {
    reads: 0,
    readBytes(buffer: Buffer): number | null {
      source.reads++;
      const step = queue.shift();
      if (step === undefined) return 0;
      if (step === null) return null;
      if (step instanceof Error) throw step;
      const bytes = typeof step === 'string' ? Buffer.from(step) : step;
      bytes.copy(buffer);
      return bytes.length;
    },
  };
  return source;
}

/** A clock that only moves when the reader sleeps. */
function fakeClock() {
  const clock = { t: 0, sleeps: 0, now: () => clock.t, sleep: (ms: number) => ((clock.t += ms), clock.sleeps++) };
  return clock;
}

describe('readJsonSync', () => {
  it('answers as soon as one object arrived, without reading further (stdin may stay open)', () => {
    const source = scripted(['{"agent_name": ', '"x"} trailing', null, null]);
    expect(readJsonSync(source, options, fakeClock())).toEqual({ kind: 'json', value: { agent_name: 'x' } });
    expect(source.reads).toBe(2);
  });

  it('waits while a non-blocking source has nothing yet, then reads on', () => {
    const clock = fakeClock();
    expect(readJsonSync(scripted([null, null, '{"a":', null, '1}']), options, clock)).toEqual({
      kind: 'json',
      value: { a: 1 },
    });
    expect(clock.sleeps).toBe(3);
  });

  it('parses at EOF for non-object documents, and reports empty input', () => {
    expect(readJsonSync(scripted(['4', '2']), options, fakeClock())).toEqual({ kind: 'json', value: 42 });
    expect(readJsonSync(scripted([]), options, fakeClock())).toEqual({ kind: 'empty' });
    expect(readJsonSync(scripted([' \n']), options, fakeClock())).toEqual({ kind: 'empty' });
  });

  it('gives up at the time limit: on silence, and with an incomplete document (what arrived is kept)', () => {
    const clock = fakeClock();
    expect(readJsonSync(scripted(Array(1000).fill(null)), options, clock)).toEqual({
      kind: 'invalid',
      problem: 'no input within 200 ms',
      received: '',
    });
    expect(clock.t).toBe(200);
    expect(
      readJsonSync(scripted(['{"hook_event_name": "X", "a', ...Array(1000).fill(null)]), options, fakeClock()),
    ).toEqual({
      kind: 'invalid',
      problem: expect.stringContaining('not valid JSON'),
      received: '{"hook_event_name": "X", "a',
    });
  });

  it('stops at the size cap, keeping what arrived', () => {
    const result = readJsonSync(
      scripted([`{"hook_event_name": "PreToolUse", "x": "${'x'.repeat(2048)}"}`]),
      options,
      fakeClock(),
    );
    expect(result).toMatchObject({
      kind: 'invalid',
      problem: 'input larger than 1024 bytes',
      received: expect.stringContaining('"hook_event_name": "PreToolUse"'),
    });
  });

  it('reports a read error as invalid input (never throws)', () => {
    expect(readJsonSync(scripted(['{"a"', new Error('EIO: i/o error')]), options, fakeClock())).toEqual({
      kind: 'invalid',
      problem: 'stdin could not be read (EIO: i/o error)',
      received: '{"a"',
    });
  });

  it('decodes multi-byte characters split across reads, and drops a byte-order mark', () => {
    const bytes = Buffer.from('\ufeff{"name":"é✓"}');
    expect(readJsonSync(scripted([bytes.subarray(0, 13), bytes.subarray(13)]), options, fakeClock())).toEqual({
      kind: 'json',
      value: { name: 'é✓' },
    });
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
