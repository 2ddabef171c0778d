import { sleepMs } from '../platform/sleep';

/** What arrived on stdin. */
export type StdinResult =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'empty' }
  /** `received`: the text that did arrive, so a caller can still tell whose payload it was. */
  | { readonly kind: 'invalid'; readonly problem: string; readonly received: string };

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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the listeners above, removed by identity
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  destroy?: () => void;
}

export const DEFAULT_STDIN_OPTIONS: StdinOptions = { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 };

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
export function readJsonSync(
  source: ByteSource,
  options: StdinOptions = DEFAULT_STDIN_OPTIONS,
  clock: { readonly now: () => number; readonly sleep: (ms: number) => void } = { now: Date.now, sleep: sleepMs },
): StdinResult {
  const collected = new Collected(options);
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const deadline = clock.now() + options.timeoutMs;
  for (;;) {
    let count: number | null;
    try {
      count = source.readBytes(buffer);
    } catch (error) {
      return collected.failed(error);
    }
    if (count === 0) return collected.end();
    if (count === null) {
      const left = deadline - clock.now();
      if (left <= 0) return collected.timedOut();
      clock.sleep(Math.min(2, left));
      continue;
    }
    // A copy: the buffer is reused by the next read.
    const done = collected.add(Buffer.from(buffer.subarray(0, count)));
    if (done !== undefined) return done;
  }
}

/**
 * Reads one JSON document from a stream (`process.stdin` on a terminal, streams in tests) without waiting for EOF,
 * as readJsonSync does, with a timer for the time limit. Never rejects.
 */
export function readJsonInput(
  stream: InputSource,
  options: StdinOptions = DEFAULT_STDIN_OPTIONS,
): Promise<StdinResult> {
  return new Promise((resolve) => {
    const collected = new Collected(options);
    let settled = false;

    const finish = (result: StdinResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      // Release stdin so the process can exit even when the writer keeps the pipe open.
      stream.pause();
      stream.destroy?.();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      const done = collected.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (done !== undefined) finish(done);
    };
    const onEnd = (): void => finish(collected.end());
    const onError = (error: Error): void => finish(collected.failed(error));
    const timer = setTimeout(() => finish(collected.timedOut()), options.timeoutMs);

    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/**
 * The bytes of one input as they arrive, and what they make: the document once the scanner finds its end (or at EOF,
 * or at the time limit), or why not. Decoded as UTF-8 once, at the end: the scanner works on bytes, whose structural
 * characters are ASCII and never part of a multi-byte character.
 */
class Collected {
  readonly #options: StdinOptions;
  readonly #chunks: Buffer[] = [];
  readonly #scanner = new JsonScanner();
  #bytes = 0;

  constructor(options: StdinOptions) {
    this.#options = options;
  }

  /** Takes the next chunk; returns the result when the document is complete or too large, else undefined. */
  add(chunk: Buffer): StdinResult | undefined {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#options.maxBytes) {
      this.#chunks.push(chunk);
      return {
        kind: 'invalid',
        problem: `input larger than ${this.#options.maxBytes} bytes`,
        received: this.#text(),
      };
    }
    const end = this.#scanner.feed(chunk);
    this.#chunks.push(end === -1 ? chunk : chunk.subarray(0, end));
    return end === -1 ? undefined : this.#parsed();
  }

  end(): StdinResult {
    return this.#parsed();
  }

  timedOut(): StdinResult {
    const result = this.#parsed();
    return result.kind === 'empty'
      ? { kind: 'invalid', problem: `no input within ${this.#options.timeoutMs} ms`, received: '' }
      : result;
  }

  failed(error: unknown): StdinResult {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid', problem: `stdin could not be read (${message})`, received: this.#text() };
  }

  #text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }

  #parsed(): StdinResult {
    const text = this.#text();
    // A leading byte-order mark is not JSON, but some writers add one (the scanner already skips it).
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (body.trim() === '') return { kind: 'empty' };
    try {
      return { kind: 'json', value: JSON.parse(body) };
    } catch (error) {
      return { kind: 'invalid', problem: `not valid JSON (${(error as Error).message})`, received: body };
    }
  }
}

/**
 * Finds where the first top-level JSON object or array ends, across chunks of bytes (UTF-8), in linear time. Other
 * top-level values (numbers, strings, garbage) are left to EOF or the time limit. A byte-order mark before the
 * document is skipped (its bytes EF BB BF); the parse decides whether what was read is JSON.
 */
export class JsonScanner {
  #depth = 0;
  #started = false;
  #inString = false;
  #escaped = false;
  #done = false;
  #waitForEof = false;

  /** Feeds the next chunk; returns the index in `chunk` just past the document's end, or -1. */
  feed(chunk: Uint8Array): number {
    if (this.#waitForEof) return -1;
    if (this.#done) return 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (!this.#started) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xef || c === 0xbb || c === 0xbf) continue;
        if (c !== 0x7b && c !== 0x5b) {
          this.#waitForEof = true; // not an object or array: only EOF or the time limit can end it
          return -1;
        }
        this.#started = true;
      }
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === 0x5c) this.#escaped = true;
        else if (c === 0x22) this.#inString = false;
        continue;
      }
      if (c === 0x22) this.#inString = true;
      else if (c === 0x7b || c === 0x5b) this.#depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.#depth--;
        if (this.#depth === 0) {
          this.#done = true;
          return i + 1;
        }
      }
    }
    return -1;
  }
}
