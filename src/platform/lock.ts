import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { SessionError } from '../core/errors';
import { errnoCode, ioError } from './errno';
import { writeNewFile } from './private-fs';
import { uniqueSuffix } from './random';
import { sleepMs } from './sleep';

/** Options of the per-session lock. */
export interface LockOptions {
  /** Give up (E_BUSY) after this long. */
  readonly timeoutMs: number;
  /** A lock this old is taken over even if its owner looks alive (the pid may have been reused). */
  readonly staleMs: number;
}

export const DEFAULT_LOCK_OPTIONS: LockOptions = { timeoutMs: 5000, staleMs: 10_000 };

/**
 * Takes an exclusive lock file and returns its release function. The lock is published with link(), so it
 * is never seen empty. A lock whose owner died is recovered; on Linux "died" is checked against the owner's
 * start time in /proc, so a reused pid never keeps a dead lock alive and a slow live owner is never robbed.
 * No timers, so a short-lived process stays short.
 * @throws SessionError E_NOT_FOUND when the folder is gone, E_BUSY on timeout, E_IO otherwise
 */
export function acquireLock(lockFile: string, options: LockOptions = DEFAULT_LOCK_OPTIONS): () => void {
  const token = `${process.pid} ${ownStartTime() ?? '-'} ${Date.now()} ${uniqueSuffix()}`;
  const deadline = Date.now() + options.timeoutMs;
  const draft = `${lockFile}.${uniqueSuffix()}.tmp`;
  try {
    // A draft that could not be written whole (a full disk) is removed by writeNewFile itself; none was made when the
    // create failed (a read-only store), so there is nothing to remove, and nothing to misname as the failure.
    writeNewFile(draft, token);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT')
      throw new SessionError('E_NOT_FOUND', `Session folder \`${dirname(lockFile)}\` does not exist`);
    throw ioError(error, 'write the lock file', lockFile);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      linkSync(draft, lockFile);
      unlinkQuiet(draft);
      return () => releaseLock(lockFile, token);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'EEXIST') {
        unlinkQuiet(draft);
        if (code === 'ENOENT')
          throw new SessionError('E_NOT_FOUND', `Session folder \`${dirname(lockFile)}\` was removed`);
        throw ioError(error, 'lock', lockFile);
      }
    }
    if (recoverStaleLock(lockFile, token, options.staleMs)) continue;
    if (Date.now() >= deadline) {
      unlinkQuiet(draft);
      throw new SessionError('E_BUSY', `Session is locked by another process (\`${lockFile}\`); try again`);
    }
    sleepMs(Math.min(50, 2 ** Math.min(attempt, 5)) + Math.random() * 3);
  }
}

/**
 * Removes a lock file whose owner is gone (killed while holding it), as a waiter would recover it; a lock of a
 * live owner is left alone. For `sweep`: locks that are removed on release only pile up when their owner died.
 * @returns true when it was removed
 */
export function removeDeadLock(lockFile: string, staleMs = DEFAULT_LOCK_OPTIONS.staleMs): boolean {
  if (!isDeadLock(lockFile, staleMs)) return false;
  return recoverStaleLock(lockFile, `${process.pid} sweep ${uniqueSuffix()}`, staleMs) && readLock(lockFile) === null;
}

/** True when `lockFile` is a lock whose owner is gone: what removeDeadLock would remove (for a dry run). */
export function isDeadLock(lockFile: string, staleMs = DEFAULT_LOCK_OPTIONS.staleMs): boolean {
  const content = readLock(lockFile);
  return content !== null && ownerGone(content, staleMs);
}

// --- internal ---

function releaseLock(lockFile: string, token: string): void {
  const current = readLock(lockFile);
  // Only remove our own lock: a stale-lock recovery elsewhere may already have replaced it.
  if (current === token) unlinkQuiet(lockFile);
}

