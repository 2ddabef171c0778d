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
export declare function entryAt(path: string): Entry | null;
/**
 * The names of the real folders in `dir` (not the symbolic links to one, nor files), sorted; null when `dir` is absent.
 * @throws SessionError E_IO for any other failure to list it
 */
export declare function folderNames(dir: string): string[] | null;
/** Opens a regular file for reading without following a link; null when absent, a link or not a regular file. */
export declare function openRegular(path: string): {
    fd: number;
    size: number;
} | null | 'not-a-file';
/**
 * The first line of the regular file at `path` (without its newline), read in chunks up to that newline and never
 * past `maxBytes` (a large file costs what its first line does); null when the file is absent, a symbolic link or not
 * a regular file, or its first line is longer than `maxBytes`.
 * @throws SessionError E_IO for any other failure to read it
 */
export declare function firstLine(path: string, maxBytes: number): string | null;
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
export declare function copyNewFile(from: string, to: string, maxBytes: number, options?: {
    readonly wholeLines?: boolean;
}): CopyOutcome;
