import type { Phase } from '../core/phase-names';
import type { SessionState } from '../core/state';
import { type StatsTally } from '../core/views/stats-facts';
/** One entry of a listing: a valid session, or a folder whose state could not be trusted. */
export type ListedSession = {
    readonly kind: 'valid';
    readonly id: string;
    readonly state: SessionState;
} | {
    readonly kind: 'corrupt';
    readonly id: string;
    readonly error: string;
    readonly modifiedAt: Date;
    /** Why the entry is not agent-session's to remove (no state.json, a link), when it is not. */
    readonly notOurs?: string;
    /**
     * The project the entry names although it cannot be read as a session (a newer version's state, one bad field):
     * its `project` text, or the row's column; absent when it names none or its JSON cannot be parsed.
     */
    readonly project?: string;
};
/**
 * Which sessions a listing holds: those of `project`, and with `unassigned` also those that belong to no project (an
 * older store's, until adopted). Corrupt entries that name no project (or whose project cannot be read) are in every
 * listing; one that names a project is in that project's.
 */
export interface ListScope {
    readonly project: string;
    readonly unassigned?: boolean;
}
/** What a listing keeps (SessionStore.query): each absent member keeps everything. */
export interface ListQuery {
    readonly phases?: readonly Phase[];
    readonly agent?: string;
    readonly limit?: number;
}
/** True when a valid state is kept by `query` (its limit aside). */
export declare function kept(state: SessionState, query: ListQuery): boolean;
/**
 * The entries of a listing `query` keeps, as SessionStore.query answers: the valid ones filtered, newest first, at
 * most the limit, then the corrupt ones. For stores that filter what they listed.
 */
export declare function answerQuery(listed: readonly ListedSession[], query: ListQuery): ListedSession[];
/** Later `last_updated` first, then by id. */
export declare function newestFirst(a: {
    readonly id: string;
    readonly state: SessionState;
}, b: {
    readonly id: string;
    readonly state: SessionState;
}): number;
/** A page of a listing (SessionStore.page): the entries `query` keeps, and how many valid ones it keeps in all. */
export interface ListPage {
    readonly entries: ListedSession[];
    /** The valid sessions kept, the limit aside (a page of 50 of an inbox of 10,000 says 10,000). */
    readonly total: number;
}
/** The page of `query` over a listing already taken (for stores that filter what they listed). */
export declare function answerPage(listed: readonly ListedSession[], query: ListQuery): ListPage;
/** What `stats` counts (SessionStore.stats). */
export interface StatsQuery {
    /** Only this agent's sessions. */
    readonly agent?: string;
    /** Only sessions created at or after this instant. */
    readonly since?: Date;
    /**
     * The live sessions are those not final and active at or after this instant (the resume timeout ago, or earlier), or
     * waiting after an interruption: the only ones whose `active` and `resumable_now` the clock can make true.
     */
    readonly activeSince: Date;
}
/** What a store answers `stats` with: the tally, the states of the live sessions, the corrupt entries of the scope. */
export interface StatsAnswer {
    readonly tally: StatsTally;
    readonly live: SessionState[];
    readonly corrupt: ListedSession[];
}
/** The stats answer over a listing already taken (valid sessions of the scope, and its corrupt entries). */
export declare function answerStats(listed: readonly ListedSession[], query: StatsQuery): StatsAnswer;
/** True when a state is one of the live sessions of `query` (see StatsQuery.activeSince). */
export declare function isLive(state: SessionState, query: StatsQuery): boolean;
/**
 * What cleanup judges a session by without reading it (SessionStore.aged): a valid one's last activity, or a corrupt
 * entry as listed.
 */
