import fc from 'fast-check';
import { SessionError } from '../../../../src/core/errors';
import {
  answerError,
  decodeValue,
  encodeValue,
  errorOf,
  LineReader,
  parseRelayHello,
  RELAY_GREETING,
} from '../../../../src/store/relay/relay-protocol';
import { codeOf } from '../../../helpers';

/** What the other side gets: the text parsed, its tags undone. */
function roundTrip(value: unknown): unknown {
  const { json, tagged } = encodeValue(value);
  return decodeValue(JSON.parse(json), tagged);
}

describe('relay protocol values', () => {
  it('sends plain JSON untagged, so the reader skips its walk', () => {
    const state = { agent_id: 'a', history: [{ timestamp: '2026-01-01T00:00:00.000Z' }], metadata: { n: 1, s: 'x' } };
    expect(encodeValue(state)).toEqual({ json: JSON.stringify(state), tagged: false });
    expect(roundTrip(state)).toEqual(state);
  });

  it('keeps what JSON cannot say: a Date, an undefined argument, Infinity, NaN, an error', () => {
    const when = new Date('2026-11-25T10:00:00.000Z');
    const back = roundTrip([
      'x',
      undefined,
      Infinity,
      -Infinity,
      NaN,
      when,
      { at: when },
      new SessionError('E_BUSY', 'busy'),
    ]) as unknown[];
    expect(back.slice(0, 5)).toEqual(['x', undefined, Infinity, -Infinity, NaN]);
    expect(back).toHaveLength(8);
    expect((back[5] as Date).getTime()).toBe(when.getTime());
    expect((back[6] as { at: Date }).at.getTime()).toBe(when.getTime());
    expect(back[7]).toBeInstanceOf(SessionError);
    expect((back[7] as SessionError).code).toBe('E_BUSY');
    expect(roundTrip(undefined)).toBeUndefined();
  });

  it('never takes data for a tag: metadata with a `$t` key, or a `__proto__` key, comes back as it was', () => {
    const metadata = JSON.parse('{"$t":"date","v":1,"__proto__":{"polluted":true},"nested":{"$t":"undefined"}}');
    const back = roundTrip({ metadata, when: new Date(0) }) as { metadata: Record<string, unknown> };
    expect(JSON.stringify(back.metadata)).toBe(JSON.stringify(metadata));
    expect(Object.getPrototypeOf(back.metadata)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses to send a callback (it runs on the caller side), and refuses a tag it does not define', () => {
    expect(() => encodeValue([() => undefined])).toThrow(TypeError);
    expect(codeOf(() => decodeValue({ $t: 'regexp', v: 'x' }, true))).toBe('E_IO');
  });
});

describe('relay protocol messages', () => {
  it('reads a relay hello, and nothing else as one', () => {
    const hello = { relay: RELAY_GREETING, protocol: 1, build: 'b', pid: 42 };
    expect(parseRelayHello(JSON.stringify(hello))).toEqual(hello);
    expect(parseRelayHello(JSON.stringify({ ...hello, refused: 'old' }))).toEqual({ ...hello, refused: 'old' });
    for (const garbage of [
      '',
      'HTTP/1.1 400 Bad Request',
      '[]',
      JSON.stringify({ ...hello, relay: 'other' }),
      JSON.stringify({ ...hello, pid: '42' }),
    ])
      expect(parseRelayHello(garbage)).toBeNull();
  });

  it('carries a SessionError as its code and message, anything else as E_IO, and refuses an unknown code', () => {
    expect(errorOf(new SessionError('E_DUPLICATE', 'twice'))).toEqual({ code: 'E_DUPLICATE', message: 'twice' });
    expect(errorOf(new TypeError('boom')).code).toBe('E_IO');
    expect(answerError({ code: 'E_NOT_FOUND', message: 'gone' })).toEqual(new SessionError('E_NOT_FOUND', 'gone'));
    expect(answerError({ code: 'E_WHATEVER', message: 'x' })).toBeNull();
    expect(answerError('E_IO')).toBeNull();
  });
});

describe('LineReader: the lines of both ends of the socket', () => {
  /** The lines `reader` gives for `chunks`, read one after another, and what each read returned. */
  function linesOf(chunks: Buffer[], reader = new LineReader()): { lines: string[]; within: boolean[] } {
    const lines: string[] = [];
    const within = chunks.map((chunk) => reader.read(chunk, (line) => lines.push(line) > 0));
    return { lines, within };
  }

  it('gives every complete line, in order, whatever the chunks, and keeps the unfinished end for the next one', () => {
    const text = Buffer.from('{"id":1}\n{"id":2,"ok":"é€😀"}\n\n{"id":3', 'utf8');
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const chunks = at.slice(1).map((end, k) => text.subarray(at[k], end));
        // A cut inside é, € or 😀 included: each line is decoded whole, never a chunk.
        expect(linesOf(chunks).lines).toEqual(['{"id":1}', '{"id":2,"ok":"é€😀"}', '']);
      }),
      { numRuns: 500 },
    );
    const reader = new LineReader();
    linesOf([text], reader);
    expect(linesOf([Buffer.from('}\n')], reader).lines).toEqual(['{"id":3}']);
  });

  it('drops the rest of a chunk once the caller is done with the stream', () => {
    const reader = new LineReader();
    const lines: string[] = [];
    reader.read(Buffer.from('a\nb\nc'), (line) => lines.push(line) < 1);
    expect(lines).toEqual(['a']);
    // Neither b nor the unfinished c is kept.
    expect(linesOf([Buffer.from('d\n')], reader).lines).toEqual(['d']);
  });

  it('says when the unfinished line grows past its bound, and counts afresh after each newline', () => {
    const reader = new LineReader(4);
    expect(linesOf([Buffer.from('ab'), Buffer.from('cd')], reader).within).toEqual([true, true]);
    expect(linesOf([Buffer.from('e')], reader).within).toEqual([false]);
    const fresh = new LineReader(4);
    expect(linesOf([Buffer.from('abcd\nefgh'), Buffer.from('\nijkl')], fresh)).toEqual({
      lines: ['abcd', 'efgh'],
      within: [true, true],
    });
  });
});
