/**
 * Writes all of `text` to the open descriptor `fd`, synchronously: what `process.stdout.write` does on Linux for a
 * pipe, a file or a terminal, without making `process.stdout`, which on a pipe loads `net` and the stream machinery
 * (~13 M instructions, a fifth of a CLI call beyond Node's own start: docs/performance.md). A non-blocking
 * descriptor inherited from the parent (EAGAIN) is waited on until its reader drains it.
 * @throws the write's error (EPIPE: the reader went away)
 */
export declare function writeFully(fd: number, text: string): void;
/**
 * Whether `fd` is a character device: a terminal, or /dev/null. Only then can `process.stdout.isTTY` be true, so
 * only then is `process.stdout` worth making to ask (false when `fd` is closed).
 */
export declare function isCharacterDevice(fd: number): boolean;
