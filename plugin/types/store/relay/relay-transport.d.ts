/**
 * A client's byte stream to the relay's unix socket. Two ways, the same behaviour:
 * - `pipe`: Node's own pipe handle (`process.binding('pipe_wrap')`, the handle `net` itself wraps), read and written
 *   directly. `net` would load Node's whole stream machinery (28 modules) and run a Duplex per socket: 28.6 M
 *   instructions for a connection and five round trips, against 1.4 M this way (callgrind, Node 20), on a hook whose
 *   whole budget is 1.5 × Node's start (docs/relay.md). The binding is documented as legacy and unstable, so every
 *   piece is checked before use, and anything missing or different falls back to `net`.
 * - `net`: the public API. Used when the pipe handle is not what this code expects, under `--pending-deprecation`
 *   (which would print a warning for process.binding), or when AGENT_SESSION_RELAY_TRANSPORT=net asks for it.
 */
/** What a transport reports. */
export interface TransportEvents {
    readonly data: (chunk: Buffer) => void;
    /**
     * The stream ended: `code` is the system error (ENOENT, ECONNREFUSED…), or `EOF` when the relay closed it;
     * `connecting` when the connection was never made. Called once, never after close().
     */
    readonly end: (code: string, connecting: boolean) => void;
}
/** An open (or opening) stream: what is written before it connects is sent once it does. */
export interface Transport {
    write(text: string): void;
    close(): void;
}
/** Which transport this process uses (tests force each). */
export type TransportKind = 'pipe' | 'net';
/**
 * Connects to the unix socket `path`.
 * @param kind `net` forces the public API; `pipe` uses the pipe handle when it is as expected, else `net`
 */
export declare function openTransport(path: string, events: TransportEvents, kind?: TransportKind): Transport;
/** The transport asked for by AGENT_SESSION_RELAY_TRANSPORT (`net` or `pipe`, the default). */
export declare function transportKind(env?: Readonly<Record<string, string | undefined>>): TransportKind;
