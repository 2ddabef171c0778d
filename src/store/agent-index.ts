import { isNewer, keepNewer, newestState } from '../core/activity';
import { isSessionError } from '../core/errors';
import { isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { DEFAULT_LOCK_OPTIONS, type LockOptions } from '../platform/lock';
import { PointerIndex, type KeyPolicy, type PointedStore, type Before, type Target } from './pointer-index';

/** The folder of pointers inside the store root; hidden, so listings and sweeps skip it like any dot-entry. */
export const INDEX_DIR = '.agents';

/** Agent names longer than this (in UTF-8 bytes) get no pointer: their lookups scan, as before. */
const MAX_NAME_BYTES = 100;

/**
 * The pointer file names of the home project (`<hex of the name>.json`, as before projects) and of another project
 * (`p<14 hex digits of the project's hash>-<hex of the name>.json`).
 */
const HOME_POINTER = /^((?:[0-9a-f]{2})+)\.json$/;
const PROJECT_POINTER = /^(p[0-9a-f]{14})-((?:[0-9a-f]{2})+)\.json$/;

/** What the index needs of the store: a strict read of one session and a scan for an agent's newest. */
export interface IndexedStore extends PointedStore {
  /** Skips sessions whose `last_updated` is later than `notAfter` (ms since the epoch) when it is given. */
  scanNewest(project: string, agentName: string, notAfter?: number): SessionState | null;
}

/** The key of the agent-name index: an agent name in a project. */
interface AgentKey {
  readonly project: string;
  readonly name: string;
}

/**
 * The key policy of the agent-name index: a pointer per agent name of a project (`<root>/.agents/<hex of the
 * name>.json`) to its most recently active session, as `{"agent_name", "project"?, "agent_id", "last_updated"}`; the
 * home project's (the folder the store is in, whose files name no project) keep the names and contents they had before
 * projects, another project's are `p<hash of the project>-<hex of the name>.json` and record the project (a hash shared
 * by two projects only costs scans). Trusted when the session named belongs to that agent and project and still has
 * the `last_updated` recorded. Its announcement (`{"agent_name", "project"?, "pending"}`) is never believed: which
 * session is the newest only a scan can tell. A pointer may also record "no session" (older versions wrote it).
 */
function agentPolicy(home: string | null): KeyPolicy<AgentKey> {
  /** What a pointer records of its project: nothing for the home project (as before projects), else the project. */
  const projectField = (project: string): { project?: string } => (project === home ? {} : { project });
  return {
    folder: INDEX_DIR,
    temp: 'suffix',
    fileName({ project, name: agentName }) {
      const bytes = Buffer.from(agentName, 'utf8');
      if (bytes.length === 0 || bytes.length > MAX_NAME_BYTES) return null;
      const name = `${bytes.toString('hex')}.json`;
      return project === home ? name : `${projectPrefix(project)}-${name}`;
    },
    parse(text, { project, name }) {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        // A torn or edited pointer is only a cache miss: JSON.parse fails in no other way.
        return 'untrusted';
      }
      if (typeof raw !== 'object' || raw === null) return 'untrusted';
      // An announcement (`pending`) has neither field: never trusted, and older versions read it as no pointer.
      const fields = raw as Record<string, unknown>;
      const { agent_name, agent_id, last_updated } = fields;
      if (agent_name !== name) return 'untrusted';
      // A home pointer names no project; another project's names its own (two projects' hashes may meet).
      if ((Object.hasOwn(fields, 'project') ? fields.project : home) !== project) return 'untrusted';
      if (agent_id === null && last_updated === null) return { session: null, pending: false };
      if (!isValidId(agent_id) || typeof last_updated !== 'string') return 'untrusted';
      return { session: agent_id, pending: false, stamp: last_updated };
    },
    plain({ project, name }, target) {
      const pointer = {
        agent_name: name,
        ...projectField(project),
        agent_id: target?.agent_id ?? null,
        last_updated: target?.last_updated ?? null,
      };
      return `${JSON.stringify(pointer)}\n`;
    },
    announcement({ project, name }, session) {
      return `${JSON.stringify({ agent_name: name, ...projectField(project), pending: session })}\n`;
    },
    checks: (key, pointer, state) => isOf(state, key) && state.last_updated === pointer.stamp,
    proves: () => false,
    *pointed(states) {
      const newest = new Map<string, SessionState>();
      // One pointer per project and name (a NUL never occurs in a project name: the naming rule refuses it).
      for (const state of states)
        if (state.project !== undefined) keepNewer(newest, `${state.project}\u0000${state.agent_name}`, state);
      for (const state of newest.values()) yield [{ project: state.project!, name: state.agent_name }, state];
    },
  };
}

