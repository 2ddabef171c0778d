import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { errnoCode, ioError } from './errno';

/** A git repository as found from a folder inside it: its top (the folder holding `.git`) and its config's text. */
export interface GitRepository {
  /** The folder holding `.git` (a real path). */
  readonly top: string;
  /** The text of the repository's config file, or null when it has none. */
  readonly config: string | null;
}

/** Git config files larger than this are not read (no real one comes near). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The folder's real path (links resolved), or the path itself made absolute when it does not exist.
 * @throws SessionError E_IO when it cannot be resolved for another reason
 */
export function realFolder(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return resolve(folder);
    throw ioError(error, 'resolve', folder);
  }
}

/**
 * The git repository holding `folder` (a real path): the nearest ancestor (itself included) with a `.git` folder or
 * `.git` file (a worktree or submodule: `gitdir: <path>`, whose `commondir` names the folder holding the shared
 * config), and its config's text. Read directly, without running git: a hook pays a few system calls, not a process.
 * @returns null when no ancestor holds a `.git`
 * @throws SessionError E_IO when a `.git` or its config exists but cannot be read
 */
export function gitRepositoryOf(folder: string): GitRepository | null {
  for (let dir = folder; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'folder') return { top: dir, config: readSmall(join(dotGit, 'config')) };
    if (kind === 'file') {
      const pointer = gitDirOf(readSmall(dotGit) ?? '');
      // A `.git` file that names no git folder is not a repository's: git stops there too.
      if (pointer === null) return { top: dir, config: null };
      const gitDir = resolve(dir, pointer);
      const common = readSmall(join(gitDir, 'commondir'))?.trim();
      const shared = common === undefined || common === '' ? gitDir : resolve(gitDir, common);
      return { top: dir, config: readSmall(join(shared, 'config')) };
    }
    if (dirname(dir) === dir) return null;
  }
}

// --- internal ---

/** The folder a `.git` file names (`gitdir: <path>`), or null. */
function gitDirOf(text: string): string | null {
  const line = text.split('\n').find((candidate) => candidate.startsWith('gitdir:'));
  const path = line?.slice('gitdir:'.length).trim();
  return path === undefined || path === '' ? null : path;
}

/** What is at `path`: a folder or a file (through links, as git looks), else nothing to go by. */
function entryKind(path: string): 'folder' | 'file' | 'none' {
  try {
    const stats = lstatSync(path);
    if (stats.isDirectory()) return 'folder';
    if (stats.isFile()) return 'file';
    if (!stats.isSymbolicLink()) return 'none';
    return entryKind(realpathSync.native(path));
  } catch (error) {
    const code = errnoCode(error);
    // An ancestor we may not look into cannot tell: the walk goes on upwards, as for `.claude/`.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'ELOOP') return 'none';
    throw ioError(error, 'inspect', path);
  }
}

/**
 * A small regular file's text, or null when it is absent. Opened without blocking: a FIFO in its place is not read (and
 * never waited on); a file past MAX_CONFIG_BYTES counts as absent.
 */
function readSmall(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw ioError(error, 'read', path);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_CONFIG_BYTES) return null;
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw ioError(error, 'read', path);
  } finally {
    closeSync(fd);
  }
}
