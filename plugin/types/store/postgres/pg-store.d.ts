import type { SessionState } from '../../core/state';
import { type AgedEntry, type AgedQuery, type ListPage, type ListQuery, type ListedSession, type ListScope, type RemovalOutcome, type SessionStore, type StatsAnswer, type StatsQuery } from '../../service/store';
import { type MigrationResult } from './schema';
import { type WaitLimits } from '../../core/database';
import { type VersionedRow, type VersionedRows } from '../versioned';
/** How a PostgreSQL store is reached. */
export interface PgStoreOptions {
    /**
     * A libpq `postgres://…` URL (core/database-url.ts): several hosts, unix-socket folders; `sslmode` and the other
     * connection parameters in it are honoured by the driver.
     */
    readonly url: string;
    /** The schema holding the tables (default `agent_session`), checked by assertSchemaName. */
    readonly schema?: string;
    /** How long the database may keep the store waiting (default: the commands', WAIT_LIMITS.command). */
    readonly limits?: WaitLimits;
    /**
     * How long the schema check holds (default: for the store's life). A long-lived process (the relay) checks again
     * after this long, so a schema migrated by a newer version meanwhile is refused as a new process would refuse it.
     */
    readonly recheckMs?: number;
}
/**
 * Sessions in a PostgreSQL table (schema.ts): one row per session, the state as `jsonb` with indexed copies of the
 * fields the lookups need. Shared by processes on any machine, so:
 * - every write is a compare-and-swap on the row's `version` (read, `change`, `UPDATE … WHERE version = $v`), retried
 *   on conflict and bounded (E_BUSY); create is `INSERT … ON CONFLICT DO NOTHING` (E_DUPLICATE): nothing is lost or
 *   overwritten, whatever runs at once;
 * - `lockClaudeAgent` is one transaction holding two transaction-level advisory locks, and the store's methods called
 *   inside its `work` run on that transaction (the one connection is the transaction's until it ends);
 * - `now()` is the database's clock, so machines whose clocks disagree agree on "idle for 30 minutes".
 * One connection per process (`max: 1`), no prepared statements (PgBouncer in transaction mode works), nothing set on
 * the session. Only while that connection holds a transaction do other callers of the same process (a library running
 * attaches side by side) get connections of their own (`#spare`, made on first need): queued behind the transaction,
 * a caller it waits for would wait for ever. A hook or a command, one step at a time, never opens a second one.
 * Every wait for the database is bounded (`limits`): a statement or transaction that runs out of time is cancelled on
 * the server (a lock wait ends there too), the connections are dropped (the next call opens new ones), and the caller
 * gets E_IO; connecting is the Connector's (connector.ts), which never retries in a storm.
 * It has no `maintenance` (SessionStore): the file-system notions (leftovers, entries not ours, a linked root) have no
 * meaning here, as the server rolls back a killed writer's transaction and a table holds only the rows written to it.
 */
