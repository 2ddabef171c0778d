import { lstatSync, readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer } from '../core/activity';
import { isSessionError } from '../core/errors';
import { isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { acquireLock, DEFAULT_LOCK_OPTIONS, type LockOptions } from '../platform/lock';
import { ensurePrivateDir, writeNewFile } from '../platform/private-fs';
import { uniqueSuffix } from '../platform/random';
import { readRegularFile } from '../platform/strict-read';

/** The folder of pointers inside the store root; hidden, so listings and sweeps skip it like any dot-entry. */
export const INDEX_DIR = '.agents';

/** Agent names longer than this (in UTF-8 bytes) get no pointer: their lookups scan, as before. */
const MAX_NAME_BYTES = 100;

/** What the index needs of the store: a strict read of one session and a scan for an agent's newest. */
export interface IndexedStore {
  read(id: string): SessionState | null;
  /** Skips sessions whose `last_updated` is later than `notAfter` (ms since the epoch) when it is given. */
  scanNewest(agentName: string, notAfter?: number): SessionState | null;
}

/**
 * A per-agent pointer to its most recently active session (`<root>/.agents/<hex of the name>.json`), so a
 * lookup by agent name reads two small files instead of every session. The folders stay the source of truth:
 *
 * - every write through the store moves the pointer under the agent's pointer lock: the pointer is removed
 *   before the session is written and set again after, to the newer of the written session and the one it
 *   pointed to, so a writer that fails half-way leaves no pointer (a scan), never a wrong one;
 * - a lookup trusts a pointer only when the session it names exists, is valid, belongs to that agent and still
 *   has the `last_updated` the pointer recorded; anything else (missing, corrupt or foreign pointer, deleted
 *   or changed session) falls back to a scan of the folders, which then rewrites the pointer under the lock.
 *
 * Writers that bypass agent-session (another program editing session folders) are not seen by the pointer
 * until the pointed session itself changes or is removed; see docs/performance.md.
 */
export class AgentIndex {
  readonly #dir: string;
  readonly #store: IndexedStore;
  readonly #lock: LockOptions;

  constructor(root: string, store: IndexedStore, lock: LockOptions = DEFAULT_LOCK_OPTIONS) {
    this.#dir = join(root, INDEX_DIR);
    this.#store = store;
    this.#lock = lock;
  }

  /**
   * The newest valid session of `agentName`, from the pointer when it checks out, else from a scan.
   * A wrong pointer never throws: it only costs a scan; a pointer that cannot be rebuilt (read-only or busy store) too.
   * With `notAfter`, a session whose `last_updated` is later (a clock ahead) is skipped: the pointer keeps the folders'
   * order, so only when it names such a session does the lookup scan, skipping every skewed one.
   */
  newestOf(agentName: string, notAfter = Infinity): SessionState | null {
    const file = this.#file(agentName);
    // A pointer folder that is a link (planted, or copied in) is neither read nor written through: scans only.
    if (file === null || notAFolder(this.#dir)) return this.#store.scanNewest(agentName, notAfter);
    const pointed = this.#readPointer(file, agentName);
    // "No session": written by older versions' scans (no longer: see #rebuild); every create replaces it.
    if (pointed === 'none') return null;
    let newest: SessionState | null = null;
    if (pointed !== null) {
      const state = this.#readQuiet(pointed.agent_id);
      if (state !== null && state.agent_name === agentName && state.last_updated === pointed.last_updated)
        newest = state;
    }
    newest ??= this.#rebuild(file, agentName);
    return newest !== null && Date.parse(newest.last_updated) > notAfter
      ? this.#store.scanNewest(agentName, notAfter)
      : newest;
  }

  /**
   * Writes a session through `write` with the agent's pointer kept right: taken down first, set to the newer
   * of `state` and the previously pointed session after. The session lock, when any, is already held.
   */
  writing<T>(state: SessionState, write: () => T): T {
    const file = this.#file(state.agent_name);
    if (file === null) return write();
    // Something else in the index's place (a stray file, a link): no pointer is kept there, so none can mislead.
    if (notAFolder(this.#dir)) return write();
    this.#ensureDir(true);
    const release = acquireLock(`${file}.lock`, this.#lock);
    try {
      const pointer = this.#readPointer(file, state.agent_name);
      removeFile(file);
      const result = write();
      try {
        // The pointer is set again from what the one taken down said when it was trustworthy ("no session", or a
        // session that still exists as recorded); an import keeps an old last_updated, so `state` need not be the
        // newest. A pointer that changed under us: none, and the next lookup scans.
        let newest: SessionState | null = null;
        // No pointer yet (or one not to trust): a scan under the lock already held, as a lookup would do, so the
        // per-agent listing of SessionStart/UserPromptSubmit sees sessions the CLI wrote (once per agent name).
        if (pointer === null) newest = this.#store.scanNewest(state.agent_name);
        else if (pointer === 'none') newest = state;
        else if (pointer !== null && pointer.agent_id === state.agent_id)
          newest = Date.parse(state.last_updated) >= Date.parse(pointer.last_updated) ? state : null;
        else if (pointer !== null) {
          const other = this.#readQuiet(pointer.agent_id);
          if (other !== null && other.agent_name === state.agent_name && other.last_updated === pointer.last_updated) {
            // A clock that went back can leave the other session newer; the pointer follows the folders' order.
            newest = isNewer(other, state) ? other : state;
          }
        }
        if (newest !== null) writePointer(file, newest, state.agent_name);
      } catch (error) {
        // The session is written; without a pointer the next lookup scans, so the write still succeeded.
        if (!isSessionError(error, 'E_IO')) throw error;
      }
      return result;
    } finally {
      release();
    }
  }

  /** The agent names that have a pointer file (decoded from the file names); none when there is no index yet. */
  names(): string[] {
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
    return files.flatMap((file) => {
      const hex = /^((?:[0-9a-f]{2})+)\.json$/.exec(file)?.[1];
      return hex === undefined ? [] : [Buffer.from(hex, 'hex').toString('utf8')];
    });
  }

  // --- internal ---

  #file(agentName: string): string | null {
    const bytes = Buffer.from(agentName, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_NAME_BYTES) return null;
    return join(this.#dir, `${bytes.toString('hex')}.json`);
  }

  /**
   * Creates the pointer folder (0700); with `withRoot` false, only inside an existing store (reads create no store).
   * A link in its place is refused (E_REFUSED): no pointer or lock is ever written through it.
   */
  #ensureDir(withRoot: boolean): void {
    ensurePrivateDir(this.#dir, withRoot);
  }

  /** The scan, then (under the pointer lock, so no writer runs meanwhile) a fresh pointer. */
  #rebuild(file: string, agentName: string): SessionState | null {
    let release: () => void;
    try {
      this.#ensureDir(false);
      release = acquireLock(`${file}.lock`, this.#lock);
    } catch (error) {
      // A read-only or busy store still answers, from a scan; only the pointer is not rebuilt.
      const unusable = ['E_IO', 'E_BUSY', 'E_NOT_FOUND', 'E_REFUSED'] as const;
      if (unusable.some((code) => isSessionError(error, code))) return this.#store.scanNewest(agentName);
      throw error;
    }
    try {
      // Scanned under the lock: every writer that finished (or failed) before is on disk, later ones wait.
      const newest = this.#store.scanNewest(agentName);
      // Only real sessions get a pointer: a lookup of a name with none (any payload text) must not grow the store
      // by a file per name. A pointer that named a session now gone goes; the next create sets one.
      if (newest === null) removeFile(file);
      else writePointer(file, newest, agentName);
      return newest;
    } finally {
      release();
    }
  }

  #readPointer(file: string, agentName: string): { agent_id: string; last_updated: string } | 'none' | null {
    let read: ReturnType<typeof readRegularFile>;
    try {
      // Never through a link, never blocking on a FIFO: anything but a plain file is no pointer.
      read = readRegularFile(file);
    } catch (error) {
      if (errnoCode((error as { cause?: unknown }).cause) === 'ENOTDIR') return null;
      throw error;
    }
    if (read === null || !('text' in read)) return null;
    const text = read.text;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // A torn or edited pointer is only a cache miss: JSON.parse fails in no other way.
      return null;
    }
    if (typeof raw !== 'object' || raw === null) return null;
    const { agent_name, agent_id, last_updated } = raw as Record<string, unknown>;
    if (agent_name !== agentName) return null;
    if (agent_id === null && last_updated === null) return 'none';
    if (!isValidId(agent_id) || typeof last_updated !== 'string') return null;
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

/** Points `agentName` at `state`, or records that it has no valid session (`state` null). */
function writePointer(file: string, state: SessionState | null, agentName: string): void {
  const pointer = {
    agent_name: agentName,
    agent_id: state?.agent_id ?? null,
    last_updated: state?.last_updated ?? null,
  };
  const text = `${JSON.stringify(pointer)}\n`;
  // No fsync: a pointer lost or torn by a crash is checked on read and rebuilt from the folders.
  const tmp = `${file}.${uniqueSuffix()}.tmp`;
  try {
    writeNewFile(tmp, text);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw ioError(error, 'write', file);
  }
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
