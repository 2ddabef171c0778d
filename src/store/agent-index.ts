import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer, keepNewer, newestState } from '../core/activity';
import { isSessionError } from '../core/errors';
import { isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { acquireLock, DEFAULT_LOCK_OPTIONS, type LockOptions } from '../platform/lock';
import { ensurePrivateDir } from '../platform/private-fs';
import { readRegularFile } from '../platform/strict-read';
import { writeFileAtomic } from '../platform/atomic-file';
import { completeIndex, isMarkedComplete, type IndexEntry } from './index-marker';

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
export interface IndexedStore {
  /** The session, with its project (the store's home project when its file names none). */
  read(id: string): SessionState | null;
  /** Skips sessions whose `last_updated` is later than `notAfter` (ms since the epoch) when it is given. */
  scanNewest(project: string, agentName: string, notAfter?: number): SessionState | null;
  /**
   * Every valid session, from one listing of the store; the store also completes (rebuilds and marks) the indexes
   * that have no marker yet, this one included, from that listing.
   */
  scan(): SessionState[];
}

/** What a pointer file says: a session with the `last_updated` it had, "no session", or nothing to go by. */
type Pointed = { agent_id: string; last_updated: string } | 'none' | 'absent' | 'untrusted';

/**
 * A per-agent pointer to its most recently active session (`<root>/.agents/<hex of the name>.json`), so a
 * lookup by agent name reads two small files instead of every session. Pointers are per project: the home project's
 * (the folder the store is in, whose files name no project) keep the names above, so a store used by one project is
 * exactly what it was; another project's are `p<hash of the project>-<hex of the name>.json`, and record the project
 * (a hash shared by two projects only costs scans). A session of no project (unassigned) has no pointer: no lookup
 * asks for it. The folders stay the source of truth:
 *
 * - every write through the store moves the pointer under the agent's pointer lock: the pointer is replaced by an
 *   announcement (`pending`, which no lookup trusts) before the session is written and set again after, to the newer
 *   of the written session and the one it pointed to, so a writer that fails half-way leaves an announcement (a
 *   scan), never a wrong pointer and never none;
 * - the index is complete (its marker, index-marker.ts): every agent name with a session has a pointer, so a name
 *   without one has no session, and the lookup of a new agent name reads no session. A name's first pointer is
 *   flushed (file and folder) before its first session is written; a pointer is removed only under its lock, after a
 *   scan found no session. A store without the marker (made by an older version) is listed once and completed;
 * - a lookup trusts a pointer only when the session it names exists, is valid, belongs to that agent and still
 *   has the `last_updated` the pointer recorded; anything else (an announcement, a corrupt or foreign pointer, a
 *   deleted or changed session) falls back to a scan of the folders, which then rewrites the pointer under the lock.
 *
 * Writers that bypass agent-session (another program editing session folders) are not seen by the pointer
 * until the pointed session itself changes or is removed; see docs/performance.md.
 */
export class AgentIndex {
  readonly #dir: string;
  readonly #store: IndexedStore;
  readonly #lock: LockOptions;
  /** The project whose sessions name none in their files (the folder's), or null when there is none. */
  readonly #home: string | null;

  constructor(root: string, store: IndexedStore, lock: LockOptions = DEFAULT_LOCK_OPTIONS, home: string | null = null) {
    this.#dir = join(root, INDEX_DIR);
    this.#store = store;
    this.#lock = lock;
    this.#home = home;
  }

  /**
   * The newest valid session of `agentName`, from the pointer when it checks out, else from a scan.
   * A wrong pointer never throws: it only costs a scan; a pointer that cannot be rebuilt (read-only or busy store) too.
   * With `notAfter`, a session whose `last_updated` is later (a clock ahead) is skipped: the pointer keeps the folders'
   * order, so only when it names such a session does the lookup scan, skipping every skewed one.
   */
  newestOf(project: string, agentName: string, notAfter = Infinity): SessionState | null {
    const file = this.#file(project, agentName);
    // A pointer folder that is a link (planted, or copied in) is neither read nor written through: scans only.
    if (file === null || notAFolder(this.#dir)) return this.#store.scanNewest(project, agentName, notAfter);
    const pointed = this.#readPointer(file, project, agentName);
    // "No session": written by older versions' scans (no longer: see #rebuild); every create replaces it.
    if (pointed === 'none') return null;
    if (pointed === 'absent') {
      // The complete index has a pointer for every name with a session: this one has none.
      if (this.#isComplete()) return null;
      // A store an older version made: one listing answers and completes the index.
      const mine = (state: SessionState): boolean =>
        isOf(state, project, agentName) && !(Date.parse(state.last_updated) > notAfter);
      return newestState(this.#store.scan().filter(mine));
    }
    let newest: SessionState | null = null;
    if (pointed !== 'untrusted') {
      const state = this.#readQuiet(pointed.agent_id);
      if (state !== null && isOf(state, project, agentName) && state.last_updated === pointed.last_updated)
        newest = state;
    }
    newest ??= this.#rebuild(file, project, agentName);
    return newest !== null && Date.parse(newest.last_updated) > notAfter
      ? this.#store.scanNewest(project, agentName, notAfter)
      : newest;
  }

  /**
   * Writes a session through `write` with the agent's pointer kept right: replaced by an announcement first (flushed
   * when it is the name's first pointer), set to the newer of `state` and the previously pointed session after. The
   * session lock, when any, is already held.
   */
  writing<T>(state: SessionState, write: () => T): T {
    const project = state.project;
    // A session of no project (unassigned) has no pointer: no lookup asks for it.
    if (project === undefined) return write();
    const file = this.#file(project, state.agent_name);
    if (file === null) return write();
    // Something else in the index's place (a stray file, a link): no pointer is kept there, so none can mislead.
    if (notAFolder(this.#dir)) return write();
    this.#ensureDir(true);
    const release = acquireLock(`${file}.lock`, this.#lock);
    try {
      let pointer = this.#readPointer(file, project, state.agent_name);
      let first = pointer === 'absent' && this.#isComplete();
      if (pointer === 'absent' && !first) {
        // Completed first, so that a missing pointer means "no session" (the listing may write this one).
        this.#store.scan();
        pointer = this.#readPointer(file, project, state.agent_name);
        first = pointer === 'absent' && this.#isComplete();
      }
      // Announced, not removed: a lookup meanwhile (or after a crash) scans, and a complete index keeps a pointer for
      // every name with a session. A name's first one is flushed before its session is written: "no pointer" must
      // outlive a crash of the machine as "no session", never outlive the session.
      const announcement = { agent_name: state.agent_name, ...this.#projectField(project), pending: state.agent_id };
      writeFileAtomic(file, `${JSON.stringify(announcement)}\n`, { durable: first, temp: 'suffix' });
      let result: T;
      try {
        result = write();
      } catch (error) {
        // Nothing was written: what the pointer said still holds (a first one: still no session of that name).
        this.#restorePointer(file, pointer, project, state.agent_name);
        throw error;
      }
      try {
        // The pointer is set again from what the one taken down said when it was trustworthy ("no session", or a
        // session that still exists as recorded); an import keeps an old last_updated, so `state` need not be the
        // newest. A pointer that changed under us stays an announcement, and the next lookup scans.
        let newest: SessionState | null = null;
        // The name's first session in a complete index: no other to compare with.
        if (first || pointer === 'none') newest = state;
        // A pointer not to trust (or no marker): a scan under the lock already held, as a lookup would do.
        else if (pointer === 'absent' || pointer === 'untrusted')
          newest = this.#store.scanNewest(project, state.agent_name);
        else if (pointer.agent_id === state.agent_id)
          newest = Date.parse(state.last_updated) >= Date.parse(pointer.last_updated) ? state : null;
        else {
          const other = this.#readQuiet(pointer.agent_id);
          if (other !== null && isOf(other, project, state.agent_name) && other.last_updated === pointer.last_updated) {
            // A clock that went back can leave the other session newer; the pointer follows the folders' order.
            newest = isNewer(other, state) ? other : state;
          }
        }
        if (newest !== null) this.#writePointer(file, newest, project, state.agent_name);
      } catch (error) {
        // The session is written; without a pointer the next lookup scans, so the write still succeeded.
        if (!isSessionError(error, 'E_IO')) throw error;
      }
      return result;
    } finally {
      release();
    }
  }

  /**
   * The agent names of a project that have a pointer file (decoded from the file names); none when there is no index
   * yet.
   */
  names(project: string): string[] {
    // A pointer folder that is a link is not ours to read either.
    if (notAFolder(this.#dir)) return [];
    let files: string[];
    try {
      files = readdirSync(this.#dir);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw ioError(error, 'list', this.#dir);
    }
    const prefix = project === this.#home ? null : projectPrefix(project);
    return files.flatMap((file) => {
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
   * Completes the index from a listing of the store: a pointer to the newest session of every agent name that has
   * none (created exclusively: a writer may hold its lock meanwhile; an existing one, even wrong, is checked on read).
   * An index without its marker (a store an older version made, once) is then marked, after each of those pointers and
   * the folder are flushed. `cleanup` runs it on a marked index too: agent names another program wrote sessions of
   * get a pointer. Only inside an existing store.
   * @param exists whether a listed session is still there (cleanup lists before it removes)
   * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
   */
  rebuild(states: readonly SessionState[], exists: (id: string) => boolean = () => true): void {
    const marked = this.#isComplete();
    const newest = new Map<string, SessionState>();
    // One pointer per project and name (a NUL never occurs in a project name: the naming rule refuses it).
    for (const state of states)
      if (state.project !== undefined) keepNewer(newest, `${state.project}\u0000${state.agent_name}`, state);
    this.#ensureDir(false);
    const entries: IndexEntry[] = [];
    for (const state of newest.values()) {
      const project = state.project!;
      const file = this.#file(project, state.agent_name);
      if (file !== null)
        entries.push({ file, session: state.agent_id, text: this.#pointerText(state, project, state.agent_name) });
    }
    completeIndex(this.#dir, marked, entries, exists, 'suffix');
  }

  // --- internal ---

  /** Read every time (a small file): a long-lived process must see the folder removed meanwhile ("always safe"). */
  #isComplete(): boolean {
    return isMarkedComplete(this.#dir);
  }

  /** The pointer file of a project's agent name: the home project's as before projects, another's prefixed. */
  #file(project: string, agentName: string): string | null {
    const bytes = Buffer.from(agentName, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_NAME_BYTES) return null;
    const name = `${bytes.toString('hex')}.json`;
    return join(this.#dir, project === this.#home ? name : `${projectPrefix(project)}-${name}`);
  }

  /** What a pointer records of its project: nothing for the home project (as before projects), else the project. */
  #projectField(project: string): { project?: string } {
    return project === this.#home ? {} : { project };
  }

  /** The text of a pointer of a project's agent name to a session as it was, or recording that it has none (null). */
  #pointerText(state: { agent_id: string; last_updated: string } | null, project: string, agentName: string): string {
    const pointer = {
      agent_name: agentName,
      ...this.#projectField(project),
      agent_id: state?.agent_id ?? null,
      last_updated: state?.last_updated ?? null,
    };
    return `${JSON.stringify(pointer)}\n`;
  }

  /** Points a project's agent name at `state`, or records that it has no valid session (`state` null). */
  #writePointer(
    file: string,
    state: { agent_id: string; last_updated: string } | null,
    project: string,
    agentName: string,
  ): void {
    // No fsync: a pointer lost or torn by a crash is checked on read and rebuilt from the folders.
    writeFileAtomic(file, this.#pointerText(state, project, agentName), { durable: false, temp: 'suffix' });
  }

  /** Puts back what a pointer said before a write that failed; best effort (an announcement left only costs a scan). */
  #restorePointer(file: string, pointer: Pointed, project: string, agentName: string): void {
    try {
      if (pointer === 'absent') removeFile(file);
      else if (pointer !== 'untrusted')
        this.#writePointer(file, pointer === 'none' ? null : pointer, project, agentName);
    } catch (error) {
      if (!isSessionError(error, 'E_IO')) throw error;
    }
  }

  /**
   * Creates the pointer folder (0700); with `withRoot` false, only inside an existing store (reads create no store).
   * A link in its place is refused (E_REFUSED): no pointer or lock is ever written through it.
   */
  #ensureDir(withRoot: boolean): void {
    ensurePrivateDir(this.#dir, withRoot);
  }

  /** The scan, then (under the pointer lock, so no writer runs meanwhile) a fresh pointer. */
  #rebuild(file: string, project: string, agentName: string): SessionState | null {
    let release: () => void;
    try {
      this.#ensureDir(false);
      release = acquireLock(`${file}.lock`, this.#lock);
    } catch (error) {
      // A read-only or busy store still answers, from a scan; only the pointer is not rebuilt.
      const unusable = ['E_IO', 'E_BUSY', 'E_NOT_FOUND', 'E_REFUSED'] as const;
      if (unusable.some((code) => isSessionError(error, code))) return this.#store.scanNewest(project, agentName);
      throw error;
    }
    try {
      // Scanned under the lock: every writer that finished (or failed) before is on disk, later ones wait.
      const newest = this.#store.scanNewest(project, agentName);
      // Only real sessions get a pointer: a lookup of a name with none (any payload text) must not grow the store
      // by a file per name. A pointer that named a session now gone goes; the next create sets one.
      if (newest === null) removeFile(file);
      else this.#writePointer(file, newest, project, agentName);
      return newest;
    } finally {
      release();
    }
  }

  #readPointer(file: string, project: string, agentName: string): Pointed {
    let read: ReturnType<typeof readRegularFile>;
    try {
      // Never through a link, never blocking on a FIFO: anything but a plain file is no pointer.
      read = readRegularFile(file);
    } catch (error) {
      if (errnoCode((error as { cause?: unknown }).cause) === 'ENOTDIR') return 'untrusted';
      throw error;
    }
    if (read === null) return 'absent';
    if (!('text' in read)) return 'untrusted';
    const text = read.text;
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
    if (agent_name !== agentName) return 'untrusted';
    // A home pointer names no project; another project's names its own (two projects' hashes may meet).
    if ((Object.hasOwn(fields, 'project') ? fields.project : this.#home) !== project) return 'untrusted';
    if (agent_id === null && last_updated === null) return 'none';
    if (!isValidId(agent_id) || typeof last_updated !== 'string') return 'untrusted';
    return { agent_id, last_updated };
  }

  /** A session, or null when it is absent or not valid (a pointer to it is then simply not trusted). */
  #readQuiet(id: string): SessionState | null {
    try {
      return this.#store.read(id);
    } catch (error) {
      if (isSessionError(error, 'E_CORRUPT')) return null;
      throw error;
    }
  }
}

// --- internal ---

/** True when `state` is a session of `agentName` in `project`. */
function isOf(state: SessionState, project: string, agentName: string): boolean {
  return state.agent_name === agentName && state.project === project;
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

function removeFile(file: string): void {
  try {
    // unlink, not rm: rmSync loads node's rimraf module on every resume (~1.5 M instructions).
    unlinkSync(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', file);
  }
}

function notAFolder(path: string): boolean {
  try {
    return !lstatSync(path).isDirectory();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(error, 'inspect', path);
  }
}
