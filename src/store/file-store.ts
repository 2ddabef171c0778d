import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { newestState } from '../core/activity';
import { SessionError, isSessionError, show } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { assertValidId, isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { DEFAULT_PROJECT, withProject } from '../core/project';
import { AgentIndex, INDEX_DIR } from './agent-index';
import { decodeState } from './codec';
import { CLAUDE_INDEX_DIR, ClaudeIndex } from './claude-index';
import { pathKind } from './index-marker';
import { inScope, type ListedSession, type ListScope } from '../service/store';
import { SettledStore, type SyncStore } from './settled-store';
import { errnoCode, ioError } from '../platform/errno';
import { writeFileAtomic } from '../platform/atomic-file';
import { acquireLock, DEFAULT_LOCK_OPTIONS, removeDeadLock, type LockOptions } from '../platform/lock';
import { ensurePrivateDir, PRIVATE_DIR } from '../platform/private-fs';
import { lstatOrNull } from '../platform/files';
import { uniqueSuffix } from '../platform/random';
import { readRegularFile } from '../platform/strict-read';

const STATE_FILE = 'state.json';
const LOCK_FILE = 'state.json.lock';
const CREATING_PREFIX = '.creating-';
const REMOVING_PREFIX = '.removing-';
/** The exact names of what we leave in the store root: mkdtemp's six characters, uniqueSuffix's pid and hex. */
const STAGING_NAME = /^\.creating-[A-Za-z0-9]{6}$/;
const REMOVING_NAME = /^\.removing-\d+\.[0-9a-f]{8}$/;
/** Files of a session folder besides state.json: the lock, a lock breaker, temp files and lock drafts of killed writers. */
const SESSION_LEFTOVER =
  /^(?:\.state\.json\.\d+\.[0-9a-f]{8}\.tmp|state\.json\.lock\.\d+\.[0-9a-f]{8}\.tmp|state\.json\.lock\.break)$/;
/**
 * The locks of each folder we sweep, by exact name: a session's `state.json.lock`; in `.agents/` a pointer's
 * `<hex>.json.lock`; in `.locks/` the attach locks `agent-<hex>.lock` and `type-<hex>.lock` (`long-names` stands for
 * keys too long to be a file name). `.claude-agents/` holds no lock.
 */
const LOCKS: Readonly<Record<Folder, RegExp | null>> = {
  session: /^state\.json\.lock$/,
  index: /^(?:p[0-9a-f]{14}-)?[0-9a-f]+\.json\.lock$/,
  claude: null,
  locks: /^(?:agent|type)-(?:[0-9a-f]+|long-names)\.lock$/,
};
/**
 * The same folders' temp files: `.state.json.<pid>.<hex>.tmp` in a session, `<hex>.json.<pid>.<hex>.tmp` pointers and
 * `.complete.json.<pid>.<hex>.tmp` (the index marker, index-marker.ts).
 */
const TEMPS: Readonly<Record<Folder, RegExp | null>> = {
  session: /^\.state\.json\.\d+\.[0-9a-f]{8}\.tmp$/,
  index: /^(?:(?:p[0-9a-f]{14}-)?[0-9a-f]+\.json|\.complete\.json)\.\d+\.[0-9a-f]{8}\.tmp$/,
  // The Claude index sweeps its own pointers and temp files.
  claude: null,
  locks: null,
};
/** The folders of a store root that `sweep` looks into. */
type Folder = 'session' | 'index' | 'claude' | 'locks';
/** The attach locks' folder (see lockClaudeAgent). */
export const LOCKS_DIR = '.locks';
/** Tries at removing a renamed-away session folder that late lock drafts keep refilling (see removeRenamedFolder). */
const REMOVE_ATTEMPTS = 3;

/** What a file store may be given besides its folder: its home project, lock timings, and the clock (tests). */
export interface FileStoreOptions {
  readonly lock?: LockOptions;
  readonly now?: () => Date;
  /**
   * The project of the folder the store is in (`<folder>/.claude/session`: that folder's), whose sessions' files name
   * no project: a session file without one (every file of an older version) belongs to it, and a session of it is
   * written without one, so a store used by one project keeps exactly the files it had. Null: a store of no folder's
   * (AGENT_SESSION_DIR elsewhere), where every session names its project and one without is unassigned. Default:
   * DEFAULT_PROJECT, the project of a service given none.
   */
  readonly home?: string | null;
}

/**
 * Sessions as folders: `<root>/<agent_id>/state.json`. Writes are atomic renames, every read-modify-write
 * holds the session's lock file, and no id or link can lead outside `root`. Read-only calls create nothing.
 * The file system work is synchronous (SyncFileStore, below; see SettledStore): a hook or CLI process has nothing
 * else to do meanwhile.
 */
export class FileStore extends SettledStore {
  readonly #sync: SyncFileStore;

  constructor(root: string, options: FileStoreOptions = {}) {
    const home = options.home === undefined ? DEFAULT_PROJECT : options.home;
    const sync = new SyncFileStore(root, options.lock ?? DEFAULT_LOCK_OPTIONS, home);
    super(root, sync, options.now);
    this.#sync = sync;
    this.home = home;
  }

  /** The project whose sessions' files name none (see FileStoreOptions.home). */
  readonly home: string | null;

  /** @throws SessionError E_REFUSED when the store root (or its `.claude` parent) is a symbolic link */
  assertWritable(): void {
    this.#sync.assertWritable();
  }

  /**
   * The names of the entries that may be sessions, without reading one (see SyncFileStore.ids): synchronous, as
   * shell completion answers from one listing and nothing else.
   * @throws SessionError E_IO when the store root cannot be listed
   */
  ids(): string[] {
    return this.#sync.ids();
  }
}

/** The file store's work, synchronous (see FileStore). */
class SyncFileStore implements SyncStore {
  readonly location: string;
  readonly #lock: LockOptions;
  readonly #index: AgentIndex;
  readonly #claude: ClaudeIndex;
  /** The project of the store's folder (see FileStoreOptions.home), or null. */
  readonly #home: string | null;
  /** The last session read, its bytes and a private copy of its state (see read). */
  #lastRead: { readonly id: string; readonly text: string; readonly state: SessionState } | undefined;

  constructor(root: string, lock: LockOptions = DEFAULT_LOCK_OPTIONS, home: string | null = DEFAULT_PROJECT) {
    this.location = root;
    this.#lock = lock;
    this.#home = home;
    const read = (id: string): SessionState | null => this.read(id);
    const indexed = {
      read,
      scanNewest: (project: string, name: string, notAfter?: number) => this.#scanNewest(project, name, notAfter),
      scan: () => this.#scanAndComplete(false),
    };
    this.#index = new AgentIndex(root, indexed, lock, home);
    this.#claude = new ClaudeIndex(root, { read, scan: () => this.#scanAndComplete(true) });
  }

  /**
   * The project's session linked to a Claude Code agent id, through its pointer (see claude-index.ts): none, without
   * reading a session, when the complete index has no pointer for it; a pointer that does not check out (or names
   * another project's session) falls back to a scan of the folders. The most recently active one if several are linked.
   */
  findByClaudeAgent(project: string, claudeAgentId: string): SessionState | null {
    return this.#claude.findByClaudeAgent(claudeAgentId, (state) => state.project === project);
  }

  /**
   * The project's session a Claude Code agent id was attached to: the one its pointer names while that session is
   * linked to some Claude agent (this one, or a later one that resumed it); none when the complete index has no pointer
   * for it (a new agent: no session read); else the project's one linked to it now (a scan).
   */
  attachedTo(project: string, claudeAgentId: string): SessionState | null {
    return this.#claude.attachedTo(claudeAgentId, (state) => state.project === project);
  }

  /**
   * Takes `<root>/.locks/agent-<hex of the id>.lock`, then `<root>/.locks/type-<hex of the type>.lock` (always in
   * this order, so two attaches never wait on each other crosswise), and returns their release. Ids and types too
   * long for a file name share one lock of their kind. Both locks are released (removed) when the work ends; `sweep` removes those of
   * killed processes. The locks have a folder of their own: a pointer folder replaced by a link (refused for
   * pointers) must not stop a Claude agent from being attached.
   */
  claudeAgentLocks(claudeAgentId: string, agentType: string): () => void {
    this.assertWritable();
    const locks = join(this.location, LOCKS_DIR);
    // 0700, and never through a link (E_REFUSED): the lock files must not be written outside the store.
    ensurePrivateDir(locks, true);
    const releaseAgent = acquireLock(join(locks, `agent-${lockName(claudeAgentId)}.lock`), this.#lock);
    if (agentType === '') return releaseAgent;
    let releaseType: () => void;
    try {
      releaseType = acquireLock(join(locks, `type-${lockName(agentType)}.lock`), this.#lock);
    } catch (error) {
      releaseAgent();
      throw error;
    }
    return () => {
      try {
        releaseType();
      } finally {
        releaseAgent();
      }
    };
  }

  /**
   * The newest valid session of every agent named in `<root>/.agents/` (one pointer read and one state read per
   * agent name, a scan only for a pointer that does not check out). Agents without a pointer (a name over 100
   * bytes, or sessions only ever written by the CLI and never looked up) are not in it. With `notAfter`, as newestOf.
   */
  newestPerAgent(project: string, notAfter?: number): SessionState[] {
    return this.#index.names(project).flatMap((name) => {
      const state = this.#index.newestOf(project, name, notAfter);
      return state === null ? [] : [state];
    });
  }

  /** The newest valid session of a project's agent, through the per-agent pointer (see agent-index.ts). */
  newestOf(project: string, agentName: string, notAfter?: number): SessionState | null {
    return this.#index.newestOf(project, agentName, notAfter);
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
    // A resume reads the session twice (the plain read that decides, then under the lock). The same bytes decode to
    // the same state: the second read copies it (every read returns its own) instead of parsing and validating the
    // text again, which costs ~40 K instructions per history entry in a short-lived process (docs/performance.md).
    const last = this.#lastRead;
    if (last !== undefined && last.id === id && last.text === file.text) return structuredClone(last.state);
    const decoded = decodeState(id, file.text, 'state.json');
    // A file naming no project is the store's folder's session (see FileStoreOptions.home), or unassigned.
    const state = decoded.project === undefined && this.#home !== null ? withProject(decoded, this.#home) : decoded;
    this.#lastRead = { id, text: file.text, state: structuredClone(state) };
    return state;
  }

  create(state: SessionState): void {
    const dir = this.#dir(state.agent_id);
    this.assertWritable();
    try {
      // Private whatever the umask: another local user must not plant links in the store.
      mkdirSync(this.location, { recursive: true, mode: PRIVATE_DIR });
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
    let written = (): void => undefined;
    try {
      writeFileAtomic(join(staging, STATE_FILE), serialize(this.#stored(state)));
      if (entryKind(dir) !== 'absent') throw duplicate(state.agent_id);
      // A session created linked to a Claude agent (a hook's new session, a copy) is announced in the index first.
      written = this.#claude.beforeWrite(null, state);
      this.#index.writing(state, () => {
        try {
          renameSync(staging, dir);
        } catch (error) {
          // Only the rename's own refusal means the id is taken (a folder, or a file, is in its place).
          const code = errnoCode(error);
          if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR' || code === 'EISDIR')
            throw duplicate(state.agent_id);
          throw error;
        }
      });
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (isSessionError(error)) throw error;
      throw ioError(error, 'create', dir);
    }
    written();
  }

  update(id: string, change: (state: SessionState) => SessionState): SessionState {
    this.assertWritable();
    return this.#locked(id, () => {
      const current = this.read(id);
      if (current === null) throw notFound(id);
      const next = change(current);
      // Serialized first: a state that cannot be written must not cost the agent pointer either.
      const bytes = serialize(this.#stored(next));
      // A new link is announced in the Claude index (and a link taken from an agent recorded) before the write.
      const written = this.#claude.beforeWrite(current, next);
      this.#index.writing(next, () => writeFileAtomic(join(this.#dir(id), STATE_FILE), bytes));
      // Every write of a linked session: it may now be the most recently active of several linked to that agent.
      written();
      return next;
    });
  }

  /**
   * The names of the entries that may be sessions (folders or links named as an id), without reading one: shell
   * completion answers from any store at once, however large or damaged. No store yet: none.
   */
  ids(): string[] {
    return this.#rootEntries()
      .filter((entry) => isValidId(entry.name) && (entry.isDirectory() || entry.isSymbolicLink()))
      .map((entry) => entry.name);
  }

  /** The entries of the store root: none when there is no store yet; a root that is a file (ENOTDIR) is an error. */
  #rootEntries(): Dirent[] {
    try {
      return readdirSync(this.location, { withFileTypes: true });
    } catch (error) {
      // No store yet is an empty one; a store that is a file (ENOTDIR) is an error, as it is to `get`.
      if (errnoCode(error) === 'ENOENT') return [];
      throw ioError(error, 'list', this.location);
    }
  }

  list(scope?: ListScope): ListedSession[] {
    if (scope !== undefined) return this.list().filter((entry) => inScope(entry, scope));
    const listed: ListedSession[] = [];
    for (const entry of this.#rootEntries()) {
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
        const notOurs = this.notOurs(name);
        const modifiedAt = this.#modifiedAt(name);
        listed.push({
          kind: 'corrupt',
          id: name,
          error: message,
          modifiedAt,
          ...(notOurs === null ? {} : { notOurs }),
        });
      }
    }
    return listed;
  }

  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean {
    this.assertRemovable();
    const dir = this.#dir(id);
    if (entryKind(dir) === 'absent') return false;
    // Checked before locking too: the lock would write into a folder that is not ours.
    const before = this.notOurs(id);
    if (before !== null) throw notOursError(id, before);
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
        // Again under the lock: a file put in meanwhile makes the folder someone else's too (a valid state shows the
        // state.json is ours; a corrupt one is judged again, as it may have been replaced since).
        const now = folderNotOurs(dir, state === null);
        if (now !== null) throw notOursError(id, now);
        // Rename the folder away first, still under the lock: a waiter then finds no session (E_NOT_FOUND)
        // instead of racing `rm -r` with its lock draft (ENOTEMPTY, a half-removed session).
        const doomed = join(this.location, `${REMOVING_PREFIX}${uniqueSuffix()}`);
        try {
          renameSync(dir, doomed);
        } catch (error) {
          // Removed by someone else between the lock and the rename: gone, as the caller wanted.
          if (errnoCode(error) === 'ENOENT') return false;
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

  /**
   * Why the entry `id` is not a session folder agent-session made (so nothing removes it), or null when it is
   * one (or is absent). Ours: a real folder holding a state.json that shows it is ours (a valid session, or a damaged
   * one still naming this id: see stateNotOurs) and only the files we write beside it (its lock, temp files and lock
   * drafts by their exact names).
   */
  notOurs(id: string): string | null {
    const dir = this.#dir(id);
    const kind = entryKind(dir);
    if (kind === 'link') return 'it is a symbolic link';
    if (kind === 'other') return 'it is not a folder';
    return kind === 'absent' ? null : folderNotOurs(dir);
  }

  /**
   * Refuses removals from a store whose root (or the `.claude` folder holding it) is a symbolic link: a link
   * such as `.claude/session -> ../..` would turn a cleanup into one of the folder it points to.
   * @throws SessionError E_REFUSED naming the link
   */
  assertRemovable(): void {
    const where = this.#linkedRoot();
    if (where === null) return;
    throw new SessionError(
      'E_REFUSED',
      `Refusing to remove anything through ${where}; pass --dir with the real folder`,
    );
  }

  /**
   * Refuses writes (create, update, attach locks, pointers) to a store whose root or `.claude` parent is a symbolic
   * link, as removals are: files are never created through a linked folder (reads may follow it).
   * @throws SessionError E_REFUSED naming the link
   */
  assertWritable(): void {
    const where = this.#linkedRoot();
    if (where !== null)
      throw new SessionError(
        'E_REFUSED',
        `Refusing to write anything through ${where}; pass --dir with the real folder`,
      );
  }

  /**
   * Entries of the store root that are not ours and that `list` does not report, with why (`sweep` leaves them alone
   * and cleanup lists them): folders named like our leftovers (staging, `.removing-`) holding something we do not
   * make; our pointer and lock folders (`.agents`, `.claude-agents`, `.locks`) replaced by a link or a file (nothing
   * is written through them, so Claude events go unhandled: the user must hear of it); loose files and links.
   */
  foreignEntries(): { id: string; reason: string }[] {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.location, { withFileTypes: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return [];
      throw ioError(error, 'list', this.location);
    }
    return entries.flatMap((entry) => {
      const name = entry.name;
      const path = join(this.location, name);
      let reason: string | null = null;
      if (STAGING_NAME.test(name) || REMOVING_NAME.test(name)) reason = leftoverNotOurs(path, STAGING_NAME.test(name));
      else if (entry.isDirectory())
        reason = null; // a session folder (list judges it) or a folder list skips
      else if (entry.isSymbolicLink()) {
        // A link named like a session is reported by list already.
        if (folderKind(name) !== 'session')
          reason = `it is a symbolic link (to ${show(readLink(path))}); nothing is written through it`;
      } else {
        const kind = folderKind(name);
        reason =
          kind === null || kind === 'session' ? 'it is a file agent-session does not make' : 'it is not a folder';
      }
      return reason === null ? [] : [{ id: name, reason }];
    });
  }

  sweep(olderThanMs: number, now: Date, listed?: readonly ListedSession[]): number {
    this.assertRemovable();
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
    const states = listed?.flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
    // Sessions another program wrote (or an older version alongside) have no pointer, so the complete indexes would
    // hide them: cleanup, which has just listed the store, gives them one (the hourly cron bounds how long).
    if (states !== undefined) this.#completeIndexes(states, false);
    // Claude-agent pointers whose session is gone (cleaned up, deleted) would only cost lookups a scan.
    removed += this.#claude.sweep({
      sessionExists: (id) => isValidId(id) && entryKind(join(this.location, id)) !== 'absent',
      isOld,
      withAgentLock: (claudeAgentId, work) => this.#withAgentLock(claudeAgentId, work),
      // Listed before the removals: a session it names is checked to exist before a pointer names it.
      states: () => states ?? this.#scanAndComplete(true),
    });
    for (const entry of entries) {
      const name = entry.name;
      const path = join(this.location, name);
      if (STAGING_NAME.test(name) || REMOVING_NAME.test(name)) {
        // Only when all it holds is ours: a user's folder may carry the same name (see foreignEntries).
        if (isOld(path) && leftoverNotOurs(path, STAGING_NAME.test(name)) === null) {
          rmSync(path, { recursive: true, force: true });
          removed++;
        }
        continue;
      }
      // The pointer folders collect the same kinds of leftovers as a session folder.
      const folder = folderKind(name);
      if (folder === null || !entry.isDirectory()) continue;
      let inner: string[];
      try {
        inner = readdirSync(path);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw ioError(error, 'list', path);
      }
      for (const file of inner) {
        // Temp files of killed writers, lock drafts and dead lock breakers, and locks of dead owners, by their exact
        // names: a folder that is not ours may hold its own `.tmp` or `.lock` files.
        const lock = leftoverLock(folder, file);
        if (lock === null) continue;
        const filePath = join(path, file);
        if (!isOld(filePath)) continue;
        if (lock === '') {
          rmSync(filePath, { force: true });
          removed++;
        } else if (removeDeadLock(filePath)) {
          // A lock whose owner was killed (a live owner's lock is never taken from it).
          removed++;
        }
      }
    }
    return removed;
  }

  // --- internal ---

  /** The store root, or its `.claude` parent, when it is a symbolic link: named with its target; else null. */
  #linkedRoot(): string | null {
    const parent = dirname(this.location);
    for (const path of basename(parent) === '.claude' ? [this.location, parent] : [this.location]) {
      if (entryKind(path) === 'link') return `\`${path}\`: it is a symbolic link (to ${show(readLink(path))})`;
    }
    return null;
  }

  #dir(id: string): string {
    return join(this.location, assertValidId(id));
  }

  /** The state as its file holds it: the home project's sessions name none (see FileStoreOptions.home). */
  #stored(state: SessionState): SessionState {
    return this.#home !== null && state.project === this.#home ? withProject(state, undefined) : state;
  }

  #locked<T>(id: string, work: () => T): T {
    const dir = this.#dir(id);
    const kind = entryKind(dir);
    if (kind === 'absent') throw notFound(id);
    // Never create a lock through a link: it would write outside the store.
    if (kind !== 'dir') throw new SessionError('E_CORRUPT', `Session \`${id}\` is not a folder (not followed)`);
    // Nor in a folder without state.json: it is not a session (and may not be ours), so no lock file goes there.
    // A folder removed since the check above (a racing cleanup renames it away) is simply not found.
    if (lstatOrNull(join(dir, STATE_FILE)) === null) {
      if (entryKind(dir) === 'absent') throw notFound(id);
      throw new SessionError('E_CORRUPT', `Session \`${id}\` has no state.json`);
    }
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

  /**
   * Every valid session, from one listing; the indexes that have no marker yet (a store an older version made) are
   * completed from it, best effort: a read-only or linked store still answers, from the listing. The Claude index only
   * when asked, or when the store has links or its folder: a store Claude Code never used gets no `.claude-agents`.
   */
  #scanAndComplete(withClaude: boolean): SessionState[] {
    const states = this.list().flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
    this.#completeIndexes(states, withClaude);
    return states;
  }

  /**
   * Gives every listed session its pointers where they are missing, and marks the indexes complete that were not;
   * best effort. The Claude index only when asked, or when the store has links or its folder; the agent index when the
   * store has sessions or its folder. Cleanup runs it too: an older version's store is completed by the hourly cron,
   * off the hooks' path.
   */
  #completeIndexes(states: readonly SessionState[], withClaude: boolean): void {
    // Nothing is written through a linked root (see assertWritable).
    if (this.#linkedRoot() !== null) return;
    // Cleanup lists before it removes: a session removed since gets no pointer.
    const exists = (id: string): boolean => entryKind(join(this.location, id)) !== 'absent';
    // A store without sessions and without the folder gets none (cleanup of a store holding only leftovers).
    if (states.length > 0 || pathKind(join(this.location, INDEX_DIR)) === 'folder')
      bestEffort(() => this.#index.rebuild(states, exists));
    const claudeDir = join(this.location, CLAUDE_INDEX_DIR);
    if (withClaude || states.some((state) => state.claude !== undefined) || pathKind(claudeDir) === 'folder')
      bestEffort(() => this.#claude.rebuild(states, exists));
  }

  /** Runs `work` holding a Claude agent id's attach lock (see claudeAgentLocks); false when it stays taken. */
  #withAgentLock(claudeAgentId: string, work: () => void): boolean {
    const locks = join(this.location, LOCKS_DIR);
    let release: () => void;
    try {
      ensurePrivateDir(locks, true);
      release = acquireLock(join(locks, `agent-${lockName(claudeAgentId)}.lock`), this.#lock);
    } catch (error) {
      // A linked lock folder, or a live attach of that agent: the pointer is left for the next sweep.
      if (isSessionError(error, 'E_REFUSED') || isSessionError(error, 'E_BUSY')) return false;
      throw error;
    }
    try {
      work();
    } finally {
      release();
    }
    return true;
  }

  #scanNewest(project: string, agentName: string, notAfter = Infinity): SessionState | null {
    const mine = (state: SessionState): boolean =>
      state.agent_name === agentName && state.project === project && !(Date.parse(state.last_updated) > notAfter);
    return newestState(
      this.list().flatMap((entry) => (entry.kind === 'valid' && mine(entry.state) ? [entry.state] : [])),
    );
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
    throw new SessionError(
      'E_USAGE',
      `Expected the state of session \`${state.agent_id}\` to nest less deeply, got metadata too deep to write as JSON`,
    );
  }
}

