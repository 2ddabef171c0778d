// The user's trust record (app/trust.ts): the content's SHA-256 against the file's real path, in the user's data folder
// (0600); any change makes the file untrusted again, a stamp lets a hook skip the digest only for a file left alone
// before the trust, and a record another user could have written is no trust.
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStamped, recordTrust, revokeTrust, trustEntryOf, trustVerdictOf } from '../../../src/app/trust';
import { codeOf } from '../../helpers';

let dir: string;
let env: Record<string, string>;
let file: string;
const later = () => new Date(Date.now() + 10_000);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-trust-unit-'));
  env = { HOME: join(dir, 'home'), XDG_DATA_HOME: join(dir, 'data') };
  file = join(dir, 'agent-session.json');
  writeFileSync(file, '{"notify":"true"}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const verdict = () => trustVerdictOf(file, readStamped(file), env);

it('untrusted until recorded; the record is private; trusted for that content, changed for any other', () => {
  expect(verdict()).toBe('untrusted');
  recordTrust(file, readStamped(file).bytes, env, later());
  expect(statSync(join(dir, 'data', 'agent-session', 'trusted.json')).mode & 0o777).toBe(0o600);
  expect(verdict()).toBe('trusted');
  writeFileSync(file, '{"notify":"true" }');
  expect(verdict()).toBe('changed');
  // The same bytes written again: another stamp, the same digest.
  writeFileSync(file, '{"notify":"true"}');
  expect(verdict()).toBe('trusted');
});

it('keeps a stamp only for a file left alone before the trust, and a stamp never outlives a write', () => {
  recordTrust(file, readStamped(file).bytes, env, new Date());
  expect(trustEntryOf(file, env)?.stamp).toBeUndefined();
  recordTrust(file, readStamped(file).bytes, env, later());
  const stamp = trustEntryOf(file, env)?.stamp;
  expect(stamp).toBe(readStamped(file).stamp);
  writeFileSync(file, '{"notify":"id"}');
  expect(readStamped(file).stamp).not.toBe(stamp);
  expect(verdict()).toBe('changed');
});

it('is kept by real path: a link to the trusted file is the same file', () => {
  recordTrust(file, readStamped(file).bytes, env, later());
  const link = join(dir, 'link.json');
  symlinkSync(file, link);
  expect(trustVerdictOf(link, readStamped(link), env)).toBe('trusted');
});

it('refuses to trust a content other than the one shown', () => {
  expect(codeOf(() => recordTrust(file, Buffer.from('{}'), env, later()))).toBe('E_REFUSED');
  expect(trustEntryOf(file, env)).toBeNull();
});

it('a record others may write is no trust, and is not rewritten', () => {
  recordTrust(file, readStamped(file).bytes, env, later());
  chmodSync(join(dir, 'data', 'agent-session', 'trusted.json'), 0o666);
  expect(verdict()).toBe('untrusted');
  expect(codeOf(() => recordTrust(file, readStamped(file).bytes, env, later()))).toBe('E_CORRUPT');
});

it('--revoke forgets the file', () => {
  recordTrust(file, readStamped(file).bytes, env, later());
  expect(revokeTrust(file, env)).toBe(true);
  expect(verdict()).toBe('untrusted');
  expect(revokeTrust(file, env)).toBe(false);
});
