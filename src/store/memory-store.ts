import { isNewer, newestState } from '../core/activity';
import { SessionError, isSessionError } from '../core/errors';
import { assertValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { DEFAULT_PROJECT, withProject } from '../core/project';
import { decodeState, encodeState, namedProject } from './codec';
import {
  answerAged,
  answerPage,
  answerQuery,
  answerStats,
  inScope,
  type AgedEntry,
  type AgedQuery,
  type ListedSession,
  type ListPage,
  type ListQuery,
  type ListScope,
  type StatsAnswer,
  type StatsQuery,
} from '../service/store';
import { SettledStore, type SyncStore } from './settled-store';

/** One stored entry: the JSON text of a state (as the file store keeps state.json) and when it was written. */
interface Entry {
  readonly text: string;
  readonly modifiedAt: Date;
}

/** What a memory store may be given: a name for messages, the clock that dates its writes, its home project. */
export interface MemoryStoreOptions {
  readonly location?: string;
  readonly now?: () => Date;
  /**
   * As the file store's (FileStoreOptions.home): a session stored without a project belongs to it, and a session of it
   * is kept without one. Null: a session without a project is unassigned. Default: DEFAULT_PROJECT.
   */
  readonly home?: string | null;
}

/**
 * Sessions in a Map, for tests and embedding (lowdb's `Memory` adapter idea): the same contract as the file
 * store (tests/contract/), within one process. States are kept as JSON text and parsed with the strict schema
 * on every read, like state.json: a caller never holds a reference into the store, and a state the file store
 * would read back as corrupt reads back as corrupt here too. Each call is one synchronous step (SyncMemoryStore,
 * see SettledStore); `lockClaudeAgent` serializes its callers per key, as locks do across processes.
 */
export class MemoryStore extends SettledStore {
  readonly #sync: SyncMemoryStore;
  readonly #clock: () => Date;

  constructor(options: MemoryStoreOptions = {}) {
    const location = options.location ?? 'memory';
    const now = options.now ?? (() => new Date());
    const sync = new SyncMemoryStore(location, now, options.home === undefined ? DEFAULT_PROJECT : options.home);
    super(location, sync, now);
    this.#sync = sync;
    this.#clock = now;
  }

  /**
   * Test hook: stores `text` as the session's raw content, as if state.json held it (a torn write, an edit by
   * hand, an old version), so corrupt entries can be planted. Overwrites; checks only the id.
   */
  putRaw(id: string, text: string, modifiedAt: Date = this.#clock()): void {
    this.#sync.putRaw(id, text, modifiedAt);
  }
}

/** The memory store's work, synchronous (see MemoryStore). */
class SyncMemoryStore implements SyncStore {
  readonly location: string;
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => Date;
  /** Claude agent id → the session it was attached to (the file store's `.claude-agents/` pointers). */
  readonly #attached = new Map<string, string>();
  /** The project of sessions kept without one (see MemoryStoreOptions.home), or null. */
  readonly #home: string | null;

  constructor(location: string, now: () => Date, home: string | null) {
    this.location = location;
    this.#now = now;
    this.#home = home;
  }

  read(id: string): SessionState | null {
    const entry = this.#entries.get(assertValidId(id));
    return entry === undefined ? null : this.#decode(id, entry.text);
  }

  create(state: SessionState): void {
    const id = assertValidId(state.agent_id);
    const text = this.#encode(state);
    if (this.#entries.has(id))
      throw new SessionError('E_DUPLICATE', `Session \`${id}\` already exists; create never overwrites`);
    this.#put(id, text);
  }

  update(id: string, change: (state: SessionState) => SessionState): SessionState {
    const current = this.read(id);
    if (current === null) throw notFound(id);
    // Encoded before anything is stored: a change that throws, or a state that cannot be written, leaves the old one.
    const text = this.#encode(change(current));
    this.#put(id, text);
    return this.#decode(id, text);
  }

  newestOf(project: string, agentName: string, notAfter = Infinity): SessionState | null {
    const mine = (state: SessionState): boolean =>
      state.agent_name === agentName && !(Date.parse(state.last_updated) > notAfter);
    return newestState(this.#valid(project).filter(mine));
  }

  findByClaudeAgent(project: string, claudeAgentId: string): SessionState | null {
    return newestState(this.#valid(project).filter((state) => state.claude?.agent_id === claudeAgentId));
  }

  /**
   * The project's session this Claude agent id was attached to while it is linked to some Claude agent, else the
   * project's session linked to it now. The pointer is the store's (one per agent id): one naming another project's
   * session is passed over.
   */
  attachedTo(project: string, claudeAgentId: string): SessionState | null {
    const pointed = this.#attached.get(claudeAgentId);
    const state = pointed === undefined ? null : this.#readQuiet(pointed);
    return state?.claude !== undefined && state.project === project
      ? state
      : this.findByClaudeAgent(project, claudeAgentId);
  }

  newestPerAgent(project: string, notAfter = Infinity): SessionState[] {
    const byAgent = new Map<string, SessionState>();
    for (const state of this.#valid(project)) {
      if (Date.parse(state.last_updated) > notAfter) continue;
      const known = byAgent.get(state.agent_name);
      if (known === undefined || isNewer(state, known)) byAgent.set(state.agent_name, state);
    }
    return [...byAgent.values()];
  }

  query(scope: ListScope | undefined, query: ListQuery): ListedSession[] {
    return answerQuery(this.list(scope), query);
  }

  page(scope: ListScope | undefined, query: ListQuery): ListPage {
    return answerPage(this.list(scope), query);
  }

  stats(scope: ListScope | undefined, query: StatsQuery): StatsAnswer {
    return answerStats(this.list(scope), query);
  }

  aged(scope: ListScope | undefined, query: AgedQuery): AgedEntry[] {
    return answerAged(this.list(scope), query);
  }

  idsContaining(part: string, limit: number): string[] {
    if (this.#entries.has(part)) return [part];
    return [...this.#entries.keys()].filter((id) => id.includes(part)).slice(0, limit);
  }

  list(scope?: ListScope): ListedSession[] {
    const listed: ListedSession[] = [];
    for (const [id, entry] of this.#entries) {
      let item: ListedSession;
      try {
        item = { kind: 'valid', id, state: this.#decode(id, entry.text) };
      } catch (error) {
        if (!isSessionError(error, 'E_CORRUPT')) throw error;
        const project = namedProject(entry.text);
        item = {
          kind: 'corrupt',
          id,
          error: error.message,
          modifiedAt: entry.modifiedAt,
          ...(project === undefined ? {} : { project }),
        };
      }
      if (inScope(item, scope)) listed.push(item);
    }
    return listed;
  }

  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean {
    const entry = this.#entries.get(assertValidId(id));
    if (entry === undefined) return false;
    if (shouldRemove !== undefined) {
      let state: SessionState | null;
      try {
        state = this.#decode(id, entry.text);
      } catch (error) {
        if (!isSessionError(error, 'E_CORRUPT')) throw error;
        state = null;
      }
      if (!shouldRemove(state, entry.modifiedAt)) return false;
    }
    this.#entries.delete(id);
    return true;
  }

  /** One process has no other writer: the per-key promise chains (SettledStore) are the whole lock. */
  claudeAgentLocks(_claudeAgentId: string, _agentType: string): () => void {
    return () => undefined;
  }

  putRaw(id: string, text: string, modifiedAt: Date): void {
    this.#entries.set(assertValidId(id), { text, modifiedAt });
  }

  // --- internal ---

  #put(id: string, text: string): void {
    this.#entries.set(id, { text, modifiedAt: this.#now() });
    this.#written(this.#decode(id, text));
  }

  /** A state from its stored text (codec.ts), with the home project when it names none. */
  #decode(id: string, text: string): SessionState {
    const state = decodeState(id, text, 'the stored state');
    return state.project === undefined && this.#home !== null ? withProject(state, this.#home) : state;
  }

  /** The stored text of a state (codec.ts): a session of the home project is kept without one, as the file store does. */
  #encode(state: SessionState): string {
    return encodeState(this.#home !== null && state.project === this.#home ? withProject(state, undefined) : state);
  }

  /** As the file store's Claude-agent pointer: kept on the most recently active of several sessions linked to one id. */
  #written(state: SessionState): void {
    const agentId = state.claude?.agent_id;
    if (agentId === undefined) return;
    const pointed = this.#attached.get(agentId);
    if (pointed !== undefined && pointed !== state.agent_id) {
      const other = this.#readQuiet(pointed);
      if (other !== null && other.claude?.agent_id === agentId && isNewer(other, state)) return;
    }
    this.#attached.set(agentId, state.agent_id);
  }

  #readQuiet(id: string): SessionState | null {
    try {
      return this.read(id);
    } catch (error) {
      if (isSessionError(error, 'E_CORRUPT')) return null;
      throw error;
    }
  }

  /** The valid sessions of a project. */
  #valid(project: string): SessionState[] {
    return this.list({ project }).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  }
}

// --- internal ---

function notFound(id: string): SessionError {
  return new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
}
