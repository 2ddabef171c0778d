/**
 * Starts `command args…` detached from this process (its own process group, not waited for, not holding this process
 * open), its stdout and stderr appended to `logFile` (created 0600 in a 0700 folder made when absent; never through a
 * link). A failure to start is
 * swallowed: the caller's own work (a hook's answer, a command's) must not depend on it.
 */
export declare function spawnDetached(command: string, args: readonly string[], options: {
    cwd: string | undefined;
    env: Readonly<Record<string, string | undefined>>;
    logFile: string;
}): void;
/**
 * Claims `key` once in the folder `dir` (created 0700): true for the first caller, on any process of this machine,
 * false for every later one. The marker is an empty file named by the key's SHA-256.
 * @throws SessionError E_IO when the folder cannot be made or the marker written for another reason than existing
 */
export declare function claimOnce(dir: string, key: string): boolean;
