import { type TransportKind } from './relay-transport';
/**
 * Why a relay could not answer: absent, stale, refused, silent, gone or talking garbage. Never leaves the relay's
 * client (relay-store.ts), which turns it into a direct connection or an E_IO.
 */
export declare class RelayFault extends Error {
    readonly delivered: boolean;
    readonly startable: boolean;
    /**
     * @param delivered whether the relay may have run the request (it had accepted the connection's hello): a request
     *   it may have run is never sent again anywhere, unless it only reads
     * @param startable nothing listens on the socket (absent or stale): a new relay may be started
     */
    constructor(message: string, delivered: boolean, startable: boolean);
}
/**
 * One connection to a relay, for one client process: the hello, then requests answered in order. Reads bytes up to
 * each newline and decodes each line whole (a newline never occurs inside a UTF-8 sequence), so no string decoder
 * is loaded. Bounded: no hello within `helloMs` (a relay that accepts and stays silent), or no answer before
 * `deadlineAt` (the caller's whole budget), ends the connection with a fault.
 */
export declare class RelayLink {
    #private;
    constructor(path: string, store: Readonly<Record<string, unknown>>, helloMs: number, deadlineAt: number, transport?: TransportKind);
    /** The relay's process id, once its hello accepted this connection. */
    get pid(): number | undefined;
    /**
     * Sends one request and waits for its answer.
     * @param early sent right behind the hello, before the relay accepted it: only for requests that change nothing
     *   (a refused hello runs nothing; a relay that accepts runs it)
     * @param inTransaction a call of the transaction `$lock` opened: the relay runs it only inside one
     * @throws RelayFault when the relay does not answer; the SessionError the relay answered with
     */
    request(call: string, args: readonly unknown[], early: boolean, inTransaction?: boolean): Promise<unknown>;
    /** Ends the connection (the relay rolls back a transaction left open). */
    close(): void;
}
