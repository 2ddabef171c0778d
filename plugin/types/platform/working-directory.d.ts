/** What a message says when the working directory cannot be named (see workingDirectory). */
export declare const NO_WORKING_DIRECTORY = "the working directory was removed (or its path is too long to name)";
/**
 * The process's working directory, or undefined when it cannot be named: it was removed (a deleted worktree or temp
 * project: ENOENT), or its path is longer than getcwd returns (ERANGE). `process.cwd()` throws then; called by an
 * entry point before its guard, that would end a hook with a stack trace. Without it, only absolute paths resolve
 * (resolveFrom).
 * @throws the error of any other failure (none is known on Linux)
 */
export declare function workingDirectory(): string | undefined;
/**
 * `path` made absolute against `cwd`, the working directory. Without one (see workingDirectory) an absolute path is
 * still used as it is: only a relative one has nothing to start from, and is refused rather than guessed.
 * @param what how a message names the value (`` `--dir` ``)
 * @throws SessionError E_IO for a relative path when there is no working directory
 */
export declare function resolveFrom(cwd: string | undefined, path: string, what: string): string;
