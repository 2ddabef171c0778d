import { SessionError } from '../../../../src/core/errors';
import {
  answerError,
  decodeValue,
  encodeValue,
  errorOf,
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
