import { StringDecoder } from 'node:string_decoder';

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

/** What `readJsonInput` needs of a stream: `process.stdin`, or the fd reader of `process-io.ts`. */
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
 * Reads one JSON document from a stream without waiting for EOF: as soon as a complete object or array
 * has arrived it stops reading, because some hosts never close a hook's stdin (anthropics/claude-code#79508).
 * Falls back to EOF, then to the time limit. Never rejects.
 */
export function readJsonInput(
  stream: InputSource,
  options: StdinOptions = DEFAULT_STDIN_OPTIONS,
): Promise<StdinResult> {
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const scanner = new JsonScanner();
    let text = '';
    let bytes = 0;
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
    const parseAll = (): StdinResult => {
      // A leading byte-order mark is not JSON, but some writers add one (the scanner already skips it).
      const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      if (body.trim() === '') return { kind: 'empty' };
      try {
        return { kind: 'json', value: JSON.parse(body) };
      } catch (error) {
        return { kind: 'invalid', problem: `not valid JSON (${(error as Error).message})`, received: body };
      }
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > options.maxBytes) {
        finish({
          kind: 'invalid',
          problem: `input larger than ${options.maxBytes} bytes`,
          received: text + decoder.write(buffer),
        });
        return;
      }
      const piece = decoder.write(buffer);
      const end = scanner.feed(piece);
      if (end === -1) {
        text += piece;
        return;
      }
      text += piece.slice(0, end);
      finish(parseAll());
    };
    const onEnd = (): void => {
      text += decoder.end();
      finish(parseAll());
    };
    const onError = (error: Error): void =>
      finish({ kind: 'invalid', problem: `stdin could not be read (${error.message})`, received: text });
    const timer = setTimeout(() => {
      text += decoder.end();
      const result = parseAll();
      finish(
        result.kind === 'empty'
          ? { kind: 'invalid', problem: `no input within ${options.timeoutMs} ms`, received: '' }
          : result,
      );
    }, options.timeoutMs);

    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/**
 * Finds where the first top-level JSON object or array ends, across chunks, in linear time.
 * Other top-level values (numbers, strings, garbage) are left to EOF or the time limit.
 */
export class JsonScanner {
  #depth = 0;
  #started = false;
  #inString = false;
  #escaped = false;
  #done = false;
  #waitForEof = false;

  /** Feeds the next piece of text; returns the index in `piece` just past the document's end, or -1. */
  feed(piece: string): number {
    if (this.#waitForEof) return -1;
    if (this.#done) return 0;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (!this.#started) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) continue;
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
