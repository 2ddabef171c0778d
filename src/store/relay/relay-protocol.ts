import { SessionError, type ErrorCode } from '../../core/errors';

/**
 * The relay's wire protocol (README "Shared store", docs/relay.md): JSON lines over a unix socket, one connection per
 * client process.
 *
 * The client's first line is a hello naming the protocol, its build and the store it wants; the relay answers with
 * its own hello, accepting or refusing. A relay never runs anything sent on a connection whose hello it refused, and
 * every version keeps that rule and the hello's shape, so a client may send read-only requests right behind its hello
 * without waiting (one round trip less) whatever relay answers. Then each request is `{"id", "call", "args"}` and each
 * answer `{"id", "ok"}` or `{"id", "error": {"code", "message"}}`, in order. `call` names a method of the store, or one
 * of the relay's own words (`$lock`, `$commit`, `$rollback`, `$status`, `$stop`).
 */

/** The protocol this build speaks. Raised whenever a message changes meaning. */
export const RELAY_PROTOCOL = 1;

/** The hello's first field: what a line from anything else (another program on the socket) is not. */
export const RELAY_GREETING = 'agent-session relay';

/**
 * This build's identity: a hash of the sources, set by the build (scripts/bundles.mjs); `source` when run from the
 * TypeScript sources (tests). A relay serves only clients of its own build, so a rebuilt or upgraded hook never
 * talks to a relay running older code: its socket has another name (relay-folder.ts), and the hello checks it.
 */
export const RELAY_BUILD: string = process.env.AGENT_SESSION_BUILD_ID ?? 'source';

/** A client's hello. `store` is the store's options as app/relay-client.ts gives them (the URL's password included). */
export interface ClientHello {
  readonly relay: typeof RELAY_GREETING;
  readonly protocol: number;
  readonly build: string;
  readonly store: Readonly<Record<string, unknown>>;
}

/** The relay's hello: `refused` says why it will run nothing on this connection. */
export interface RelayHello {
  readonly relay: typeof RELAY_GREETING;
  readonly protocol: number;
  readonly build: string;
  readonly pid: number;
  readonly refused?: string;
}

/** One request. `tagged`: its args hold values JSON has no word for (see encodeValue). */
export interface RelayRequest {
  readonly id: number;
  readonly call: string;
  readonly args: unknown[];
  readonly tagged?: 1;
}

/** One answer. */
export type RelayAnswer =
  | { readonly id: number; readonly ok?: unknown; readonly tagged?: 1 }
  | { readonly id: number; readonly error: { readonly code: string; readonly message: string } };

/** The error codes an answer may carry: a SessionError's (any other code is garbage). */
const ERROR_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'E_USAGE',
  'E_NOT_FOUND',
  'E_ILLEGAL_TRANSITION',
  'E_CORRUPT',
  'E_DUPLICATE',
  'E_REFUSED',
  'E_BUSY',
  'E_IO',
  'E_AGENT_SHELL',
]);

/**
 * A value as JSON, with tags for what JSON cannot say and a store's methods use: a Date (`now()`, `modifiedAt`), an
 * `undefined` inside an array (a skipped optional argument), a number that is not finite (`notAfter = Infinity`), an
 * error (a removal's outcome). An object that has a key `$t` of its own (metadata may) is wrapped, so a tag is never
 * taken for data. `tagged` is false when the text is plain JSON (no tag was needed): the reader then skips its walk.
 * @throws TypeError for a function (a callback cannot travel: the caller runs it on its side)
 */
export function encodeValue(value: unknown): { json: string; tagged: boolean } {
  let tagged = false;
  const json = JSON.stringify([value], function (this: unknown, key: string, current: unknown): unknown {
    if (current === undefined) {
      if (!Array.isArray(this)) return undefined;
      tagged = true;
      return { $t: 'undefined' };
    }
    if (typeof current === 'number') {
      if (Number.isFinite(current)) return current;
      tagged = true;
      return { $t: 'number', v: String(current) };
    }
    if (typeof current === 'function') throw new TypeError('Expected data to send to the relay, got a function');
    if (typeof current !== 'object' || current === null || Array.isArray(current)) {
      // A Date has become its toJSON() text by now: the value before it is the one to look at.
      const raw = typeof current === 'string' || current === null ? (this as Record<string, unknown>)[key] : undefined;
      if (raw === undefined || typeof raw !== 'object' || raw === null || tagOf(raw) !== '[object Date]')
        return current;
      tagged = true;
      return { $t: 'date', v: (raw as Date).getTime() };
    }
    // By tag, not instanceof: an Error made in another realm (Node's own, under jest) is one all the same.
    if (tagOf(current) === '[object Error]') {
      tagged = true;
      const { code, message } = current as { code?: unknown; message?: unknown };
      return { $t: 'error', code: code ?? null, message: String(message) };
    }
    if (Object.hasOwn(current, '$t')) {
      tagged = true;
      return { $t: 'object', v: Object.entries(current) };
    }
    return current;
  });
  // Wrapped in an array so that a top-level undefined is tagged too; unwrapped here.
  return { json: json.slice(1, -1), tagged };
}

