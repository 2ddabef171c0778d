/** Options of the per-session lock. */
export interface LockOptions {
    /** Give up (E_BUSY) after this long. */
    readonly timeoutMs: number;
    /** A lock this old is taken over even if its owner looks alive (the pid may have been reused). */
    readonly staleMs: number;
}
export declare const DEFAULT_LOCK_OPTIONS: LockOptions;
/**
 * Takes an exclusive lock file and returns its release function. The lock is published with link(), so it
 * is never seen empty. A lock whose owner died is recovered; on Linux "died" is checked against the owner's
 * start time in /proc, so a reused pid never keeps a dead lock alive and a slow live owner is never robbed.
 * No timers, so a short-lived process stays short.
 * @throws SessionError E_NOT_FOUND when the folder is gone, E_BUSY on timeout, E_IO otherwise
 */
export declare function acquireLock(lockFile: string, options?: LockOptions): () => void;
/**
 * Removes a lock file whose owner is gone (killed while holding it), as a waiter would recover it; a lock of a
 * live owner is left alone. For `sweep`: locks that are removed on release only pile up when their owner died.
 * @returns true when it was removed
 */
export declare function removeDeadLock(lockFile: string, staleMs?: number): boolean;
/** True when `lockFile` is a lock whose owner is gone: what removeDeadLock would remove (for a dry run). */
export declare function isDeadLock(lockFile: string, staleMs?: number): boolean;
/**
 * This process as a mark another process can judge later (processGone): `<pid>.<start time>`, the start time `-`
 * where this system has no /proc. For an in-process host that must tell its own runs from those of a process that
 * died (opencode's plugin: a killed run fires nothing).
 */
export declare function processMark(): string;
/**
 * Whether the process a mark names (processMark) is gone: its pid runs no more, or now names another process (its
 * start time differs). Without /proc, whether the pid answers a signal. A mark that is not one: false (not judged).
 */
export declare function processGone(mark: string): boolean;
