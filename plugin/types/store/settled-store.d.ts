import type { SessionState } from '../core/state';
import type { AgedEntry, AgedQuery, ListedSession, ListPage, ListQuery, StatsAnswer, StatsQuery, ListScope, RemovalOutcome, SessionStore, StoreMaintenance } from '../service/store';
import type { SyncMaintenance } from './file-hygiene';
/**
 * The synchronous work of a store whose every call is one step of this process (the file and memory stores): the
 * SessionStore methods without Promises, and the attach locks as a take-and-release pair.
 */
export interface SyncStore {
    read(id: string): SessionState | null;
    create(state: SessionState): void;
    update(id: string, change: (state: SessionState) => SessionState): SessionState;
    newestOf(project: string, agentName: string, notAfter?: number): SessionState | null;
    findByClaudeAgent(project: string, claudeAgentId: string): SessionState | null;
    attachedTo(project: string, claudeAgentId: string): SessionState | null;
    newestPerAgent(project: string, notAfter?: number): SessionState[];
    list(scope?: ListScope): ListedSession[];
    idsContaining(part: string, limit: number): string[];
    query(scope: ListScope | undefined, query: ListQuery): ListedSession[];
    page(scope: ListScope | undefined, query: ListQuery): ListPage;
    stats(scope: ListScope | undefined, query: StatsQuery): StatsAnswer;
    aged(scope: ListScope | undefined, query: AgedQuery): AgedEntry[];
    remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean;
    /** The store's hygiene, when it has any (SessionStore.maintenance). */
    readonly maintenance?: SyncMaintenance;
    /** Takes the locks of a Claude agent id, then of an agent type ('' for none), and returns their release. */
    claudeAgentLocks(claudeAgentId: string, agentType: string): () => void;
}
/**
 * A SessionStore over a SyncStore: each call does its synchronous work at once and answers a settled Promise (no
 * event-loop turn is spent on the hook path). Attaches of one process are serialized per key (a promise chain)
 * before the SyncStore's own locks are taken: a blocking wait for a lock this very process holds would never end.
 */
export declare class SettledStore implements SessionStore {
    #private;
    readonly location: string;
    readonly maintenance?: StoreMaintenance;
    constructor(location: string, sync: SyncStore, now?: () => Date);
    read(id: string): Promise<SessionState | null>;
    create(state: SessionState): Promise<void>;
    update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState>;
    newestOf(project: string, agentName: string, notAfter?: number): Promise<SessionState | null>;
    findByClaudeAgent(project: string, claudeAgentId: string): Promise<SessionState | null>;
    attachedTo(project: string, claudeAgentId: string): Promise<SessionState | null>;
    /**
     * Runs `work` once every earlier attach of this process under the Claude agent id, and then the agent type, has
     * ended, holding the SyncStore's locks of both (other processes' attaches wait for those).
     */
    lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T>;
    newestPerAgent(project: string, notAfter?: number): Promise<SessionState[]>;
    list(scope?: ListScope): Promise<ListedSession[]>;
    query(scope: ListScope | undefined, query: ListQuery): Promise<ListedSession[]>;
    page(scope: ListScope | undefined, query: ListQuery): Promise<ListPage>;
    stats(scope: ListScope | undefined, query: StatsQuery): Promise<StatsAnswer>;
    aged(scope: ListScope | undefined, query: AgedQuery): Promise<AgedEntry[]>;
    idsContaining(part: string, limit: number): Promise<string[]>;
    remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean>;
    /** One `remove` after the other (each under its own lock). */
    removeMany(ids: readonly string[], shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<RemovalOutcome[]>;
    /** The process clock, or the one this store was given (tests). */
    now(): Promise<Date>;
    /** Nothing is held between calls: every lock is released by the call that took it. */
    close(): Promise<void>;
}