export type AgedEntry = {
    readonly kind: 'valid';
    readonly id: string;
    readonly last_updated: string;
} | Extract<ListedSession, {
    kind: 'corrupt';
}>;
/** Which sessions `aged` answers: those active before `before` or after `after` (a clock ahead). */
export interface AgedQuery {
    readonly before: Date;
    readonly after: Date;
}
/** The aged entries of a listing already taken (for stores that filter what they listed). */
export declare function answerAged(listed: readonly ListedSession[], query: AgedQuery): AgedEntry[];
/** True when a last activity is outside `query`'s window (before it, or after it). */
export declare function isAged(lastUpdated: string, query: AgedQuery): boolean;
/** What `removeMany` did with one id: removed or not (absent, or judged worth keeping), or the error of its removal. */
export type RemovalOutcome = {
    readonly id: string;
    readonly removed: boolean;
} | {
    readonly id: string;
    readonly error: unknown;
};
/**
 * Where sessions live: the file store (file-store.ts), the memory store (memory-store.ts) and the PostgreSQL store
 * implement it, and every implementation passes the one contract suite in tests/contract/. Every method is required,
 * so the service never falls back to a scan of its own. A store holds the sessions of any number of projects
 * (`SessionState.project`, core/project.ts): every lookup that decides a resume or a relink takes the project, and
 * answers only that project's sessions (never one of another project, nor one of none). Every method answers a Promise, so a network backend fits; the callbacks
 * (`update`'s change, `remove`'s shouldRemove) stay synchronous and pure: a backend may run them inside a
 * transaction, and may run `change` again when a transaction is retried. Whoever opens a store closes it.
 */
