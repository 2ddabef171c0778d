import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SessionError } from '../core/errors';
import { createFileAtomic } from './atomic-file';
import { ioError } from './errno';
import { PRIVATE_DIR } from './private-fs';
import { readRegularFile } from './strict-read';
import { userDataFolder } from './user-folders';

type Env = Readonly<Record<string, string | undefined>>;

// The key that seals this machine's decisions and grants (issue 40 item 3): 32 random bytes (as hex) in the user's
// data folder, mode 0600 (writeNewFile's), outside every workspace, so a state.json that arrived by git clone, a hand copy or an agent's write
// carries no MAC that checks out here. Required only by the paths that read or make a decision (the hooks' others
// never load node:crypto).

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
      if (own === null || !/^[0-9a-f]{64}$/.test(mac)) return false;
      return timingSafeEqual(Buffer.from(macOf(own, text), 'hex'), Buffer.from(mac, 'hex'));
    },
  };
}

/** HMAC-SHA256 of `text` under `key`, as 64 hex digits. */
export function macOf(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
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
  const key = randomBytes(KEY_BYTES);
  if (createFileAtomic(path, `${key.toString('hex')}\n`)) return key;
  return readKey(path) ?? key;
}