function readLock(lockFile: string): string | null {
  let fd: number;
  try {
    // Never through a link (it could point outside the store, or at a FIFO that blocks forever).
    fd = openSync(lockFile, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    // Not a lock we made: its content means no owner, so it is recovered as stale.
    if (code === 'ELOOP') return '';
    throw ioError(error, 'read', lockFile);
  }
  try {
    // Anything but a regular file (a folder, a FIFO) was not made by us: no owner, recovered as stale.
    if (!fstatSync(fd).isFile()) return '';
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw ioError(error, 'read', lockFile);
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock when its owner is gone; true when the caller should try to take it again at once. */
function recoverStaleLock(lockFile: string, token: string, staleMs: number): boolean {
  const content = readLock(lockFile);
  if (content === null) return true; // released meanwhile
  if (!ownerGone(content, staleMs)) return false;
  // Breakers take turns through `<lock>.break`, and remove the lock only while it still holds the content
  // judged stale: a breaker that read an old lock can never remove a lock taken after its read.
  const breaker = `${lockFile}.break`;
  try {
    writeNewFile(breaker, token);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw ioError(error, 'recover lock', lockFile);
    // A breaker holds `.break` for microseconds; one older than this died while holding it.
    if (ageMs(breaker) > BREAKER_STALE_MS) unlinkQuiet(breaker);
    return false;
  }
  try {
    // rm, not unlink: a stray folder named like the lock is recovered too (rm never follows links).
    if (readLock(lockFile) === content) rmSync(lockFile, { recursive: true, force: true });
  } finally {
    unlinkQuiet(breaker);
  }
  return true;
}

const BREAKER_STALE_MS = 2000;

/** Whether the process that wrote lock `content` is gone. */
function ownerGone(content: string, staleMs: number): boolean {
  const [pidText, startText, atText] = content.split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  const start = processStartTime(pid);
  if (start === null) return true; // no such process
  if (start !== undefined) return startText !== '-' && start !== startText; // the pid now names another process
  // Without /proc: trust kill(pid, 0), and take age as the guard against a reused pid.
  return !isAlive(pid) || !(Date.now() - Number(atText) <= staleMs);
}

/**
 * This process as a mark another process can judge later (processGone): `<pid>.<start time>`, the start time `-`
 * where this system has no /proc. For an in-process host that must tell its own runs from those of a process that
 * died (opencode's plugin: a killed run fires nothing).
 */
export function processMark(): string {
  return `${process.pid}.${ownStartTime() ?? '-'}`;
}

/**
 * Whether the process a mark names (processMark) is gone: its pid runs no more, or now names another process (its
 * start time differs). Without /proc, whether the pid answers a signal. A mark that is not one: false (not judged).
 */
export function processGone(mark: string): boolean {
  const [pidText, startText] = mark.split('.');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || startText === undefined) return false;
  const start = processStartTime(pid);
  if (start === null) return true;
  if (start !== undefined) return startText !== '-' && start !== startText;
  return !isAlive(pid);
}

let procAvailable: boolean | undefined;

let ownStart: { readonly value: string | null | undefined } | undefined;

/** This process's start time, read once: a hook takes two locks (the session's, its agent's pointer's). */
function ownStartTime(): string | null | undefined {
  ownStart ??= { value: processStartTime(process.pid) };
  return ownStart.value;
}

/**
 * A process's start time (field 22 of /proc/<pid>/stat): a string when it runs, null when it does not (a zombie, dead
 * and waiting for its parent to reap it, runs no more), undefined when this system has no /proc to ask.
 */
function processStartTime(pid: number): string | null | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A killed owner stays a zombie (state Z) until reaped, which a slow parent may put off for long: its lock is free.
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return fields[19] ?? undefined;
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ESRCH') return undefined;
    procAvailable ??= existsSync('/proc/self/stat');
    return procAvailable ? null : undefined;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - lstatSync(path).mtimeMs;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 0;
    throw ioError(error, 'inspect', path);
  }
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
