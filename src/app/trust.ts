import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { TrustVerdict } from '../core/config';
import { SessionError, show } from '../core/errors';
import { writeFileAtomic } from '../platform/atomic-file';
import { errnoCode, ioError } from '../platform/errno';
import { PRIVATE_DIR } from '../platform/private-fs';
import { userDataFolder } from '../platform/user-folders';

/**
 * The user's trust in a workspace config file's exact content, as direnv's `allow` records it: the SHA-256 of the
 * file's bytes against its real path, in the user's data folder (`~/.local/share/agent-session/trusted.json`, 0600),
 * outside every workspace, so neither an agent confined to the workspace nor a commit can write it. Any change to the
 * file (another byte) makes it untrusted again (docs/security.md). `agent-session trust` writes it; the settings
 * (call.ts) read it only for a file that holds a setting needing trust (core/config.ts WORKSPACE_TRUST).
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The record's file name in the user's data folder. */
export const TRUST_FILE = 'trusted.json';

/**
 * One trusted file: the digest of the content trusted, and when; and, when the file had been left alone for a while
 * before (STAMP_SETTLED_NS), its stamp (readStamped), which lets a hook skip the digest: any write since changes it.
 */
export interface TrustEntry {
  readonly sha256: string;
  readonly trusted_at: string;
  readonly stamp?: string;
}

/** A file's bytes and its stamp, both from one descriptor, the stamp taken after the read. */
export interface StampedFile {
  readonly bytes: Buffer;
  /**
   * Device, inode, size, modification and change times (ns). The change time is the kernel's, set on every write and
   * never by the writer (utimes sets it to now too): an equal stamp on the same inode means no write since.
   */
  readonly stamp: string;
}

/**
 * Reads `path` as a StampedFile: its bytes, then its stamp from the same descriptor (a write during the read, or a
 * link swapped since it was opened, cannot pass the trusted file's stamp off as the bytes').
 * @throws Node's errors (ENOENT for an absent file)
 */
export function readStamped(path: string): StampedFile {
  const fd = openSync(path, 'r');
  try {
    const bytes = readFileSync(fd);
    const stats = fstatSync(fd, { bigint: true });
    return { bytes, stamp: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * A stamp is recorded only for a file whose last change is this much older than the trust: timestamps may be as coarse
 * as a clock tick, so a write just after the trust could otherwise leave the stamp as it was.
 */
const STAMP_SETTLED_NS = 2_000_000_000n;

/** Where the record is, or null without a home folder (nothing is then trusted). */
export function trustRecordPath(env: Env): string | null {
  const folder = userDataFolder(env);
  return folder === null ? null : join(folder, TRUST_FILE);
}

/**
 * Whether the user trusts `bytes` as the content of the config file at `path`: `trusted` when the record holds their
 * digest for its real path, `changed` when it holds another, else `untrusted` (no record, no entry, a record that is
 * not this user's alone or not readable as one: a stranger's word is no trust).
 */
export function trustVerdictOf(path: string, file: StampedFile, env: Env): TrustVerdict {
  const real = realOrNull(path);
  const record = real === null ? null : readRecord(env, false);
  const entry = real === null || record === null ? undefined : record[real];
  if (entry === undefined) return 'untrusted';
  // The stamp first: a digest costs a hook ~20 M instructions (node:crypto); unchanged since the trust, no need.
  if (entry.stamp !== undefined && entry.stamp === file.stamp) return 'trusted';
  return entry.sha256 === digest(file.bytes) ? 'trusted' : 'changed';
}

/** The entry recorded for the file at `path`, or null. */
export function trustEntryOf(path: string, env: Env): TrustEntry | null {
  const real = realOrNull(path);
  return real === null ? null : ((readRecord(env, false) ?? {})[real] ?? null);
}

/**
 * Records `bytes` (the file's content, as read by the caller and shown to the user) as trusted for the file at `path`.
 * @returns the entry and the real path it is kept under
 * @throws SessionError E_USAGE without a home folder; E_CORRUPT for a record that cannot be read as one (named, left
 *   as it is); E_IO when it cannot be written
 */
export function recordTrust(path: string, bytes: Buffer, env: Env, now: Date): { real: string; entry: TrustEntry } {
  const real = realpathSync(path);
  const file = readStamped(real);
  if (!file.bytes.equals(bytes))
    throw new SessionError(
      'E_REFUSED',
      `Expected ${show(path)} to stay as it was read, got another content meanwhile: nothing trusted; read it and run \`trust\` again`,
    );
  const changed = BigInt(file.stamp.split(':')[4]!);
  const settled = BigInt(now.getTime()) * 1_000_000n - changed > STAMP_SETTLED_NS;
  const entry: TrustEntry = {
    sha256: digest(bytes),
    trusted_at: now.toISOString(),
    ...(settled ? { stamp: file.stamp } : {}),
  };
  write(env, { ...readRecord(env, true), [real]: entry });
  return { real, entry };
}

/**
 * Removes the trust recorded for the file at `path` (or at the path itself, when it no longer exists).
 * @returns false when none was recorded
 * @throws SessionError as recordTrust
 */
export function revokeTrust(path: string, env: Env): boolean {
  const record = readRecord(env, true) ?? {};
  const real = realOrNull(path) ?? path;
  if (record[real] === undefined) return false;
  const rest = { ...record };
  delete rest[real];
  write(env, rest);
  return true;
}

// --- internal ---

function digest(bytes: Buffer): string {
  // Required here: node:crypto is loaded only by a call whose workspace file holds a setting needing trust.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(bytes).digest('hex');
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The record's entries, or null when there is none. A record another user could have written (not ours, or writable
 * by group or others) or that is not one counts as none when only read (`strict` false), and is refused when it is to
 * be rewritten (`strict`): its entries would be lost.
 */
function readRecord(env: Env, strict: boolean): Record<string, TrustEntry> | null {
  const path = trustRecordPath(env);
  if (path === null) {
    if (strict)
      throw new SessionError('E_USAGE', 'Expected a home folder to keep the trust record in, got none (HOME unset)');
    return null;
  }
  let text: string;
  try {
    const stats = lstatSync(path);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stats.isFile() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o022) !== 0) {
      if (!strict) return null;
      throw new SessionError(
        'E_CORRUPT',
        `Expected the trust record ${show(path)} to be a file of yours that only you may write; remove it and trust again`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    if (error instanceof SessionError) throw error;
    if (!strict) return null;
    throw ioError(error, 'read the trust record', path);
  }
  const files = parseRecord(text);
  if (files === null && strict)
    throw new SessionError(
      'E_CORRUPT',
      `Expected the trust record ${show(path)} to hold {"files": {…}}, got something else; remove it and trust again`,
    );
  return files;
}

function parseRecord(text: string): Record<string, TrustEntry> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const files = typeof value === 'object' && value !== null ? (value as { files?: unknown }).files : undefined;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return null;
  const entries: Record<string, TrustEntry> = {};
  for (const [path, entry] of Object.entries(files as Record<string, unknown>)) {
    const { sha256, trusted_at, stamp } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<
      string,
      unknown
    >;
    if (typeof sha256 === 'string' && typeof trusted_at === 'string')
      entries[path] = { sha256, trusted_at, ...(typeof stamp === 'string' ? { stamp } : {}) };
  }
  return entries;
}

function write(env: Env, files: Record<string, TrustEntry>): void {
  const path = trustRecordPath(env)!;
  const folder = userDataFolder(env)!;
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    throw ioError(error, 'create the folder', folder);
  }
  writeFileAtomic(path, `${JSON.stringify({ files }, null, 2)}\n`);
}