// --- internal ---

/** Runs an index completion, which a store that cannot be written (or has no root yet) simply goes without. */
function bestEffort(complete: () => void): void {
  try {
    complete();
  } catch (error) {
    if (isSessionError(error, 'E_IO') || isSessionError(error, 'E_NOT_FOUND') || isSessionError(error, 'E_REFUSED'))
      return;
    throw error;
  }
}

/** Which of our folders `name` (an entry of the store root) is, or null. */
function folderKind(name: string): Folder | null {
  if (name === INDEX_DIR) return 'index';
  if (name === CLAUDE_INDEX_DIR) return 'claude';
  if (name === LOCKS_DIR) return 'locks';
  return isValidId(name) ? 'session' : null;
}

/**
 * What a file of a swept folder is, by its exact name: a lock (returned, to be removed only when its owner is dead), a
 * leftover to remove once old (`''`: a temp file, a lock draft, a dead breaker), or null when it is not ours.
 */
function leftoverLock(folder: Folder, file: string): string | null {
  if (TEMPS[folder]?.test(file)) return '';
  const locks = LOCKS[folder];
  if (locks === null) return null;
  // A lock's draft is `<lock>.<pid>.<hex>.tmp` and its breaker `<lock>.break`.
  const draft = /^(.*)\.(?:\d+\.[0-9a-f]{8}\.tmp|break)$/.exec(file);
  if (draft !== null && locks.test(draft[1]!)) return '';
  return locks.test(file) ? file : null;
}

