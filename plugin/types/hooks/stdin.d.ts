/** What arrived on stdin. */
export type StdinResult = {
    readonly kind: 'json';
    readonly value: unknown;
} | {
    readonly kind: 'empty';
}
/** `received`: the text that did arrive, so a caller can still tell whose payload it was. */
 | {
    readonly kind: 'invalid';
    readonly problem: string;
    readonly received: string;
};
export interface StdinOptions {
    /** Give up waiting after this long; what arrived by then is parsed. */
    readonly timeoutMs: number;
    /** Stop reading past this many bytes. */
    readonly maxBytes: number;
}
/** What `readJsonInput` needs of a stream: `process.stdin` on a terminal (process-io.ts), or a test's stream. */
export interface InputSource {
    on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
    on(event: 'end', listener: () => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
    removeListener(event: string, listener: (...args: any[]) => void): unknown;
    pause(): unknown;
    destroy?: () => void;
}
export declare const DEFAULT_STDIN_OPTIONS: StdinOptions;
/**
 * Something to read bytes from synchronously: the hook's stdin as a file, pipe or socket (process-io.ts). `readBytes`
 * fills `buffer` from the start and returns how many bytes it read (0: the end of the input), or null when nothing is
 * there yet (a non-blocking pipe): the reader then waits a little and asks again, until its time limit.
 */
export interface ByteSource {
    readBytes(buffer: Buffer): number | null;
}
/**
 * Reads one JSON document from a byte source without waiting for EOF: as soon as a complete object or array has
 * arrived it stops reading, because some hosts never close a hook's stdin (anthropics/claude-code#79508). Falls back
 * to EOF, then (for a source that says "nothing yet") to the time limit. Synchronous: a hook has nothing else to do,
 * and the stream machinery, timers and libuv's thread pool cost ~6 M instructions per call (docs/performance.md).
 * Never throws.
 */
export declare function readJsonSync(source: ByteSource, options?: StdinOptions, clock?: {
    readonly now: () => number;
    readonly sleep: (ms: number) => void;
}): StdinResult;
/**
 * Reads one JSON document from a stream (`process.stdin` on a terminal, streams in tests) without waiting for EOF,
 * as readJsonSync does, with a timer for the time limit. Never rejects.
 */
export declare function readJsonInput(stream: InputSource, options?: StdinOptions): Promise<StdinResult>;
/**
 * Finds where the first top-level JSON object or array ends, across chunks of bytes (UTF-8), in linear time. Other
 * top-level values (numbers, strings, garbage) are left to EOF or the time limit. A byte-order mark before the
 * document is skipped (its bytes EF BB BF); the parse decides whether what was read is JSON.
 */
export declare class JsonScanner {
    #private;
    /** Feeds the next chunk; returns the index in `chunk` just past the document's end, or -1. */
    feed(chunk: Uint8Array): number;
}
