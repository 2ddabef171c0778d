/**
 * The flags every file we create is opened with: a new file only (`wx`), and never through a symbolic link. O_EXCL
 * already refuses an existing link; O_NOFOLLOW says so in the flags themselves, for every path that creates.
 */
export declare const CREATE_NEW: number;
/** Mode of every folder we create: private whatever the umask (a umask only ever removes bits). */
export declare const PRIVATE_DIR = 448;
/** Mode of every file we create. */
export declare const PRIVATE_FILE = 384;
/** The name of the file that keeps a folder of ours out of git. */
export declare const GITIGNORE = ".gitignore";
/**
 * What that file holds: `*` ignores everything in the folder, the file itself included (Python's venv writes the same),
 * so a `git add -A` never commits sessions, logs or backups, whoever wrote first (init, a hook, a command).
 */
export declare const IGNORE_ALL = "# Written by agent-session: nothing in this folder belongs in git.\n*\n";
/**
 * Writes `<dir>/.gitignore` (IGNORE_ALL) unless there is one: a folder agent-session made is ignored by git from its
 * first write. Best effort: a folder where it cannot be written still works (the write that made it goes on).
 */
export declare function markIgnored(dir: string): void;
/**
 * Makes sure `dir` is a real folder (not a symbolic link), creating it 0700 when absent. Its parent must exist
 * unless `withParents`; then missing parents are created 0700 too, and a parent made here (a store root, whose
 * `.agents`, `.claude-agents` or `.locks` folder `dir` is) is marked ignored by git (markIgnored).
 * @returns true when `dir` was created now
 * @throws SessionError E_REFUSED when `dir` is a symbolic link or not a folder, E_NOT_FOUND when the parent is
 *   missing (without `withParents`), E_IO otherwise
 */
export declare function ensurePrivateDir(dir: string, withParents?: boolean): boolean;
/**
 * Creates `file` (0600, never through a link, never over an existing entry) holding `text`, flushed (fsync) before it
 * is closed when `flush`. A file created but not written whole (a full disk, a size limit) is removed again: nothing
 * is left that looks written. Errors are Node's own, as writeFileSync's (which takes only string flags in its types, so
 * cannot say O_NOFOLLOW): the create's, else the write's, never the clean-up's.
 */
export declare function writeNewFile(file: string, text: string, flush?: boolean): void;
/** True when `path` is a symbolic link (absent: false). */
export declare function isSymbolicLink(path: string): boolean;
