/** Blocks the thread without a timer: the CLI and hooks are synchronous, short-lived processes. */
export function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
