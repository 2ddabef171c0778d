import { lstatSync, mkdirSync, writeFileSync, type Stats } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { errnoCode } from '../../platform/errno';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../platform/private-fs';

/**
 * Where a user's relays listen: one private folder per OS user, one socket per database URL + schema + build in it.
 *
 * The folder is the trust boundary. Node cannot ask a unix socket who is at its other end (SO_PEERCRED needs a native
 * module), so a relay cannot check its clients and a client cannot check its relay's process: both rely on a folder
 * that only their user can enter (0700, owned by them, a real folder, never a link). A client checks the folder and
 * then the socket (a socket, owned by the user) before connecting; anything else there, or a folder another user made
 * first (a squatted `/tmp/agent-session-<uid>`), means no relay for this process: it connects directly.
 */

/** A relay's files: the private folder, the socket, and the relay's lock and start marker beside it. */
export interface RelayPlace {
  readonly dir: string;
  /** `relay-<key>.sock`. */
  readonly socket: string;
  /** `relay-<key>.lock`: held by a starting relay while it claims the socket. */
  readonly lock: string;
  /** `relay-<key>.starting`: made by the hook that starts a relay, so that hooks right after it do not start more. */
  readonly starting: string;
  /** The hash in the names (of the URL, schema and build: the password never appears in a name). */
  readonly key: string;
}

/** The relay folder's state: usable (`ok`), absent (a hook may make it), or refused with the reason. */
export type FolderVerdict =
  { readonly kind: 'ok' } | { readonly kind: 'absent' } | { readonly kind: 'refused'; why: string };

/**
 * The folder of this user's relays: `$XDG_RUNTIME_DIR/agent-session` when XDG_RUNTIME_DIR names a folder that is this
 * user's alone (the XDG rule: owned by the user, 0700), else `<TMPDIR or /tmp>/agent-session-<uid>`.
 */
export function relayFolder(env: Readonly<Record<string, string | undefined>>, uid: number = ownUid()): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && isAbsolute(runtime) && checkFolder(runtime, uid).kind === 'ok')
    return join(runtime, 'agent-session');
  const tmp = env.TMPDIR !== undefined && isAbsolute(env.TMPDIR) ? env.TMPDIR : '/tmp';
  return join(tmp, `agent-session-${uid}`);
}

/** The files of the relay for `url` + `schema` of build `build`, in `dir`. */
export function relayPlace(dir: string, url: string, schema: string, build: string): RelayPlace {
  const key = hashKey(JSON.stringify([url, schema, build]));
  const base = join(dir, `relay-${key}`);
  return { dir, socket: `${base}.sock`, lock: `${base}.lock`, starting: `${base}.starting`, key };
}

/**
 * The longest unix socket path Linux takes (sun_path is 108 bytes with its NUL); a longer one cannot be listened on,
 * so a folder that deep (a long TMPDIR) has no relay.
 */
export const MAX_SOCKET_PATH = 107;

/** Whether `dir` may hold this user's relays: a real folder, owned by `uid`, that no one else may enter. */
export function checkFolder(dir: string, uid: number = ownUid()): FolderVerdict {
  let stats: Stats | null;
  try {
    stats = statOrNull(dir);
  } catch (error) {
    return { kind: 'refused', why: `${dir} cannot be inspected (${errnoCode(error) ?? String(error)})` };
  }
  if (stats === null) return { kind: 'absent' };
  const why = privateFolder(stats, uid);
  return why === null ? { kind: 'ok' } : { kind: 'refused', why: `${dir} ${why}` };
}

/**
 * Makes the relay folder (0700) when absent, and checks it as checkFolder does (made by another user at the same
 * moment, it is refused all the same).
 */
export function ensureFolder(dir: string, uid: number = ownUid()): FolderVerdict {
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST')
      return { kind: 'refused', why: `${dir} cannot be made (${errnoCode(error) ?? String(error)})` };
  }
  return checkFolder(dir, uid);
}

/** The socket's state: a socket of this user (`ok`), absent, or something else there (refused). */
export function checkSocket(path: string, uid: number = ownUid()): FolderVerdict {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    return { kind: 'refused', why: `${path} is longer than a unix socket path may be (${MAX_SOCKET_PATH} bytes)` };
  let stats: Stats | null;
  try {
    stats = statOrNull(path);
  } catch (error) {
    return { kind: 'refused', why: `${path} cannot be inspected (${errnoCode(error) ?? String(error)})` };
  }
  if (stats === null) return { kind: 'absent' };
  if (!stats.isSocket()) return { kind: 'refused', why: `${path} is not a socket` };
  if (stats.uid !== uid) return { kind: 'refused', why: `${path} belongs to uid ${stats.uid}, not ${uid}` };
  return { kind: 'ok' };
}

/** How long a start marker holds back other starts: a relay starts in well under this (its driver, a connect). */
const STARTING_MS = 10_000;

/**
 * Marks a relay as starting, unless a marker younger than STARTING_MS says one already is (hooks that find no relay
 * right after one was started do not start more).
 * @returns true when this process is to start it
 */
export function markStarting(marker: string, nowMs: number = Date.now()): boolean {
  try {
    if (nowMs - lstatSync(marker).mtimeMs < STARTING_MS) return false;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return false;
  }
  // In the private folder (only this user can write there): replacing an old marker is safe.
  writeFileSync(marker, `${process.pid}\n`, { mode: PRIVATE_FILE });
  return true;
}

/** This process's user id (the relay folder is per user). */
export function ownUid(): number {
  return process.getuid?.() ?? 0;
}

// --- internal ---

/** Why `stats` is not a folder private to `uid`, or null when it is. */
function privateFolder(stats: Stats | null, uid: number): string | null {
  if (stats === null) return 'does not exist';
  if (stats.isSymbolicLink()) return 'is a symbolic link';
  if (!stats.isDirectory()) return 'is not a folder';
  if (stats.uid !== uid) return `belongs to uid ${stats.uid}, not ${uid}`;
  if ((stats.mode & 0o077) !== 0) return `is open to others (mode ${(stats.mode & 0o777).toString(8)}, expected 700)`;
  return null;
}

/** The entry itself (never through a link), or null when absent. @throws Node's error otherwise (EACCES…) */
function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * 64 bits of a string as 16 hex digits (two 32-bit FNV-1a with different offsets): no node:crypto on the hook path
 * (its load costs ~15 M instructions). Not a secret: only the folder's owner can list it, and the hello compares the
 * URL itself, so two URLs that collide only share a name (the second is refused and connects directly).
 */
function hashKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
