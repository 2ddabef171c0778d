/** Blocks the thread without a timer: the CLI and hooks are synchronous, short-lived processes. */
export declare function sleepMs(ms: number): void;
