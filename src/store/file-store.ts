import { lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { newestState } from '../core/activity';
import { SessionError, isSessionError } from '../core/errors';
import { assertValidId, isValidId } from '../core/ids';
import { parseState, type SessionState } from '../core/state';
import { AgentIndex, INDEX_DIR } from './agent-index';
import { ClaudeIndex } from './claude-index';
import { DEFAULT_LOCK_OPTIONS, acquireLock, errnoCode, ioError, readRegularFile, uniqueSuffix, writeFileAtomic, type LockOptions } from './fs-safe';
import type { ListedSession, SessionStore } from './store';

const STATE_FILE = 'state.json';
const LOCK_FILE = 'state.json.lock';
const CREATING_PREFIX = '.creating-';
const REMOVING_PREFIX = '.removing-';
/** Tries at removing a renamed-away session folder that late lock drafts keep refilling (see removeRenamedFolder). */
const REMOVE_ATTEMPTS = 3;

/**
 * Sessions as folders: `<root>/<agent_id>/state.json`. Writes are atomic renames, every read-modify-write
 * holds the session's lock file, and no id or link can lead outside `root`. Read-only calls create nothing.
 */
export class FileStore implements SessionStore {
  readonly location: string;
  readonly #lock: LockOptions;
  readonly #index: AgentIndex;
  readonly #claude: ClaudeIndex;

  constructor(root: string, lock: LockOptions = DEFAULT_LOCK_OPTIONS) {
    this.location = root;
    this.#lock = lock;
    this.#index = new AgentIndex(root, { read: (id) => this.read(id), scanNewest: (name) => this.#scanNewest(name) }, lock);
    this.#claude = new ClaudeIndex(root, (id) => this.read(id));
  }

  /**
   * The session linked to a Claude Code agent id, through its pointer (see claude-index.ts); a missing or
   * outdated pointer falls back to a scan of the folders. The most recently active one if several are linked.
   */
  findByClaudeAgent(claudeAgentId: string): SessionState | null {
    const pointed = this.#claude.pointed(claudeAgentId);
    if (pointed !== null && isValidId(pointed)) {
      let state: SessionState | null = null;
      try {
        state = this.read(pointed);
      } catch (error) {
        if (!isSessionError(error, 'E_CORRUPT')) throw error;
      }
      if (state !== null && state.claude?.agent_id === claudeAgentId) return state;
    }
    const found = newestState(this.list().flatMap((entry) => (entry.kind === 'valid' && entry.state.claude?.agent_id === claudeAgentId ? [entry.state] : [])));
    // Repair the pointer so the next lookup is direct; it is verified on every read, so a race cannot mislead.
    if (found !== null) this.#claude.written(found);
    return found;
  }

  /** The newest valid session of an agent, through the per-agent pointer (see agent-index.ts). */
  newestOf(agentName: string): SessionState | null {
    return this.#index.newestOf(agentName);
  }

  read(id: string, knownKind?: 'dir' | 'link' | 'other'): SessionState | null {
    const dir = this.#dir(id);
    // A listing knows the kind from readdir's d_type, which spares one lstat per session.
    const kind = knownKind ?? entryKind(dir);
    if (kind === 'absent') return null;
    if (kind === 'link') throw new SessionError('E_CORRUPT', `Session \`${id}\` is a symbolic link (not followed)`);
    if (kind === 'other') throw new SessionError('E_CORRUPT', `Session \`${id}\` is not a folder`);
    const file = readRegularFile(join(dir, STATE_FILE));
    // Removed between the listing and the read: absent, as if listed a moment later.
    if (file === null && knownKind !== undefined && entryKind(dir) === 'absent') return null;
    if (file === null) {
      // A folder without state.json is a session that was never completed or was damaged; reported, not hidden.
      throw new SessionError('E_CORRUPT', `Session \`${id}\` has no state.json`);
    }
    if ('problem' in file) throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${file.problem}`);
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch (error) {
      throw new SessionError('E_CORRUPT', `Session \`${id}\`: state.json is not valid JSON (${(error as Error).message})`);
    }
    let state: SessionState;
    try {
      state = parseState(raw);
    } catch (error) {
      if (isSessionError(error)) throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${error.message}`);
      throw error;
    }
    if (state.agent_id !== id) {
      throw new SessionError('E_CORRUPT', `Session \`${id}\`: state.json names a different agent_id \`${state.agent_id}\``);
    }
    return state;
  }

  create(state: SessionState): void {
    const dir = this.#dir(state.agent_id);
    try {
      mkdirSync(this.location, { recursive: true });
    } catch (error) {
      throw ioError(error, 'create the store folder', this.location);
    }
    // Build the whole session in a hidden folder and rename it into place: the session appears complete
    // or not at all, and rename refuses an existing (non-empty) session, so create never overwrites.
    let staging: string;
    try {
      staging = mkdtempSync(join(this.location, CREATING_PREFIX));
    } catch (error) {
      throw ioError(error, 'create a folder in', this.location);
    }
    try {
      writeFileAtomic(join(staging, STATE_FILE), serialize(state));
      if (entryKind(dir) !== 'absent') throw duplicate(state.agent_id);
      this.#index.writing(state, () => {
        try {
          renameSync(staging, dir);
        } catch (error) {
          // Only the rename's own refusal means the id is taken (a folder, or a file, is in its place).
          const code = errnoCode(error);
          if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR' || code === 'EISDIR') throw duplicate(state.agent_id);
          throw error;
        }
      });
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (isSessionError(error)) throw error;
      throw ioError(error, 'create', dir);
    }
    this.#claude.written(state);
  }

  update(id: string, change: (state: SessionState) => SessionState): SessionState {
    return this.#locked(id, () => {
      const current = this.read(id);
      if (current === null) throw notFound(id);
      const next = change(current);
      // Serialized first: a state that cannot be written must not cost the agent pointer either.
      const bytes = serialize(next);
      this.#index.writing(next, () => writeFileAtomic(join(this.#dir(id), STATE_FILE), bytes));
      // Every write of a linked session: it may now be the most recently active of several linked to that agent.
      if (next.claude !== undefined) this.#claude.written(next);
      return next;
    });
  }

  list(): ListedSession[] {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.location, { withFileTypes: true });
    } catch (error) {
      // No store yet is an empty one; a store that is a file (ENOTDIR) is an error, as it is to `get`.
      if (errnoCode(error) === 'ENOENT') return [];
      throw ioError(error, 'list', this.location);
    }
    const listed: ListedSession[] = [];
    for (const entry of entries) {
      const name = entry.name;
      // Hidden entries are staging folders and temp files; other names were not made by us.
      if (!isValidId(name)) continue;
      // Node fills in the type with an lstat itself where the file system reports none (DT_UNKNOWN).
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue; // a stray file
      try {
        const state = this.read(name, entry.isSymbolicLink() ? 'link' : 'dir');
        if (state !== null) listed.push({ kind: 'valid', id: name, state });
      } catch (error) {
        const stats = lstatOrNull(join(this.location, name));
        if (stats !== null && !stats.isDirectory() && !stats.isSymbolicLink()) continue; // a stray file
        const message = error instanceof Error ? error.message : String(error);
        listed.push({ kind: 'corrupt', id: name, error: message, modifiedAt: this.#modifiedAt(name) });
      }
    }
    return listed;
  }

  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean {
    const dir = this.#dir(id);
    const kind = entryKind(dir);
    if (kind === 'absent') return false;
    if (kind !== 'dir') {
      // A link or stray file in the store: remove the entry itself, never what a link points to.
      if (shouldRemove && !shouldRemove(null, this.#modifiedAt(id))) return false;
      rmSync(dir, { force: true });
      return true;
    }
    // Read before locking: taking the lock writes into the folder, which would make a folder without
    // state.json look fresh forever.
    const modifiedAt = this.#modifiedAt(id);
    try {
      return this.#locked(id, () => {
        let state: SessionState | null;
        try {
          state = this.read(id);
        } catch (error) {
          if (!isSessionError(error, 'E_CORRUPT')) throw error;
          state = null;
        }
        if (shouldRemove && !shouldRemove(state, modifiedAt)) return false;
        // Rename the folder away first, still under the lock: a waiter then finds no session (E_NOT_FOUND)
        // instead of racing `rm -r` with its lock draft (ENOTEMPTY, a half-removed session).
        const doomed = join(this.location, `${REMOVING_PREFIX}${uniqueSuffix()}`);
        try {
          renameSync(dir, doomed);
        } catch (error) {
          throw ioError(error, 'remove', dir);
        }
        removeRenamedFolder(doomed);
        return true;
      });
    } catch (error) {
      if (isSessionError(error, 'E_NOT_FOUND')) return false; // removed by someone else meanwhile
      throw error;
    }
  }

  sweep(olderThanMs: number, now: Date): number {
    let removed = 0;
    let entries: Dirent[];
    try {
      entries = readdirSync(this.location, { withFileTypes: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return 0;
      throw ioError(error, 'list', this.location);
    }
    const isOld = (path: string): boolean => {
      const stats = lstatOrNull(path);
      return stats !== null && now.getTime() - stats.mtimeMs > olderThanMs;
    };
    // Claude-agent pointers whose session is gone (cleaned up, deleted) would only cost lookups a scan.
    removed += this.#claude.sweep((id) => isValidId(id) && entryKind(join(this.location, id)) !== 'absent', isOld);
    for (const entry of entries) {
      const name = entry.name;
      const path = join(this.location, name);
      if (name.startsWith(CREATING_PREFIX) || name.startsWith(REMOVING_PREFIX)) {
        if (isOld(path)) {
          rmSync(path, { recursive: true, force: true });
          removed++;
        }
        continue;
      }
      // The agent pointers' folder collects the same kinds of leftovers as a session folder.
      if ((!isValidId(name) && name !== INDEX_DIR) || !entry.isDirectory()) continue;
      let inner: string[];
      try {
        inner = readdirSync(path);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw ioError(error, 'list', path);
      }
      for (const file of inner) {
        // Temp files of killed writers (`.state.json.<pid>.<hex>.tmp`, lock drafts) and a dead lock breaker.
        if ((file.endsWith('.tmp') || file.endsWith('.lock.break')) && isOld(join(path, file))) {
          rmSync(join(path, file), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }

  // --- internal ---

  #dir(id: string): string {
    return join(this.location, assertValidId(id));
  }

  #locked<T>(id: string, work: () => T): T {
    const dir = this.#dir(id);
    const kind = entryKind(dir);
    if (kind === 'absent') throw notFound(id);
    // Never create a lock through a link: it would write outside the store.
    if (kind !== 'dir') throw new SessionError('E_CORRUPT', `Session \`${id}\` is not a folder (not followed)`);
    let release: () => void;
    try {
      release = acquireLock(join(dir, LOCK_FILE), this.#lock);
    } catch (error) {
      if (isSessionError(error, 'E_NOT_FOUND')) throw notFound(id);
      throw error;
    }
    try {
      return work();
    } finally {
      release();
    }
  }

  #scanNewest(agentName: string): SessionState | null {
    return newestState(this.list().flatMap((entry) => (entry.kind === 'valid' && entry.state.agent_name === agentName ? [entry.state] : [])));
  }

  #modifiedAt(id: string): Date {
    const dir = join(this.location, id);
    const own = lstatOrNull(dir);
    // A link (or stray file) is judged by itself: a path through it would stat what it points to.
    if (own === null) return new Date(0);
    if (!own.isDirectory()) return own.mtime;
    return (lstatOrNull(join(dir, STATE_FILE)) ?? own).mtime;
  }
}

/**
 * The bytes written for a state: indented JSON with a final newline.
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export function serialize(state: SessionState): string {
  try {
    return `${JSON.stringify(state, null, 2)}\n`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new SessionError('E_USAGE', `Expected the state of session \`${state.agent_id}\` to nest less deeply, got metadata too deep to write as JSON`);
  }
}

// --- internal ---

function entryKind(path: string): 'absent' | 'dir' | 'link' | 'other' {
  const stats = lstatOrNull(path);
  if (stats === null) return 'absent';
  if (stats.isSymbolicLink()) return 'link';
  return stats.isDirectory() ? 'dir' : 'other';
}

/**
 * Removes a session folder already renamed away (the session is gone once the rename is done). A writer that
 * resolved the old path just before the rename can still drop its lock draft into the folder after `rm` listed
 * it, so the last `rmdir` fails with ENOTEMPTY; that writer's next step finds no session. Listing again removes
 * the late entry; whatever still arrives is left to `sweep`, which removes old `.removing-` folders.
 */
function removeRenamedFolder(path: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      // rm does not follow links inside the folder: it removes the links themselves.
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (errnoCode(error) !== 'ENOTEMPTY') throw ioError(error, 'remove', path);
      if (attempt === REMOVE_ATTEMPTS) return;
    }
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'inspect', path);
  }
}

function notFound(id: string): SessionError {
  return new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
}

function duplicate(id: string): SessionError {
  return new SessionError('E_DUPLICATE', `Session \`${id}\` already exists; create never overwrites`);
}
