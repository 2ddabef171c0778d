import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import { syncFolder } from './atomic-file';
import { errnoCode, ioError } from './errno';
import { joinPath } from './paths';
import { CREATE_NEW, PRIVATE_FILE } from './private-fs';
import { uniqueSuffix } from './random';
import { readCapped } from './read-capped';

/**
 * Opened for reading, never through a symbolic link (ELOOP), never blocking on a FIFO someone put in a file's place
 * (O_NONBLOCK: a FIFO then opens and reads as empty, and fstat says it is no file).
 */
const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What an entry is (lstat: a symbolic link is not followed), its size and last change. */
export interface Entry {
  readonly kind: 'file' | 'symlink' | 'folder' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * The entry at `path` as lstat sees it, or null when it is absent (or a part of its path is a file).
 * @throws SessionError E_IO for any other failure to look
 */
export function entryAt(path: string): Entry | null {
  try {
    const stats = lstatSync(path);
    const kind = stats.isSymbolicLink()
      ? 'symlink'
      : stats.isFile()
        ? 'file'
        : stats.isDirectory()
          ? 'folder'
          : 'other';
    return { kind, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw ioError(error, 'inspect', path);
  }
}

/**
 * The names of the real folders in `dir` (not the symbolic links to one, nor files), sorted; null when `dir` is absent.
 * @throws SessionError E_IO for any other failure to list it
 */
export function folderNames(dir: string): string[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw ioError(error, 'list', dir);
  }
}

/** Opens a regular file for reading without following a link; null when absent, a link or not a regular file. */
export function openRegular(path: string): { fd: number; size: number } | null | 'not-a-file' {
  let fd: number;
  try {
    fd = openSync(path, READ_NO_FOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    // ELOOP: the last part of the path is a symbolic link (O_NOFOLLOW); EISDIR cannot happen read-only, but says so.
    if (code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') return 'not-a-file';
    throw ioError(error, 'open', path);
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    return 'not-a-file';
  }
  return { fd, size: stats.size };
}

/**
 * The first line of the regular file at `path` (without its newline), read in chunks up to that newline and never
 * past `maxBytes` (a large file costs what its first line does); null when the file is absent, a symbolic link or not
 * a regular file, or its first line is longer than `maxBytes`.
 * @throws SessionError E_IO for any other failure to read it
 */
export function firstLine(path: string, maxBytes: number): string | null {
  const opened = openRegular(path);
  if (opened === null || opened === 'not-a-file') return null;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(16 * 1024, maxBytes + 1 - total));
      const read = readSync(opened.fd, chunk, 0, chunk.length, null);
      const end = chunk.subarray(0, read).indexOf(0x0a);
      if (end >= 0) {
        chunks.push(chunk.subarray(0, end));
        return total + end > maxBytes ? null : Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return null;
      if (read === 0) return Buffer.concat(chunks, total).toString('utf8');
    }
  } catch (error) {
    throw ioError(error, 'read', path);
  } finally {
    closeSync(opened.fd);
  }
}

/** What copyNewFile did. */
export type CopyOutcome = 'copied' | 'exists' | 'absent' | 'not-a-file' | 'too-large' | 'empty';

/**
 * Copies the regular file `from` to `to`, which must not exist: read without following a link, written to a private
 * temp file beside `to` (0600, created new: O_EXCL | O_NOFOLLOW) and flushed, then linked into place, which fails
 * rather than replace anything there (an entry made meanwhile included); the folder is flushed after. A reader sees
 * `to` absent or whole. `from` is read no further than `maxBytes`; with `wholeLines`, a last line without its newline
 * (one being appended as it is read) is left out.
 * @returns `copied`; `exists` when `to` was there (left as it was); `absent`, `not-a-file` (a symbolic link, a folder,
 *   a FIFO…), `too-large` or `empty` (no whole line, with `wholeLines`) for `from`, with nothing written
 * @throws SessionError E_IO for any other failure (the temp file removed, `to` untouched)
 */
export function copyNewFile(
  from: string,
  to: string,
  maxBytes: number,
  options: { readonly wholeLines?: boolean } = {},
): CopyOutcome {
  if (entryAt(to) !== null) return 'exists';
  const opened = openRegular(from);
  if (opened === null) return 'absent';
  if (opened === 'not-a-file') return opened;
  let data: Buffer;
  try {
    if (opened.size > maxBytes) return 'too-large';
    const read = readCapped(opened.fd, maxBytes);
    if (read === 'too-large') return read;
    data = read;
  } catch (error) {
    throw ioError(error, 'read', from);
  } finally {
    closeSync(opened.fd);
  }
  if (options.wholeLines === true) data = data.subarray(0, data.lastIndexOf(0x0a) + 1);
  if (data.length === 0) return 'empty';
  const tmp = joinPath(dirname(to), `.${basename(to)}.${uniqueSuffix()}.tmp`);
  let outcome: CopyOutcome = 'copied';
  try {
    const fd = openSync(tmp, CREATE_NEW, PRIVATE_FILE);
    try {
      for (let written = 0; written < data.length;) written += writeSync(fd, data, written, data.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, to);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      outcome = 'exists';
    }
    unlinkSync(tmp);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw ioError(error, 'copy to', to);
  }
  if (outcome === 'copied') syncFolder(dirname(to));
  return outcome;
}