/**
 * A per-agent pointer to its most recently active session (see agentPolicy), so a lookup by agent name reads two small
 * files instead of every session; the protocol is PointerIndex's. A session of no project (unassigned) has no pointer:
 * no lookup asks for it. What this index adds:
 *
 * - every write through the store moves the pointer under the agent's pointer lock: announced (flushed when it is the
 *   name's first), the session written, then settled to the newer of the written session and the one it pointed to,
 *   so a writer that fails half-way leaves an announcement (a scan), never a wrong pointer and never none; a write that
 *   fails puts the old pointer back;
 * - a pointer is removed only under its lock, after a scan found no session; a lookup whose pointer does not check
 *   out scans under that lock and rewrites the pointer.
 *
 * Writers that bypass agent-session (another program editing session folders) are not seen by the pointer
 * until the pointed session itself changes or is removed; see docs/storage.md.
 */
export class AgentIndex {
  readonly #index: PointerIndex<AgentKey>;
  readonly #store: IndexedStore;
  /** The project whose sessions name none in their files (the folder's), or null when there is none. */
  readonly #home: string | null;

  constructor(root: string, store: IndexedStore, lock: LockOptions = DEFAULT_LOCK_OPTIONS, home: string | null = null) {
    this.#index = new PointerIndex(root, agentPolicy(home), store, lock);
    this.#store = store;
    this.#home = home;
  }

