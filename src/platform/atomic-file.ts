import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCode, ioError } from './errno';
import { CREATE_NEW, PRIVATE_FILE } from './private-fs';
import { uniqueSuffix } from './random';

/**
 * Replaces `file` atomically: writes a unique temp file in the same folder, fsyncs it, renames it over
 * the target and fsyncs the folder. A reader sees the old content or the new, never a torn file.
 * @param options.durable false: no fsync (two fewer disk flushes), for caches that are checked on read and rebuilt
 *   when a crash loses or tears them
 * @throws SessionError E_IO (the previous content is intact and the temp file removed)
 */
export function writeFileAtomic(file: string, text: string, options: { readonly durable?: boolean } = {}): void {
  const durable = options.durable !== false;
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${uniqueSuffix()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, CREATE_NEW, PRIVATE_FILE);
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw ioError(error, 'write', file);
  }
  if (durable) fsyncDir(dir);
}

// --- internal ---

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