/**
 * The value `encodeValue` wrote (parsed), its tags undone; `tagged` false: returned as it is.
 * @throws SessionError E_IO for a tag this protocol does not know (garbage)
 */
export function decodeValue(value: unknown, tagged: boolean): unknown {
  return tagged ? untag(value) : value;
}

/** A failed answer's error as the SessionError it was, or null when it is not one (garbage). */
export function answerError(error: unknown): SessionError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !ERROR_CODES.has(code) || typeof message !== 'string') return null;
  return new SessionError(code as ErrorCode, message);
}

/** What an answer says of an error thrown by the store: its code and message (anything else counts as E_IO). */
export function errorOf(error: unknown): { code: string; message: string } {
  if (error instanceof SessionError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'E_IO', message: `The relay failed: ${message}` };
}

/** The hello line a client sends. */
export function clientHelloLine(store: Readonly<Record<string, unknown>>): string {
  const hello: ClientHello = { relay: RELAY_GREETING, protocol: RELAY_PROTOCOL, build: RELAY_BUILD, store };
  return `${JSON.stringify(hello)}\n`;
}

/** A line as a relay's hello, or null when it is not one (garbage, another program). */
export function parseRelayHello(line: string): RelayHello | null {
  const value = parseLine(line);
  if (value === null || value.relay !== RELAY_GREETING) return null;
  if (typeof value.protocol !== 'number' || typeof value.build !== 'string' || typeof value.pid !== 'number')
    return null;
  if (value.refused !== undefined && typeof value.refused !== 'string') return null;
  return value as unknown as RelayHello;
}

/** A line as a JSON object, or null. */
export function parseLine(line: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * The lines of a JSON-lines byte stream, one chunk at a time: what both ends of the relay's socket read. Each line is
 * cut at its newline and decoded whole (a newline never occurs inside a UTF-8 sequence), so no string decoder is
 * needed; node:readline would bring the stream machinery that the client's pipe handle exists to avoid (relay.md).
 */
export class LineReader {
  readonly #maxLineBytes: number;
  #partial: Buffer[] = [];
  #partialBytes = 0;

  /** @param maxLineBytes the longest unfinished line worth keeping (a relay's bound on what a client may send) */
  constructor(maxLineBytes = Number.POSITIVE_INFINITY) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Gives `onLine` each line that `chunk` completes, in order, while it returns true; once it returns false the rest
   * of the chunk is dropped (the reader is done with the stream). The unfinished end is kept for the next chunk.
   * @returns false when the unfinished line has grown past `maxLineBytes`
   */
  read(chunk: Buffer, onLine: (line: string) => boolean): boolean {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      const line = this.#partial.length === 0 ? piece : Buffer.concat([...this.#partial, piece]);
      this.#partial = [];
      this.#partialBytes = 0;
      start = end + 1;
      if (!onLine(line.toString('utf8'))) return true;
    }
    if (start < chunk.length) {
      this.#partial.push(chunk.subarray(start));
      this.#partialBytes += chunk.length - start;
    }
    return this.#partialBytes <= this.#maxLineBytes;
  }
}

// --- internal ---

function tagOf(value: unknown): string {
  return Object.prototype.toString.call(value);
}

function untag(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untag);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, '$t')) {
    switch (record.$t) {
      case 'date':
        return new Date(typeof record.v === 'number' ? record.v : NaN);
      case 'undefined':
        return undefined;
      case 'number':
        return Number(record.v);
      case 'error':
        return (
          answerError(record) ??
          new SessionError('E_IO', typeof record.message === 'string' ? record.message : 'an error')
        );
      case 'object':
        if (Array.isArray(record.v))
          return Object.fromEntries(
            record.v.map((entry: unknown) => {
              if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw garbage();
              return [entry[0], untag(entry[1])];
            }),
          );
        throw garbage();
      default:
        throw garbage();
    }
  }
  for (const key of Object.keys(record)) {
    const before = record[key];
    const after = untag(before);
    // Defined, not assigned: a key `__proto__` (JSON.parse makes it an own key) must stay a key.
    if (after !== before)
      Object.defineProperty(record, key, { value: after, writable: true, enumerable: true, configurable: true });
  }
  return record;
}

function garbage(): SessionError {
  return new SessionError('E_IO', 'Expected a value of the relay protocol, got a tag it does not define');
}
