import {
  closeSync,
  constants,
  fstatSync,
  fchmodSync,
  lstatSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import { joinPath } from '../platform/paths';
import { isSessionError } from '../core/errors';
import { errnoCode } from '../platform/errno';
import { ensurePrivateDir, markIgnored, PRIVATE_FILE } from '../platform/private-fs';

/**
 * A value for a log line: always double-quoted, with JSON's escapes plus `$`, backtick and `!` as \u escapes, so
 * a line never spans two lines and no part of it expands in a shell (a log appended to a shell file runs nothing).
 */
export function logValue(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  // JSON.stringify escapes quotes, backslashes and C0 controls; DEL, C1 controls and the Unicode line breaks it keeps.

  return JSON.stringify(text).replace(
    /[$`!\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Where a hook's line goes, and how large the log may grow before it is rotated. */
export interface LogOptions {
  /** Past this size the log is renamed to `<file>.1` (replacing the previous one) and a new one begun. */
  readonly maxBytes: number;
}

/**
 * Appends one line to `<dir>/<file>`, opened 0600 with O_NOFOLLOW. The folder (and its parent) are created 0700
 * only when the folder above them exists: a mistyped project folder is never created just to hold a log. A
 * link in place of the folder or the file is refused. A hook must never fail its host because of its log, so a
 * refused or failed write is reported on stderr (the host's debug log) once and otherwise ignored.
 */
export function appendLog(dir: string, file: string, line: string, options: LogOptions): void {
  const path = joinPath(dir, file);
  try {
    const ready = prepareFolder(dir);
    if (ready !== null) {
      report(path, ready);
      return;
    }
    // Belt and braces: values are quoted by logValue; nothing else in a line may break it or expand in a shell.
    // eslint-disable-next-line no-control-regex
    const safe = line.replace(/[\u0000-\u001f\u007f$`]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const bytes = Buffer.from(`${new Date().toISOString()} ${safe}\n`, 'utf8');
    let fd = openLog(path);
    if (fd === null) return;
    const size = fstatSync(fd).size;
    if (size > 0 && size + bytes.length > options.maxBytes) {
      fd = rotate(path, fd);
      if (fd === null) return;
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    report(path, error instanceof Error ? error.message : String(error));
  }
}

// --- internal ---

/** Null when `dir` is ready for the log; else why nothing is written. */
function prepareFolder(dir: string): string | null {
  const parent = dirname(dir);
  try {
    // The log folder and its parent (`.claude`) may be made; the folder above them must exist already. An existing
    // parent is used as it is (it may legitimately be a link, like macOS's /tmp); the log folder itself never is.
    if (!exists(parent)) {
      if (!isFolder(dirname(parent))) return 'its project folder does not exist (nothing created)';
      ensurePrivateDir(parent, false);
    } else if (basename(parent) === '.claude' && lstatSync(parent).isSymbolicLink()) {
      // A linked `.claude/` would carry the log elsewhere: nothing is created through a linked folder (as the store).
      return `\`${parent}\` is a symbolic link; nothing is written through it`;
    }
    // A log folder made now is kept out of git from its first line.
    if (ensurePrivateDir(dir, false)) markIgnored(dir);
  } catch (error) {
    if (isSessionError(error)) return error.message;
    throw error;
  }
  return null;
}

const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The log opened for appending (created 0600), or null when it is refused (a link, not a regular file). */
function openLog(path: string): number | null {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted as the log must not hang the hook; fstat refuses it below.
    fd = openSync(path, APPEND_FLAGS, PRIVATE_FILE);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ELOOP') return refuse(path, 'it is a symbolic link (not followed)');
    if (code === 'ENXIO') return refuse(path, 'it is not a regular file');
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    return refuse(path, 'it is not a regular file');
  }
  // A log created before logs were private (or by hand) becomes private on its next line.
  if ((stats.mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE);
  return fd;
}

/** Renames the full log to `<path>.1` and opens a new one; another hook may have rotated it meanwhile. */
function rotate(path: string, fd: number): number | null {
  const inode = fstatSync(fd).ino;
  closeSync(fd);
  // Only the file we measured is rotated: a log another hook just began must not replace the full one.
  if (lstatSync(path).ino === inode) renameSync(path, `${path}.1`);
  return openLog(path);
}

function refuse(path: string, why: string): null {
  report(path, why);
  return null;
}

function report(path: string, why: string): void {
  process.stderr.write(`agent-session: not writing log ${path}: ${why}\n`);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}