export interface SessionStore {
    /** A human-readable name of where the sessions are (a folder for the file store). */
    readonly location: string;
    /** The state, or null when there is no such session. @throws SessionError E_CORRUPT when it is invalid */
    read(id: string): Promise<SessionState | null>;
    /** Stores a new session. @throws SessionError E_DUPLICATE when the id exists; nothing is overwritten */
    create(state: SessionState): Promise<void>;
    /**
     * Read-modify-write under the session's lock, so concurrent updates are never lost.
     * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, or whatever `change` throws (nothing is written then)
     */
    update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState>;
    /**
     * The most recently active valid session of an agent in a project (later `last_updated`, then later `created_at`),
     * or null. Corrupt entries are ignored. A store may answer from an index (the file store keeps a per-agent pointer).
     * @param notAfter sessions whose `last_updated` is later than this (ms since the epoch) are skipped: a clock ahead
     */
    newestOf(project: string, agentName: string, notAfter?: number): Promise<SessionState | null>;
    /**
     * The valid session of a project linked to a Claude Code agent id (the most recently active one if several are), or
     * null.
     */
    findByClaudeAgent(project: string, claudeAgentId: string): Promise<SessionState | null>;
    /**
     * The session of a project a Claude Code agent id was attached to, even when a later agent has resumed it since (its
     * `claude.agent_id` then names that agent); else the project's session linked to it now; else null.
     */
    attachedTo(project: string, claudeAgentId: string): Promise<SessionState | null>;
    /**
     * Runs `work` (and waits for it) holding the locks of one Claude agent id and then of one agent type, so attaching an agent
     * (find, relink or create) is one step among the store's writers (processes for the file store). The locks are the
     * store's, whatever the project: two projects' attaches of one agent type wait for each other (a few milliseconds),
     * and the lock names stay those older versions take.
     */
    lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T>;
    /**
     * The newest valid session of every agent of a project the store knows (the file store: every agent it keeps a
     * pointer for).
     * @param notAfter as newestOf: sessions dated later are skipped
     */
    newestPerAgent(project: string, notAfter?: number): Promise<SessionState[]>;
    /**
     * Every session (of every project, or of the scope given), valid or not, in no particular order. Never throws for
     * one bad session.
     */
    list(scope?: ListScope): Promise<ListedSession[]>;
    /**
     * The ids that contain `part` (of every project, valid or not), at most `limit`: the id equal to it alone when the
     * store holds one. What a user's short id (the last 8 hex digits, or any part) is resolved against
     * (core/ids.ts pickId), without reading any session.
     */
    idsContaining(part: string, limit: number): Promise<string[]>;
    /**
     * The valid sessions of `scope` that `query` keeps, the most recently active first (later `last_updated`, then
     * id), at most `query.limit`; corrupt entries besides (their phase and agent are unknown), as `list` has them. A
     * database filters, orders and limits in its query; the others read no more than they must.
     */
    query(scope: ListScope | undefined, query: ListQuery): Promise<ListedSession[]>;
    /**
     * As `query`, with how many valid sessions it keeps in all (the limit aside): the first page of a long inbox and how
     * many more, in one pass of the file store's listing, or a query and a count of a database's index.
     */
    page(scope: ListScope | undefined, query: ListQuery): Promise<ListPage>;
    /**
     * What `stats` needs of the sessions of `scope` (valid ones; unassigned ones only when the scope asks for them):
     * their figures that add up and their medians, counted where the store keeps them (the file store's listing cache,
     * a database's facts table) instead of reading every session, and the states of the few live ones.
     */
    stats(scope: ListScope | undefined, query: StatsQuery): Promise<StatsAnswer>;
    /**
     * The sessions of `scope` last active before `query.before` or after `query.after`, by id and last activity (what
     * cleanup removes, found on an index: a million sessions are not read to find the 100,000 stale ones), and every
     * corrupt entry of the scope (cleanup judges those by their file's time).
     */
    aged(scope: ListScope | undefined, query: AgedQuery): Promise<AgedEntry[]>;
    /**
     * Removes a session under its lock when `shouldRemove` (given its current state, or null when corrupt) agrees.
     * @returns true when it was removed, false when there is no such session
     * @throws SessionError E_REFUSED when the entry is not agent-session's (see StoreMaintenance.notOurs), or the store
     *   root is a link
     */
    remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean>;
    /**
     * Removes each of `ids` as `remove` with `shouldRemove` would, in one call: a database judges and deletes them in
     * batches (cleanup's thousands of sessions in a few round trips); one id's failure is its own outcome, never the
     * others'. The outcomes are in the order of `ids`.
     */
    removeMany(ids: readonly string[], shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<RemovalOutcome[]>;
    /**
     * The hygiene of a store that can hold what it did not make, or what a killed writer left (the file store: folders
     * of a user's, temp files); absent on a store that has no such thing (a database rolls back a killed writer, and
     * holds nothing but rows it wrote).
     */
    readonly maintenance?: StoreMaintenance;
    /**
     * The store's clock: every time the service stamps or judges ("resumable", "idle") comes from here. The file and
     * memory stores answer the process clock (or the clock they were given, for tests); a shared store answers its
     * server's, so machines whose clocks disagree agree on what is resumable.
     */
    now(): Promise<Date>;
    /** Releases the store (a connection, for a network backend); nothing for the file and memory stores. */
    close(): Promise<void>;
}
/**
 * True when a listed session is in `scope`: no scope, every session; a corrupt entry that names no project, every
 * scope; one that names a project, that project's (another project's is never judged by this one, whatever it holds).
 */
export declare function inScope(entry: ListedSession, scope: ListScope | undefined): boolean;
/**
 * What only a store of folders needs besides the SessionStore port (see SessionStore.maintenance): which entries are
 * not its own, whether anything may be removed, and the sweep of leftovers.
 */
export interface StoreMaintenance {
    /** Why the entry `id` is not agent-session's to remove, or null when it is a session folder it made. */
    notOurs(id: string): Promise<string | null>;
    /** @throws SessionError E_REFUSED when nothing may be removed from this store (its root is a symbolic link) */
    assertRemovable(): Promise<void>;
    /** Entries named like the store's own leftovers that hold something else (sweep leaves them alone). */
    foreignEntries(): Promise<{
        id: string;
        reason: string;
    }[]>;
    /**
     * Removes leftovers of killed writers (temp files, half-created folders, locks of dead owners, pointers of sessions
     * gone) older than `olderThanMs`.
     * @param listed the listing the caller just took (cleanup's): a store that indexes its sessions gives those the index
     *   misses (written by another program) their entries; a store whose index cannot miss any ignores it
     * @returns the paths removed (with `dryRun`: those a sweep would remove now, the sessions of `removing` taken as gone)
     */
    sweep(olderThanMs: number, now: Date, listed?: readonly ListedSession[], options?: SweepOptions): Promise<string[]>;
}
/** How a sweep runs: for real, or as a dry run that removes nothing and counts `removing` as already gone. */
export interface SweepOptions {
    readonly dryRun?: boolean;
    /** With dryRun: the sessions the caller's real run would have removed first (their pointers go with them). */
    readonly removing?: ReadonlySet<string>;
}
