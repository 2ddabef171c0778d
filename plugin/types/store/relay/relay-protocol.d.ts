import { SessionError } from '../../core/errors';
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
export declare const RELAY_PROTOCOL = 1;
/** The hello's first field: what a line from anything else (another program on the socket) is not. */
export declare const RELAY_GREETING = "agent-session relay";
/**
 * This build's identity: a hash of the sources, set by the build (scripts/bundles.mjs); `source` when run from the
 * TypeScript sources (tests). A relay serves only clients of its own build, so a rebuilt or upgraded hook never
 * talks to a relay running older code: its socket has another name (relay-folder.ts), and the hello checks it.
 */
export declare const RELAY_BUILD: string;
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
export type RelayAnswer = {
    readonly id: number;
    readonly ok?: unknown;
    readonly tagged?: 1;
} | {
    readonly id: number;
    readonly error: {
        readonly code: string;
        readonly message: string;
    };
};
/**
 * A value as JSON, with tags for what JSON cannot say and a store's methods use: a Date (`now()`, `modifiedAt`), an
 * `undefined` inside an array (a skipped optional argument), a number that is not finite (`notAfter = Infinity`), an
 * error (a removal's outcome). An object that has a key `$t` of its own (metadata may) is wrapped, so a tag is never
 * taken for data. `tagged` is false when the text is plain JSON (no tag was needed): the reader then skips its walk.
 * @throws TypeError for a function (a callback cannot travel: the caller runs it on its side)
 */
export declare function encodeValue(value: unknown): {
    json: string;
    tagged: boolean;
};
/**
 * The value `encodeValue` wrote (parsed), its tags undone; `tagged` false: returned as it is.
 * @throws SessionError E_IO for a tag this protocol does not know (garbage)
 */
export declare function decodeValue(value: unknown, tagged: boolean): unknown;
/** A failed answer's error as the SessionError it was, or null when it is not one (garbage). */
export declare function answerError(error: unknown): SessionError | null;
/** What an answer says of an error thrown by the store: its code and message (anything else counts as E_IO). */
export declare function errorOf(error: unknown): {
    code: string;
    message: string;
};
/** The hello line a client sends. */
export declare function clientHelloLine(store: Readonly<Record<string, unknown>>): string;
/** A line as a relay's hello, or null when it is not one (garbage, another program). */
export declare function parseRelayHello(line: string): RelayHello | null;
/** A line as a JSON object, or null. */
export declare function parseLine(line: string): Record<string, unknown> | null;
/**
 * The lines of a JSON-lines byte stream, one chunk at a time: what both ends of the relay's socket read. Each line is
 * cut at its newline and decoded whole (a newline never occurs inside a UTF-8 sequence), so no string decoder is
 * needed; node:readline would bring the stream machinery that the client's pipe handle exists to avoid (relay.md).
 */
export declare class LineReader {
    #private;
    /** @param maxLineBytes the longest unfinished line worth keeping (a relay's bound on what a client may send) */
    constructor(maxLineBytes?: number);
    /**
     * Gives `onLine` each line that `chunk` completes, in order, while it returns true; once it returns false the rest
     * of the chunk is dropped (the reader is done with the stream). The unfinished end is kept for the next chunk.
     * @returns false when the unfinished line has grown past `maxLineBytes`
     */
    read(chunk: Buffer, onLine: (line: string) => boolean): boolean;
}
