import { type Socket } from 'node:net';
import type { DatabaseTarget } from '../../core/database-url';
/** A backend's cancel key (PostgreSQL's BackendKeyData), as the driver keeps it on a query it sent. */
export interface BackendKey {
    readonly pid: number;
    readonly secret: number;
}
/**
 * How the connections of one driver client reach the server: postgres.js's `socket` option, so that connecting is
 * ours to bound. Left to itself, postgres.js retries at once, for ever, a connection the server closes during the
 * handshake (~730 times a second against an HTTP server or a proxy: porsager/postgres#1193), and never gives up
 * when every host of several fails (#1188). Here:
 * - each connection tries the targets in order (libpq's `target_session_attrs=any`), each within `connectMs`; the
 *   first that accepts is used; none: the last error;
 * - a connection asked for again before any statement succeeded (the server closed the last one during the
 *   handshake) starts at the next target, and after one round of every target per connection of the client, the
 *   connection is refused (CONNECTION_CLOSED): a handful of attempts, never a storm;
 * - after `shutDown`, no connection is opened, and every socket opened is destroyed: a backend stuck on a lock reads
 *   nothing, so the driver's polite goodbye (Terminate, then waiting for the server to close) would keep the process
 *   alive until the lock is released.
 */
export declare class Connector {
    #private;
    /**
     * @param connections the most connections the client opens at once (each may need its round of the targets)
     */
    constructor(targets: readonly DatabaseTarget[], connectMs: number, connections: number);
    /** postgres.js's `socket` option: a connected socket to the first target that accepts. */
    readonly open: () => Promise<Socket>;
    /** A statement succeeded: the connection in use completed its handshake. */
    established(): void;
    /**
     * Asks the server to cancel what the backend `key` is running (a CancelRequest on a connection of its own, to the
     * target of the latest connection): a statement the caller stopped waiting for (a lock wait, a slow query) must
     * not keep running or waiting there. Never fails. Settles once the request is written (the server acts on it; its
     * closing the connection is not waited for: a server that accepts and then stalls never closes it), or after
     * `withinMs` (default `connectMs`) when it could not be: a caller's deadline is never stretched by a cancel.
     */
    cancel(key: BackendKey, withinMs?: number): Promise<void>;
    /** No connection is opened from now on; every socket opened is destroyed. */
    shutDown(): void;
}