/** A lock file name for an id or agent type: its UTF-8 hex, or one shared name when that would be too long. */
function lockName(key: string): string {
  const bytes = Buffer.from(key, 'utf8');
  return bytes.length > 100 ? 'long-names' : bytes.toString('hex');
}

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

/**
 * Why the folder is not a session folder we made, or null when it is (or is gone): it must hold a state.json that shows
 * it is ours (see stateNotOurs) and nothing else but the files we write beside it. `checkState` false: its state.json
 * was just read as a valid session of this id, which shows it already.
 */
function folderNotOurs(dir: string, checkState = true): string | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'list', dir);
  }
  if (!names.includes(STATE_FILE)) return 'it has no state.json';
  if (lstatOrNull(join(dir, STATE_FILE))?.isDirectory()) return 'its state.json is a folder';
  const unknown = names.find((name) => name !== STATE_FILE && name !== LOCK_FILE && !SESSION_LEFTOVER.test(name));
  if (unknown !== undefined) return `it holds ${show(unknown)}, which agent-session does not make`;
  return checkState ? stateNotOurs(dir) : null;
}

/**
 * Why a folder's state.json does not show that agent-session wrote it, or null when it does. The rule: a regular file
 * holding a JSON object whose `agent_id` is the folder's name and whose `schema_version`, when present, is a whole
 * number (the original layout has none). Every state.json we write is one, even one damaged since (a field missing
 * or of the wrong type, an unknown phase). Anything else may be anyone's (a user's `notes/state.json`, another
 * program's settings, a torn or empty file, a link): it is reported and left alone, never removed as corrupt.
 */
