import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { joinPath } from './paths';
import { errnoCode, ioError } from './errno';
import { writeNewFile } from './private-fs';
import { uniqueSuffix } from './random';

/** How a temp file beside its target is named: `.<name>.<pid>.<hex>.tmp` (hidden) or `<name>.<pid>.<hex>.tmp` (suffix). */
export type TempName = 'hidden' | 'suffix';

/**
 * Replaces `file` atomically: writes a unique temp file in the same folder, fsyncs it, renames it over
 * the target and fsyncs the folder. A reader sees the old content or the new, never a torn file.
 * @param options.durable false: no fsync (two fewer disk flushes), for caches that are checked on read and rebuilt
 *   when a crash loses or tears them
 * @param options.syncFolder false (with durable): the file is flushed but not the folder; the caller flushes the folder
 *   once after several such writes (syncFolder), before anything that must come after them
 * @param options.temp the temp file's name: `.<name>.<pid>.<hex>.tmp` (hidden, the default) or `<name>.<pid>.<hex>.tmp`
 *   (suffix), as the sweep of that folder knows it
 * @throws SessionError E_IO (the previous content is intact and the temp file removed)
 */
export function writeFileAtomic(
  file: string,
  text: string,
  options: { readonly durable?: boolean; readonly syncFolder?: boolean; readonly temp?: TempName } = {},
): void {
  const durable = options.durable !== false;
  const dir = dirname(file);
  const tmp = tempFor(file, options.temp);
  try {
    writeNewFile(tmp, text, durable);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw ioError(error, 'write', file);
  }
  if (durable && options.syncFolder !== false) syncFolder(dir);
}

/**
 * Creates `file` holding `text` only when nothing is there (a temp file linked into place, so a reader never sees it
 * half written and an existing file is never replaced). Not flushed: the caller syncs what it must (syncFile). `temp`
 * as writeFileAtomic's.
 * @returns false when `file` already existed (left as it was)
 * @throws SessionError E_IO
 */
export function createFileAtomic(file: string, text: string, temp?: TempName): boolean {
  const tmp = tempFor(file, temp);
  let created: boolean;
  try {
    writeNewFile(tmp, text);
    try {
      linkSync(tmp, file);
      created = true;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      created = false;
    }
    unlinkSync(tmp);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw ioError(error, 'write', file);
  }
  return created;
}

/**
 * Flushes a file that is already written (fsync) and never through a link: cheap when the kernel wrote it back already.
 * @returns false when it is absent
 * @throws SessionError E_IO
 */
export function syncFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    fsyncSync(fd);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(error, 'sync', file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Flushes a folder (fsync): the names created, renamed or removed in it so far outlive a crash of the machine.
 * @throws SessionError E_IO
 */
export function syncFolder(dir: string): void {
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

// --- internal ---

function tempFor(file: string, temp: TempName = 'hidden'): string {
  return temp === 'suffix'
    ? `${file}.${uniqueSuffix()}.tmp`
    : joinPath(dirname(file), `.${basename(file)}.${uniqueSuffix()}.tmp`);
}
