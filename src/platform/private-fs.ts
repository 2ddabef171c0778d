import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { SessionError } from '../core/errors';
import { errnoCode, ioError } from './errno';
import { writeFully } from './fd-write';
import { lstatOrNull } from './files';

/**
 * The flags every file we create is opened with: a new file only (`wx`), and never through a symbolic link. O_EXCL
 * already refuses an existing link; O_NOFOLLOW says so in the flags themselves, for every path that creates.
 */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Mode of every folder we create: private whatever the umask (a umask only ever removes bits). */
export const PRIVATE_DIR = 0o700;
/** Mode of every file we create. */
export const PRIVATE_FILE = 0o600;

/** The name of the file that keeps a folder of ours out of git. */
export const GITIGNORE = '.gitignore';

/**
 * What that file holds: `*` ignores everything in the folder, the file itself included (Python's venv writes the same),
 * so a `git add -A` never commits sessions, logs or backups, whoever wrote first (init, a hook, a command).
 */
export const IGNORE_ALL = '# Written by agent-session: nothing in this folder belongs in git.\n*\n';

/**
 * Writes `<dir>/.gitignore` (IGNORE_ALL) unless there is one: a folder agent-session made is ignored by git from its
 * first write. Best effort: a folder where it cannot be written still works (the write that made it goes on).
 */
export function markIgnored(dir: string): void {
  try {
    writeNewFile(`${dir}/${GITIGNORE}`, IGNORE_ALL);
  } catch {
    // EEXIST: one is there (ours or the user's, kept either way); anything else is not worth failing the write for.
  }
}

/**
 * Makes sure `dir` is a real folder (not a symbolic link), creating it 0700 when absent. Its parent must exist
 * unless `withParents`; then missing parents are created 0700 too, and a parent made here (a store root, whose
 * `.agents`, `.claude-agents` or `.locks` folder `dir` is) is marked ignored by git (markIgnored).
 * @returns true when `dir` was created now
 * @throws SessionError E_REFUSED when `dir` is a symbolic link or not a folder, E_NOT_FOUND when the parent is
 *   missing (without `withParents`), E_IO otherwise
 */
export function ensurePrivateDir(dir: string, withParents = false): boolean {
  // Looked at first: it exists on every call but the first, and a refused mkdir (EEXIST) builds an error each time.
  let stats = lstatOrNull(dir);
  let created = false;
  if (stats === null) {
    try {
      const first = mkdirSync(dir, { recursive: withParents, mode: PRIVATE_DIR });
      created = true;
      if (withParents && first !== undefined && first !== dir) markIgnored(dirname(dir));
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') throw new SessionError('E_NOT_FOUND', `Folder \`${dirname(dir)}\` does not exist`);
      if (code !== 'EEXIST') throw ioError(error, 'create the folder', dir);
    }
    stats = lstatOrNull(dir);
    if (stats === null) throw new SessionError('E_NOT_FOUND', `Folder \`${dir}\` was removed as it was made`);
  }
  if (stats.isSymbolicLink())
    throw new SessionError('E_REFUSED', `\`${dir}\` is a symbolic link; nothing is written through it`);
  if (!stats.isDirectory()) throw new SessionError('E_REFUSED', `\`${dir}\` is not a folder; nothing is written there`);
  return created;
}

/**
 * Creates `file` (0600, never through a link, never over an existing entry) holding `text`, flushed (fsync) before it
 * is closed when `flush`. A file created but not written whole (a full disk, a size limit) is removed again: nothing
 * is left that looks written. Errors are Node's own, as writeFileSync's (which takes only string flags in its types, so
 * cannot say O_NOFOLLOW): the create's, else the write's, never the clean-up's.
 */
export function writeNewFile(file: string, text: string, flush = false): void {
  const fd = openSync(file, CREATE_NEW, PRIVATE_FILE);
  try {
    writeFully(fd, text);
    if (flush) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(file);
    } catch {
      // The write's error is what the caller must hear; a file we could not remove is the lesser fault.
    }
    throw error;
  }
  closeSync(fd);
}

/** True when `path` is a symbolic link (absent: false). */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw ioError(error, 'inspect', path);
  }
}
