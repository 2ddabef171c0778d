/**
 * A value for a log line: always double-quoted, with JSON's escapes plus `$`, backtick and `!` as \u escapes, so
 * a line never spans two lines and no part of it expands in a shell (a log appended to a shell file runs nothing).
 */
export declare function logValue(value: unknown): string;
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
export declare function appendLog(dir: string, file: string, line: string, options: LogOptions): void;