export declare class PgStore implements SessionStore, VersionedRows {
    #private;
    readonly location: string;
    readonly schema: string;
    constructor(options: PgStoreOptions);
    /** Creates or upgrades the tables (see schema.ts), in one transaction. */
    migrate(): Promise<MigrationResult>;
    /** The database's clock: read once per process (with the schema check), then advanced by monotonic time. */
    now(): Promise<Date>;
    /** Ends the connections (waits for queries under way, and for the cancel requests to be sent: CANCEL_MS at most). */
    close(): Promise<void>;
    read(id: string): Promise<SessionState | null>;
    create(state: SessionState): Promise<void>;
    update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState>;
    /**
     * The row with its version (VersionedRows, for update's compare-and-swap), or null when absent.
     * @param lock inside a transaction (`exclusive`): `FOR UPDATE`, the row held until it ends
     */
    readVersioned(id: string, lock?: boolean): Promise<VersionedRow | null>;
    /** Writes `state` when the row still has `version` (its indexed columns and the Claude agent's pointer with it). */
    writeVersioned(id: string, version: string, state: SessionState): Promise<boolean>;
    /**
     * Writes `state` when the stored state is still `expected` (compared as jsonb): a compare-and-swap on content, for a
     * writer that holds the state it read (the relay's client, whose update then needs no read first).
     * @returns false when the row changed since (or went): read it again
     */
    writeIfUnchanged(id: string, expected: SessionState, state: SessionState): Promise<boolean>;
    /** Removes the row when it still has `version`. */
    removeVersioned(id: string, version: string): Promise<boolean>;
    newestOf(project: string, agentName: string, notAfter?: number): Promise<SessionState | null>;
    findByClaudeAgent(project: string, claudeAgentId: string): Promise<SessionState | null>;
    /**
     * The pointer (`claude_agents`, one per Claude agent id whatever the project) when it names a session of `project`,
     * else the project's session linked to the agent now.
     */
    attachedTo(project: string, claudeAgentId: string): Promise<SessionState | null>;
    /**
     * Runs `work` in one transaction holding `pg_advisory_xact_lock` on the Claude agent id, then on the agent type
     * (always this order, as the file store's lock files), each waiting at most LOCK_TIMEOUT (E_BUSY). The store's
     * methods called inside `work` run on this transaction; its writes commit when `work` ends, or none do.
     */
    lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T>;
    /**
     * Runs `work` in one transaction (VersionedRows.exclusive): its `readVersioned(id, true)` holds the row, waiting at
     * most LOCK_TIMEOUT for it (E_BUSY), so its write cannot lose the race.
     */
    exclusive<T>(id: string, work: () => Promise<T>): Promise<T>;
    newestPerAgent(project: string, notAfter?: number): Promise<SessionState[]>;
    /**
     * See SessionStore.query: filtered, ordered and limited in SQL (`ORDER BY last_activity DESC … LIMIT`, on the
     * `sessions_by_age` index), so a page of a store of any size reads that page. Rows whose columns are empty (rows no
     * version of ours wrote whole: corrupt) are fetched too, and answered as corrupt.
     */
    query(scope: ListScope | undefined, query: ListQuery): Promise<ListedSession[]>;
    /** See SessionStore.page: the query, and a count of the same rows on the same indexes. */
    page(scope: ListScope | undefined, query: ListQuery): Promise<ListPage>;
    /**
     * See SessionStore.stats: summed and medians taken in SQL over `session_facts` (kept by a trigger: schema.ts), per
     * project, agent and error count; only the live sessions' states and the rows no version wrote whole are read.
     */
    stats(scope: ListScope | undefined, query: StatsQuery): Promise<StatsAnswer>;
    /**
     * See SessionStore.aged: on the indexes of last activity (a project's, or the store's). No state is parsed: a row is
     * taken as valid when its document is plausibly one of ours (counted in session_facts, of a version this binary
     * reads, its typed fields of their types); the others, and the rows no version wrote whole, are read and judged as
     * `list` judges them (corrupt ones by the time of their last write).
     */
    aged(scope: ListScope | undefined, query: AgedQuery): Promise<AgedEntry[]>;
    idsContaining(part: string, limit: number): Promise<string[]>;
    /**
     * Every row, or those of a scope: the project's rows and those of no project (an unassigned row, or one whose project
     * could not be read: corrupt rows are in every scope, as the other stores' corrupt entries are), unassigned valid
     * ones kept only when the scope asks for them.
     */
    list(scope?: ListScope): Promise<ListedSession[]>;
    /**
     * Removes a session when `shouldRemove` agrees on the row as it is when removed: the DELETE names the version that
     * was judged, so a write in between makes it judge again (a session touched while cleanup runs is kept).
     */
    remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean>;
    /**
     * Removes, in one transaction per batch of BATCH ids, the sessions among `ids` that `shouldRemove` agrees on as they
     * are now: the rows are locked (`FOR UPDATE SKIP LOCKED`), judged, and deleted together. A row another writer holds
     * at that moment is skipped (it is being written: not stale), as is one already gone.
     * @returns the ids removed
     */
    removeBatch(ids: readonly string[], shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<string[]>;
    /** removeBatch per batch: a batch that fails (busy, unreachable) is the error of each of its ids. */
    removeMany(ids: readonly string[], shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<RemovalOutcome[]>;
    /**
     * Test hook: stores `json` (a JSON text PostgreSQL accepts) as the session's document as is, creating the row when
     * absent, so rows no agent-session wrote (an edit by hand, a newer version's) can be planted.
     */
    putRaw(id: string, json: string, modifiedAt?: Date): Promise<void>;
}