function stateNotOurs(dir: string): string | null {
  const file = readRegularFile(join(dir, STATE_FILE));
  if (file === null) return 'it has no state.json';
  if ('problem' in file) return `its ${file.problem}`;
  let raw: unknown;
  try {
    raw = JSON.parse(file.text);
  } catch {
    // Where it breaks, never its words (it may be anyone's text).
    return `its state.json is not JSON (${describeJsonError(file.text)})`;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'its state.json is not a JSON object';
  const id = basename(dir);
  const fields = raw as Record<string, unknown>;
  if (fields.agent_id !== id) return `its state.json does not name ${show(id)} as its agent_id`;
  const version = fields.schema_version;
  if (Object.hasOwn(fields, 'schema_version') && !Number.isInteger(version))
    return `its state.json has schema_version ${show(JSON.stringify(version))}, not a whole number`;
  return null;
}

/**
 * Why a staging (`.creating-`) or `.removing-` folder is not ours, or null when it is (or is gone). Staging holds what
 * `create` writes there (state.json and its temp files); a removing folder what a session folder may hold (partly
 * removed, so state.json may be missing). No sub-folder is ever ours: nothing is removed recursively but our files.
 */
function leftoverNotOurs(path: string, staging: boolean): string | null {
  const own = lstatOrNull(path);
  if (own === null) return null;
  if (own.isSymbolicLink()) return 'it is a symbolic link';
  if (!own.isDirectory()) return 'it is not a folder';
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'list', path);
  }
  const known = (name: string): boolean =>
    name === STATE_FILE || (staging ? TEMPS.session!.test(name) : name === LOCK_FILE || SESSION_LEFTOVER.test(name));
  const unknown = names.find((name) => !known(name) || lstatOrNull(join(path, name))?.isDirectory() === true);
  return unknown === undefined ? null : `it holds ${show(unknown)}, which agent-session does not make there`;
}

function notOursError(id: string, reason: string): SessionError {
  return new SessionError(
    'E_REFUSED',
    `Not removing \`${id}\`: ${reason}, so it is not an agent-session session (left alone)`,
  );
}

function readLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch (error) {
    throw ioError(error, 'inspect', path);
  }
}

function notFound(id: string): SessionError {
  return new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
}

function duplicate(id: string): SessionError {
  return new SessionError('E_DUPLICATE', `Session \`${id}\` already exists; create never overwrites`);
}
