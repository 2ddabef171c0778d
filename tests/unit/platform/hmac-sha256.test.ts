import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { equalInConstantTime, hmacSha256, sha256 } from '../../../src/platform/hmac-sha256';

// The seal's HMAC is hand-written (a hook would otherwise load node:crypto): held to node:crypto's answers.
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('sha256 and hmacSha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    // 55, 56 and 64 bytes: the padding's edges (one block, two blocks).
    ['a'.repeat(55), createHash('sha256').update('a'.repeat(55)).digest('hex')],
    ['a'.repeat(56), createHash('sha256').update('a'.repeat(56)).digest('hex')],
    ['a'.repeat(64), createHash('sha256').update('a'.repeat(64)).digest('hex')],
  ])('sha256(%j)', (text, digest) => {
    expect(hex(sha256(Buffer.from(text)))).toBe(digest);
  });

  it('RFC 4231 test case 2 (a short key)', () => {
    expect(hex(hmacSha256(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('agrees with node:crypto for any key and message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 700 }), (key, message) => {
        expect(hex(hmacSha256(key, message))).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('compares equal texts only', () => {
    expect(equalInConstantTime('ab', 'ab')).toBe(true);
    expect(equalInConstantTime('ab', 'ac')).toBe(false);
    expect(equalInConstantTime('ab', 'abc')).toBe(false);
  });
});
