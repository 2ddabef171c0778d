import type { SessionState } from '../../core/state';
import type { RemovalOutcome, SessionStore } from '../../service/store';
import { type VersionedRows } from '../versioned';
import { type RelayPlace } from './relay-folder';
import type { TransportKind } from './relay-transport';
/** How the relay's client is set up (src/app/relay-client.ts). */
export interface RelayStoreOptions {
    /** The relay's files (relay-folder.ts). */
    readonly place: RelayPlace;
    /** The store's options as the relay opens them (the URL, the schema, …): sent in the hello. */
    readonly store: Readonly<Record<string, unknown>>;
    /** The store as shown (the URL masked). */
    readonly location: string;
    /** The whole budget of this store, from its opening (a hook's 5 s): the relay's answers and a direct connection's. */
    readonly totalMs: number;
    /** Opens the store directly (the PostgreSQL store), with the time left of the budget. */
    readonly direct: (timeLeftMs: number) => SessionStore & VersionedRows;
    /** Starts a relay in the background (detached; null: this process cannot, e.g. run from the sources). */
    readonly start: (() => void) | null;
    /** How to reach the socket (default: as AGENT_SESSION_RELAY_TRANSPORT says; relay-transport.ts). */
    readonly transport?: TransportKind;
    /**
     * Callers that attach side by side (a library, tests): each `lockClaudeAgent` gets a connection of its own and its
     * calls are told apart by their async context (node:async_hooks). Without it (a hook: one step at a time), the one
     * connection carries the transaction and every call made while it is open is its: no async context, which costs a
     * hook ~5 M instructions.
     */
    readonly concurrent?: boolean;
}
/** How long a relay has to greet: a live one answers at once; one that accepts and stays silent is given up on. */
export declare const HELLO_MS = 1000;
/** What a process learnt about its relay, for its log and for tests. */
export interface RelayRoute {
    /** `relay` while the relay answers; `direct` once this store connected directly; `none` before the first call. */
    readonly via: 'relay' | 'direct' | 'none';
    /** Why it went direct (no relay, a stale socket, a refused folder, a fault), when it did. */
    readonly why?: string;
    /** Whether this process started a relay. */
    readonly started: boolean;
}
/**
 * The PostgreSQL store as a hook reaches it through the local relay (relay-server.ts), which holds the connection: a
 * hook loads no PostgreSQL driver, and neither connects nor authenticates (docs/relay.md).
 *
 * Every method of the store is forwarded as it is (its name and JSON arguments, then its result or its SessionError):
 * a method this client does not name goes through `call`, so the store's interface may change without this file.
 * Only what a callback needs runs here, because a callback cannot travel: `update` and a judged `remove` are
 * compare-and-swap loops over the store's versioned rows (versioned.ts), and `lockClaudeAgent` holds a transaction on
 * the relay (`$lock`) for the time `work` runs here, its calls running inside it, until `$commit` or `$rollback`.
 *
 * Falls back to a direct connection (`direct`) for the rest of the process, when the relay is absent, stale, refused,
 * slow to greet, or answers garbage; a relay found absent or stale is started in the background for the next
 * process. A request the relay may have run is never sent again, unless it only reads (READS): a write without an
 * answer is E_IO (a hook fails open), so nothing is written twice. A transaction the relay lost before `$commit` was
 * rolled back with the relay's connection, so it is run again directly; lost after `$commit`, its outcome is unknown:
 * E_IO. One caller at a time (a hook's process): calls made while `lockClaudeAgent` runs are taken as its own.
 */
export declare class RelayStore {
    #private;
    readonly location: string;
    /** A database has no folder hygiene (SessionStore.maintenance); declared, so the Proxy forwards no such method. */
    readonly maintenance: undefined;
    constructor(options: RelayStoreOptions);
    /** How this store reached the database so far. */
    get route(): RelayRoute;
    /**
     * Any method of the store, by name: through the relay, or directly once this process went direct.
     * @throws SessionError as the store throws it; E_IO when the relay stopped answering a request that changes data
     */
    call(method: string, args: readonly unknown[]): Promise<unknown>;
    /** The database's clock: read once (one round trip, right behind the hello), then advanced by this process's. */
    now(): Promise<Date>;
    update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState>;
    remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean>;
    /** Each id as a judged `remove` (the callback runs here); a busy or unreachable one is its own outcome. */
    removeMany(ids: readonly string[], shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<RemovalOutcome[]>;
    /**
     * Runs `work` holding the store's locks of one Claude agent and one agent type, in one transaction: on the relay
     * (`$lock` … `$commit`), or directly. See the class comment for what happens when the relay stops answering.
     */
    lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T>;
    /** Ends the connection to the relay, or the direct one. */
    close(): Promise<void>;
}
/**
 * The relay's client as a SessionStore: RelayStore's own methods, and every other method name forwarded by `call`
 * (see RelayStore), so methods the store gains reach the relay without a change here.
 */
export declare function openRelayStore(options: RelayStoreOptions): SessionStore & {
    readonly route: RelayRoute;
};