  /**
   * The newest valid session of `agentName`, from the pointer when it checks out, else from a scan.
   * A wrong pointer never throws: it only costs a scan; a pointer that cannot be rebuilt (read-only or busy store) too.
   * With `notAfter`, a session whose `last_updated` is later (a clock ahead) is skipped: the pointer keeps the folders'
   * order, so only when it names such a session does the lookup scan, skipping every skewed one.
   */
  newestOf(project: string, agentName: string, notAfter = Infinity): SessionState | null {
    const key = { project, name: agentName };
    const file = this.#index.file(key);
    // A pointer folder that is a link (planted, or copied in) is neither read nor written through: scans only.
    if (file === null || !this.#index.usable()) return this.#store.scanNewest(project, agentName, notAfter);
    const found = this.#index.lookup(key);
    if (found === 'list') {
      // No pointer and no marker: a store an older version made. One listing answers and completes the index.
      const mine = (state: SessionState): boolean => isOf(state, key) && !(Date.parse(state.last_updated) > notAfter);
      return newestState(this.#store.scan().filter(mine));
    }
    const newest = found === 'scan' ? this.#rebuild(file, key) : found;
    return newest !== null && Date.parse(newest.last_updated) > notAfter
      ? this.#store.scanNewest(project, agentName, notAfter)
      : newest;
  }

  /**
   * Writes a session through `write` with the agent's pointer kept right (PointerIndex's protocol, under the pointer's
   * lock): announced (flushed when it is the name's first pointer), then settled to the newer of `state` and the
   * previously pointed session. The session lock, when any, is already held.
   */
  writing<T>(state: SessionState, write: () => T): T {
    const project = state.project;
    // A session of no project (unassigned) has no pointer: no lookup asks for it.
    if (project === undefined) return write();
    const key = { project, name: state.agent_name };
    const file = this.#index.file(key);
    // Something else in the index's place (a stray file, a link): no pointer is kept there, so none can mislead.
    if (file === null || !this.#index.usable()) return write();
    return this.#index.writing(file, key, state.agent_id, write, (before) => this.#settleTo(before, key, state));
  }

  /**
   * The agent names of a project that have a pointer file (decoded from the file names); none when there is no index
   * yet.
   */
  names(project: string): string[] {
    const prefix = project === this.#home ? null : projectPrefix(project);
    return this.#index.fileNames().flatMap((file) => {
      let hex: string | undefined;
      if (prefix === null) hex = HOME_POINTER.exec(file)?.[1];
      else {
        const match = PROJECT_POINTER.exec(file);
        hex = match?.[1] === prefix ? match[2] : undefined;
      }
      return hex === undefined ? [] : [Buffer.from(hex, 'hex').toString('utf8')];
    });
  }

  /**
   * Completes the index from a listing of the store (PointerIndex.complete): a pointer to the newest session of every
   * agent name that has none. `cleanup` runs it on a marked index too: agent names another program wrote sessions of
   * get a pointer. Only inside an existing store.
   * @param exists whether a listed session is still there (cleanup lists before it removes)
   * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
   */
  rebuild(states: readonly SessionState[], exists: (id: string) => boolean = () => true): void {
    this.#index.complete(states, exists);
  }

  // --- internal ---

  /**
   * Where the pointer goes after `state` is written: set again from what the one taken down said when it was
   * trustworthy ("no session", or a session that still exists as recorded); an import keeps an old last_updated, so
   * `state` need not be the newest. Null: a pointer that changed under us stays an announcement, and the next lookup
   * scans.
   */
  #settleTo({ pointer: before, first }: Before, key: AgentKey, state: SessionState): Target | null {
    // The name's first session in a complete index: no other to compare with.
    if (first || (before !== 'absent' && before !== 'untrusted' && before.session === null)) return state;
    // A pointer not to trust (or no marker): a scan under the lock already held, as a lookup would do.
    if (before === 'absent' || before === 'untrusted' || before.pending)
      return this.#store.scanNewest(key.project, key.name);
    if (before.session === state.agent_id)
      return Date.parse(state.last_updated) >= Date.parse(before.stamp!) ? state : null;
    const other = this.#index.readQuiet(before.session);
    // A clock that went back can leave the other session newer; the pointer follows the folders' order.
    if (other !== null && isOf(other, key) && other.last_updated === before.stamp)
      return isNewer(other, state) ? other : state;
    return null;
  }

  /** The scan, then (under the pointer lock, so no writer runs meanwhile) a fresh pointer. */
  #rebuild(file: string, key: AgentKey): SessionState | null {
    let release: () => void;
    try {
      release = this.#index.lock(file, false);
    } catch (error) {
      // A read-only or busy store still answers, from a scan; only the pointer is not rebuilt.
      const unusable = ['E_IO', 'E_BUSY', 'E_NOT_FOUND', 'E_REFUSED'] as const;
      if (unusable.some((code) => isSessionError(error, code))) return this.#store.scanNewest(key.project, key.name);
      throw error;
    }
    try {
      // Scanned under the lock: every writer that finished (or failed) before is on disk, later ones wait.
      const newest = this.#store.scanNewest(key.project, key.name);
      // Only real sessions get a pointer: a lookup of a name with none (any payload text) must not grow the store
      // by a file per name. A pointer that named a session now gone goes; the next create sets one.
      if (newest === null) this.#index.remove(file);
      else this.#index.settle(file, key, newest);
      return newest;
    } finally {
      release();
    }
  }
}

// --- internal ---

/** True when `state` is a session of the key's agent name in its project. */
function isOf(state: SessionState, { project, name }: AgentKey): boolean {
  return state.agent_name === name && state.project === project;
}

/**
 * `p` and 14 hex digits of a 53-bit hash of the project (cyrb53): a bounded file name prefix for any project name. A
 * hash two projects share only makes their pointers of one name distrust each other (scans), never mislead.
 */
function projectPrefix(project: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < project.length; i++) {
    const c = project.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `p${hash.toString(16).padStart(14, '0')}`;
}
