import { readdirSync, readlinkSync, rmSync, type Dirent } from 'node:fs';
import { basename, dirname } from 'node:path';
import { joinPath } from '../platform/paths';
import { SessionError, show } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { assertValidId, isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { INDEX_DIR } from './agent-index';
import { CLAUDE_INDEX_DIR } from './claude-index';
import type { ListedSession, SweepOptions } from '../service/store';
import { errnoCode, ioError } from '../platform/errno';
import { isDeadLock, removeDeadLock } from '../platform/lock';
import { lstatOrNull, namesOrNull } from '../platform/files';
import { readRegularFile } from '../platform/strict-read';
import { GITIGNORE } from '../platform/private-fs';

// What in a file store's folder is agent-session's, and so may be removed: the rules `remove`, `cleanup` and the
// sweep of killed writers' leftovers share (docs/storage.md "What is ours"). Nothing here writes a session.

/** A session folder's state file, and its lock. */
export const STATE_FILE = 'state.json';
export const LOCK_FILE = 'state.json.lock';
/** The prefixes of a session folder being created (staging) and of one renamed away to be removed. */
export const CREATING_PREFIX = '.creating-';
export const REMOVING_PREFIX = '.removing-';
/** The exact names of what we leave in the store root: mkdtemp's six characters, uniqueSuffix's pid and hex. */
const STAGING_NAME = /^\.creating-[A-Za-z0-9]{6}$/;
const REMOVING_NAME = /^\.removing-\d+\.[0-9a-f]{8}$/;
/** The listings' summary cache in the store root (listing-cache.ts), and the temp file a killed writer may leave of it. */
const LISTING_CACHE_NAME = /^\.?\.listing-cache\.json(?:\.\d+\.[0-9a-f]{8}\.tmp)?$/;
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

/** The synchronous StoreMaintenance of a SyncStore (see settled-store.ts). */
export interface SyncMaintenance {
  notOurs(id: string): string | null;
  assertRemovable(): void;
  foreignEntries(): { id: string; reason: string }[];
  sweep(olderThanMs: number, now: Date, listed?: readonly ListedSession[], options?: SweepOptions): string[];
}

/** What the hygiene needs of the file store whose folder it looks after. */
export interface SweptStore {
  /** The store root. */
  readonly location: string;
  /**
   * Sweeps the store's own indexes (pointers whose session is gone; sessions of a listing without a pointer get one)
   * and answers how many entries it removed.
   * @param states the sessions cleanup just listed, when it did
   */
  sweepIndexes(
    isOld: (path: string) => boolean,
    states: readonly SessionState[] | undefined,
    options: SweepOptions,
  ): string[];
}

/**
 * The file store's maintenance (SessionStore.maintenance): which entries are not its own, the refusal to remove
 * through a linked root, the entries named like its leftovers that hold something else, and the sweep of leftovers.
 */
export class FileHygiene implements SyncMaintenance {
  readonly #store: SweptStore;

  constructor(store: SweptStore) {
    this.#store = store;
  }

  /**
   * Why the entry `id` is not a session folder agent-session made (so nothing removes it), or null when it is
   * one (or is absent). Ours: a real folder holding a state.json that shows it is ours (a valid session, or a damaged
   * one still naming this id: see stateNotOurs) and only the files we write beside it (its lock, temp files and lock
   * drafts by their exact names).
   */
  notOurs(id: string): string | null {
    const dir = joinPath(this.#store.location, assertValidId(id));
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
    const where = linkedRoot(this.#store.location);
    if (where === null) return;
    throw new SessionError(
      'E_REFUSED',
      `Refusing to remove anything through ${where}; pass --dir with the real folder`,
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
      entries = readdirSync(this.#store.location, { withFileTypes: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return [];
      throw ioError(error, 'list', this.#store.location);
    }
    return entries.flatMap((entry) => {
      const name = entry.name;
      const path = joinPath(this.#store.location, name);
      let reason: string | null = null;
      if (STAGING_NAME.test(name) || REMOVING_NAME.test(name)) reason = leftoverNotOurs(path, STAGING_NAME.test(name));
      else if (entry.isDirectory())
        reason = null; // a session folder (list judges it) or a folder list skips
      else if (name === GITIGNORE && entry.isFile())
        reason = null; // the store's own, keeping it out of git (markIgnored), or the user's: both are in place
      else if (entry.isSymbolicLink()) {
        // A link named like a session is reported by list already.
        if (folderKind(name) !== 'session')
          reason = `it is a symbolic link (to ${show(readLink(path))}); nothing is written through it`;
      } else if (LISTING_CACHE_NAME.test(name)) reason = null;
      else {
        const kind = folderKind(name);
        reason =
          kind === null || kind === 'session' ? 'it is a file agent-session does not make' : 'it is not a folder';
      }
      return reason === null ? [] : [{ id: name, reason }];
    });
  }

  sweep(olderThanMs: number, now: Date, listed?: readonly ListedSession[], options: SweepOptions = {}): string[] {
    this.assertRemovable();
    const dryRun = options.dryRun === true;
    const removed: string[] = [];
    let entries: Dirent[];
    try {
      entries = readdirSync(this.#store.location, { withFileTypes: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw ioError(error, 'list', this.#store.location);
    }
    const isOld = (path: string): boolean => {
      const stats = lstatOrNull(path);
      return stats !== null && now.getTime() - stats.mtimeMs > olderThanMs;
    };
    const states = listed?.flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
    removed.push(...this.#store.sweepIndexes(isOld, states, options));
    for (const entry of entries) {
      const name = entry.name;
      const path = joinPath(this.#store.location, name);
      if (STAGING_NAME.test(name) || REMOVING_NAME.test(name)) {
        // Only when all it holds is ours: a user's folder may carry the same name (see foreignEntries).
        if (isOld(path) && leftoverNotOurs(path, STAGING_NAME.test(name)) === null) {
          if (!dryRun) rmSync(path, { recursive: true, force: true });
          removed.push(path);
        }
        continue;
      }
      // The pointer folders collect the same kinds of leftovers as a session folder.
      const folder = folderKind(name);
      if (folder === null || !entry.isDirectory()) continue;
      const inner = namesOrNull(path);
      if (inner === null) continue;
      for (const file of inner) {
        // Temp files of killed writers, lock drafts and dead lock breakers, and locks of dead owners, by their exact
        // names: a folder that is not ours may hold its own `.tmp` or `.lock` files.
        const lock = leftoverLock(folder, file);
        if (lock === null) continue;
        const filePath = joinPath(path, file);
        if (!isOld(filePath)) continue;
        if (lock === '') {
          if (!dryRun) rmSync(filePath, { force: true });
          removed.push(filePath);
        } else if (dryRun ? isDeadLock(filePath) : removeDeadLock(filePath)) {
          // A lock whose owner was killed (a live owner's lock is never taken from it).
          removed.push(filePath);
        }
      }
    }
    return removed;
  }
}

/** The store root, or its `.claude` parent, when it is a symbolic link: named with its target; else null. */
export function linkedRoot(location: string): string | null {
  const parent = dirname(location);
  for (const path of basename(parent) === '.claude' ? [location, parent] : [location]) {
    if (entryKind(path) === 'link') return `\`${path}\`: it is a symbolic link (to ${show(readLink(path))})`;
  }
  return null;
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

/** What is at `path`, not following a link. */
export function entryKind(path: string): 'absent' | 'dir' | 'link' | 'other' {
  const stats = lstatOrNull(path);
  if (stats === null) return 'absent';
  if (stats.isSymbolicLink()) return 'link';
  return stats.isDirectory() ? 'dir' : 'other';
}

/**
 * Why the folder is not a session folder we made, or null when it is (or is gone): it must hold a state.json that shows
 * it is ours (see stateNotOurs) and nothing else but the files we write beside it. `checkState` false: its state.json
 * was just read as a valid session of this id, which shows it already.
 */
export function folderNotOurs(dir: string, checkState = true): string | null {
  const names = namesOrNull(dir);
  if (names === null) return null;
  if (!names.includes(STATE_FILE)) return 'it has no state.json';
  if (lstatOrNull(joinPath(dir, STATE_FILE))?.isDirectory()) return 'its state.json is a folder';
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
  const file = readRegularFile(joinPath(dir, STATE_FILE));
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
  const names = namesOrNull(path);
  if (names === null) return null;
  const known = (name: string): boolean =>
    name === STATE_FILE || (staging ? TEMPS.session!.test(name) : name === LOCK_FILE || SESSION_LEFTOVER.test(name));
  const unknown = names.find((name) => !known(name) || lstatOrNull(joinPath(path, name))?.isDirectory() === true);
  return unknown === undefined ? null : `it holds ${show(unknown)}, which agent-session does not make there`;
}

export function notOursError(id: string, reason: string): SessionError {
  return new SessionError(
    'E_REFUSED',
    `Not removing \`${id}\`: ${reason}, so it is not an agent-session session (left alone)`,
  );
}

/** A link's target, for messages. @throws SessionError E_IO */
export function readLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch (error) {
    throw ioError(error, 'inspect', path);
  }
}
