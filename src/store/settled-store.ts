import type { SessionState } from '../core/state';
import { KeyedSerializer } from '../platform/serial';
import type {
  AgedEntry,
  AgedQuery,
  ListedSession,
  ListPage,
  ListQuery,
  StatsAnswer,
  StatsQuery,
  ListScope,
  RemovalOutcome,
  SessionStore,
  StoreMaintenance,
} from '../service/store';
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
export class SettledStore implements SessionStore {
  readonly location: string;
  readonly #sync: SyncStore;
  readonly #now: () => Date;
  readonly #serial = new KeyedSerializer();

  readonly maintenance?: StoreMaintenance;

  constructor(location: string, sync: SyncStore, now: () => Date = () => new Date()) {
    this.location = location;
    this.#sync = sync;
    this.#now = now;
    const hygiene = sync.maintenance;
    if (hygiene !== undefined)
      this.maintenance = {
        notOurs: async (id) => hygiene.notOurs(id),
        assertRemovable: async () => hygiene.assertRemovable(),
        foreignEntries: async () => hygiene.foreignEntries(),
        sweep: async (olderThanMs, now, listed, options) => hygiene.sweep(olderThanMs, now, listed, options),
      };
  }

  async read(id: string): Promise<SessionState | null> {
    return this.#sync.read(id);
  }

  async create(state: SessionState): Promise<void> {
    this.#sync.create(state);
  }

  async update(id: string, change: (state: SessionState) => SessionState): Promise<SessionState> {
    return this.#sync.update(id, change);
  }

  async newestOf(project: string, agentName: string, notAfter?: number): Promise<SessionState | null> {
    return this.#sync.newestOf(project, agentName, notAfter);
  }

  async findByClaudeAgent(project: string, claudeAgentId: string): Promise<SessionState | null> {
    return this.#sync.findByClaudeAgent(project, claudeAgentId);
  }

  async attachedTo(project: string, claudeAgentId: string): Promise<SessionState | null> {
    return this.#sync.attachedTo(project, claudeAgentId);
  }

  /**
   * Runs `work` once every earlier attach of this process under the Claude agent id, and then the agent type, has
   * ended, holding the SyncStore's locks of both (other processes' attaches wait for those).
   */
  lockClaudeAgent<T>(claudeAgentId: string, agentType: string, work: () => Promise<T>): Promise<T> {
    const keys = agentType === '' ? [`agent:${claudeAgentId}`] : [`agent:${claudeAgentId}`, `type:${agentType}`];
    return this.#serial.run(keys, async () => {
      const release = this.#sync.claudeAgentLocks(claudeAgentId, agentType);
      try {
        return await work();
      } finally {
        release();
      }
    });
  }

  async newestPerAgent(project: string, notAfter?: number): Promise<SessionState[]> {
    return this.#sync.newestPerAgent(project, notAfter);
  }

  async list(scope?: ListScope): Promise<ListedSession[]> {
    return this.#sync.list(scope);
  }

  async query(scope: ListScope | undefined, query: ListQuery): Promise<ListedSession[]> {
    return this.#sync.query(scope, query);
  }

  async page(scope: ListScope | undefined, query: ListQuery): Promise<ListPage> {
    return this.#sync.page(scope, query);
  }

  async stats(scope: ListScope | undefined, query: StatsQuery): Promise<StatsAnswer> {
    return this.#sync.stats(scope, query);
  }

  async aged(scope: ListScope | undefined, query: AgedQuery): Promise<AgedEntry[]> {
    return this.#sync.aged(scope, query);
  }

  async idsContaining(part: string, limit: number): Promise<string[]> {
    return this.#sync.idsContaining(part, limit);
  }

  async remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean> {
    return this.#sync.remove(id, shouldRemove);
  }

  /** One `remove` after the other (each under its own lock). */
  async removeMany(
    ids: readonly string[],
    shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean,
  ): Promise<RemovalOutcome[]> {
    return ids.map((id) => {
      try {
        return { id, removed: this.#sync.remove(id, shouldRemove) };
      } catch (error) {
        return { id, error };
      }
    });
  }

  /** The process clock, or the one this store was given (tests). */
  async now(): Promise<Date> {
    return this.#now();
  }

  /** Nothing is held between calls: every lock is released by the call that took it. */
  async close(): Promise<void> {}
}
