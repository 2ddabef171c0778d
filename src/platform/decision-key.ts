import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SessionError } from '../core/errors';
import { createFileAtomic } from './atomic-file';
import { equalInConstantTime, hmacSha256 } from './hmac-sha256';
import { ioError } from './errno';
import { PRIVATE_DIR } from './private-fs';
import { readRegularFile } from './strict-read';
import { userDataFolder } from './user-folders';

type Env = Readonly<Record<string, string | undefined>>;

// The key that seals this machine's decisions and grants (issue 40 item 3): 32 random bytes (as hex) in the user's
// data folder, mode 0600 (writeNewFile's), outside every workspace, so a state.json that arrived by git clone, a hand copy or an agent's write
// carries no MAC that checks out here. Required only by the paths that read or make a decision; node:crypto only to
// make the key.

/** This user's MAC of a decision's or grant's text (core/seal.ts DecisionSeal has the same shape). */
export interface DecisionSeal {
  /** The MAC of `text` (makes the key on first use). */
  sign(text: string): string;
  /** True when `mac` is the MAC of `text` under this user's key (false without a key). */
  verify(text: string, mac: string): boolean;
}

/** The key file's name in the user's data folder. */
export const DECISION_KEY_FILE = 'key';

const KEY_BYTES = 32;

/** Where the key is (`<user data folder>/key`), or null when no absolute home is known. */
export function decisionKeyPath(env: Env): string | null {
  const folder = userDataFolder(env);
  return folder === null ? null : join(folder, DECISION_KEY_FILE);
}

/**
 * The seal of this user's decisions: `sign` makes the key on first use (its folder 0700, the file 0600, never through
 * a link), `verify` only reads it (no key: nothing verifies). The key is read once per process.
 * @throws SessionError (from sign) E_IO when the key cannot be read or made; E_REFUSED without a home folder
 */
export function userDecisionSeal(env: Env): DecisionSeal {
  const path = decisionKeyPath(env);
  let key: Buffer | null | undefined;
  const macs = new Map<string, string>();
  const known = (): Buffer | null => (key ??= path === null ? null : readKey(path));
  return {
    sign(text) {
      if (path === null)
        throw new SessionError('E_REFUSED', 'Expected a home folder to keep the decision key in, got none');
      key = known() ?? makeKey(path);
      return macOf(key, text);
    },
    verify(text, mac) {
      const own = known();
      if (own === null) return false;
      // A hook reads one session several times (the look-up, then under the lock): each text is hashed once.
      let expected = macs.get(text);
      if (expected === undefined) macs.set(text, (expected = macOf(own, text)));
      return equalInConstantTime(expected, mac);
    },
  };
}

/** HMAC-SHA256 of `text` (UTF-8) under `key`, as 64 hex digits (platform/hmac-sha256.ts: no node:crypto to load). */
export function macOf(key: Buffer, text: string): string {
  return Buffer.from(hmacSha256(key, Buffer.from(text, 'utf8'))).toString('hex');
}

// --- internal ---

/** The key, or null when there is none; a file that is not 64 hex digits (a line) is refused. */
function readKey(path: string): Buffer | null {
  const file = readRegularFile(path);
  if (file === null) return null;
  const text = 'text' in file ? file.text.trim() : '';
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new SessionError(
      'E_IO',
      `Expected the decision key ${path} to be a file of 64 hex digits, got ${'problem' in file ? file.problem.replace('state.json', 'it') : 'something else'}`,
    );
  return Buffer.from(text, 'hex');
}

/** A new key at `path` (0600, linked into place whole), or the one another process made first. */
function makeKey(path: string): Buffer {
  const folder = dirname(path);
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    throw ioError(error, 'create the folder', folder);
  }
  // Made once per user: the only use of node:crypto here (a secret needs its randomness, not Math.random's).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded once per user, never on a hook's path
  const key = (require('node:crypto') as typeof import('node:crypto')).randomBytes(KEY_BYTES);
  if (createFileAtomic(path, `${key.toString('hex')}\n`)) return key;
  return readKey(path) ?? key;
}
