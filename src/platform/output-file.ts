import { linkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SessionError } from '../core/errors';
import { errnoCode, ioError } from './errno';
import { writeFileAtomic } from './atomic-file';
import { writeNewFile } from './private-fs';
import { uniqueSuffix } from './random';

/** link(2)'s refusals on a file system without hard links (FAT, some network and FUSE mounts). */
const NO_HARD_LINKS: ReadonlySet<string | undefined> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Writes a generated file (a report) named by `--out`: a new file (0600, never through a link) unless `replace`
 * says the user asked to replace an existing one, which is then swapped atomically (a reader sees the old file or
 * the new, and a link at that name is replaced, never written through).
 * @throws SessionError E_DUPLICATE when the file exists and `replace` is false (nothing written), E_IO otherwise
 */
export function writeOutputFile(path: string, text: string, replace: boolean): void {
  if (replace) {
    writeFileAtomic(path, text);
    return;
  }
  if (!writeNewOutputFile(path, text))
    throw new SessionError(
      'E_DUPLICATE',
      `Expected \`--out\` to name a new file, got \`${path}\` which exists (add --force to replace it)`,
    );
}

/**
 * Creates the file `path` holding `text`, never over an existing entry and never through a link: written whole to a
 * hidden temp file beside it, flushed, then linked to its name (link(2) refuses an existing name, as O_EXCL does), as
 * state.json is created. A write that fails (a full disk, a size limit) leaves nothing, so the same command simply runs
 * again; a reader never sees the file half written. On a file system without hard links the file is created at its
 * name directly (removed again when its write fails).
 * @returns false when `path` already exists (left as it was)
 * @throws SessionError E_IO naming `path`
 */
export function writeNewOutputFile(path: string, text: string): boolean {
  const tmp = join(dirname(path), `.${basename(path)}.${uniqueSuffix()}.tmp`);
  try {
    // writeNewFile removes the temp file itself when its write fails.
    writeNewFile(tmp, text, true);
  } catch (error) {
    throw ioError(error, 'write', path);
  }
  let refused: string | undefined;
  try {
    linkSync(tmp, path);
  } catch (error) {
    refused = errnoCode(error) ?? 'unknown';
    if (refused !== 'EEXIST' && !NO_HARD_LINKS.has(refused)) {
      removeTemp(tmp);
      throw ioError(error, 'write', path);
    }
  }
  removeTemp(tmp);
  if (refused === undefined) return true;
  if (refused === 'EEXIST') return false;
  // No hard links here: the file is created at its name, as it was before links were used.
  try {
    writeNewFile(path, text, true);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw ioError(error, 'write', path);
  }
}

// --- internal ---

/** Removes the temp file once it is linked or given up. */
function removeTemp(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    // The file itself is written (or the real failure is being reported): a stray hidden temp file is the lesser fault.
  }
}
