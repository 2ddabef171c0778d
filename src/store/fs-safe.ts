import { closeSync, constants, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SessionError } from '../core/errors';

/** The Node error code of `error`, when it has one. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Wraps a file-system failure that is not "absent" into E_IO, naming the path. */
export function ioError(error: unknown, action: string, path: string): SessionError {
  const code = errnoCode(error) ?? 'unknown error';
  const detail = code === 'ENOSPC' ? 'no space left on device' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : code;
  return new SessionError('E_IO', `Could not ${action} \`${path}\`: ${detail}`, { cause: error });
}

/**
 * A unique suffix for temp names: pid plus random hex, so parallel writers never share a temp file.
 * Math.random, not Web Crypto: the names need no secrecy (files are opened with `wx`, never followed), and the
 * first `globalThis.crypto` use loads the WebCrypto modules, ~2.5 ms of a hook's ~10 ms budget.
 */
export function uniqueSuffix(): string {
  return `${process.pid}.${Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0')}`;
}

/**
 * Replaces `file` atomically: writes a unique temp file in the same folder, fsyncs it, renames it over
 * the target and fsyncs the folder. A reader sees the old content or the new, never a torn file.
 * @throws SessionError E_IO (the previous content is intact and the temp file removed)
 */
export function writeFileAtomic(file: string, text: string): void {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${uniqueSuffix()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw ioError(error, 'write', file);
  }
  fsyncDir(dir);
}

/** Reads a regular file as strict UTF-8 without following a symbolic link; null when absent. */
export function readRegularFile(file: string): { readonly text: string } | { readonly problem: string } | null {
  let buffer: Buffer;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      buffer = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return { problem: 'state.json is a symbolic link (not followed)' };
    if (code === 'EISDIR') return { problem: 'state.json is a folder, not a file' };
    throw ioError(error, 'read', file);
  }
  try {
    return { text: strictUtf8().decode(buffer) };
  } catch {
    // TextDecoder's only failure mode with `fatal` is malformed input.
    return { problem: 'state.json is not valid UTF-8' };
  }
}

/** Options of the per-session lock. */
export interface LockOptions {
  /** Give up (E_BUSY) after this long. */
  readonly timeoutMs: number;
  /** A lock this old is taken over even if its owner looks alive (the pid may have been reused). */
  readonly staleMs: number;
}

export const DEFAULT_LOCK_OPTIONS: LockOptions = { timeoutMs: 5000, staleMs: 10_000 };

/**
 * Takes an exclusive lock file (O_EXCL create) and returns its release function. A lock whose owner
 * died, or that is older than `staleMs`, is recovered. No timers, so a short-lived process stays short.
 * @throws SessionError E_NOT_FOUND when the folder is gone, E_BUSY on timeout, E_IO otherwise
 */
export function acquireLock(lockFile: string, options: LockOptions = DEFAULT_LOCK_OPTIONS): () => void {
  const token = `${process.pid} ${Date.now()} ${uniqueSuffix()}`;
  const deadline = Date.now() + options.timeoutMs;
  const draft = `${lockFile}.${uniqueSuffix()}.tmp`;
  try {
    writeFileSync(draft, token, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw new SessionError('E_NOT_FOUND', `Session folder \`${dirname(lockFile)}\` does not exist`);
    throw ioError(error, 'lock', lockFile);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      // link() publishes the lock with its content in one step: nobody ever sees an empty lock file.
      linkSync(draft, lockFile);
      unlinkQuiet(draft);
      return () => releaseLock(lockFile, token);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'EEXIST') {
        unlinkQuiet(draft);
        if (code === 'ENOENT') throw new SessionError('E_NOT_FOUND', `Session folder \`${dirname(lockFile)}\` was removed`);
        throw ioError(error, 'lock', lockFile);
      }
    }
    if (recoverStaleLock(lockFile, options.staleMs)) continue;
    if (Date.now() >= deadline) {
      unlinkQuiet(draft);
      throw new SessionError('E_BUSY', `Session is locked by another process (\`${lockFile}\`); try again`);
    }
    sleepMs(Math.min(50, 2 ** Math.min(attempt, 5)) + Math.random() * 3);
  }
}

/** Blocks the thread without a timer: the CLI and hooks are synchronous, short-lived processes. */
export function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// --- internal ---

let decoder: InstanceType<typeof TextDecoder> | undefined;

/** One decoder for every read: a listing of 10,000 sessions would otherwise build 10,000 of them. */
function strictUtf8(): InstanceType<typeof TextDecoder> {
  return (decoder ??= new TextDecoder('utf-8', { fatal: true }));
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    // Some file systems refuse fsync on a folder (EINVAL/EISDIR); the rename itself already happened.
    const code = errnoCode(error);
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw ioError(error, 'sync', dir);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function releaseLock(lockFile: string, token: string): void {
  const current = readLock(lockFile);
  // Only remove our own lock: a stale-lock recovery elsewhere may already have replaced it.
  if (current === token) unlinkQuiet(lockFile);
}

function readLock(lockFile: string): string | null {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'read', lockFile);
  }
}

function recoverStaleLock(lockFile: string, staleMs: number): boolean {
  const content = readLock(lockFile);
  if (content === null) return true; // released meanwhile: try again at once
  const [pidText, atText] = content.split(' ');
  const pid = Number(pidText);
  const at = Number(atText);
  const ownerDead = !Number.isInteger(pid) || pid <= 0 || !isAlive(pid);
  const tooOld = !Number.isFinite(at) || Date.now() - at > staleMs;
  if (!ownerDead && !tooOld) return false;
  // Move the stale lock aside under a unique name first, so two recoverers cannot both delete a fresh lock.
  const aside = `${lockFile}.stale.${uniqueSuffix()}`;
  try {
    renameSync(lockFile, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return true;
    throw ioError(error, 'recover lock', lockFile);
  }
  if (readLock(aside) !== content) {
    // We moved a lock someone took after our read: put it back unless a newer one exists.
    try {
      linkSync(aside, lockFile);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw ioError(error, 'restore lock', lockFile);
    }
  }
  unlinkQuiet(aside);
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errnoCode(error) === 'EPERM';
  }
}

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', file);
  }
}
