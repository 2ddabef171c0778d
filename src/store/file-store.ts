import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, type Dirent } from 'node:fs';
import { joinPath } from '../platform/paths';
import { newestState } from '../core/activity';
import { SessionError, isSessionError } from '../core/errors';
import { assertValidId, isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { DEFAULT_PROJECT, withProject } from '../core/project';
import { AgentIndex, INDEX_DIR } from './agent-index';
import {
  CREATING_PREFIX,
  FileHygiene,
  LOCK_FILE,
  LOCKS_DIR,
  REMOVING_PREFIX,
  STATE_FILE,
  entryKind,
  folderNotOurs,
  linkedRoot,
  notOursError,
} from './file-hygiene';
import { decodeState, namedProject, stateJson } from './codec';
import { countedHere, withoutUnverifiedMarks } from '../core/seal';
import { CLAUDE_INDEX_DIR, ClaudeIndex } from './claude-index';
import { pathKind } from './index-marker';
import {
  inScope,
  isAged,
  isLive,
  kept,
  type AgedEntry,
  type AgedQuery,
  type ListedSession,
  type ListPage,
  type ListQuery,
  type ListScope,
  type StatsAnswer,
  type StatsQuery,
  type StoreMaintenance,
  type SweepOptions,
} from '../service/store';
import {
  fileKey,
  LISTING_CACHE,
  readListingCache,
  summaryFacts,
  summaryOf,
  writeListingCache,
  type Summary,
} from './listing-cache';
import { SettledStore, type SyncStore } from './settled-store';
import { statsFactsOf, tallyFacts, type StatsFacts } from '../core/views/stats-facts';
import { isFinalPhase } from '../core/phase-names';
import { errnoCode, ioError } from '../platform/errno';
import { writeFileAtomic } from '../platform/atomic-file';
import { acquireLock, DEFAULT_LOCK_OPTIONS, type LockOptions } from '../platform/lock';
import { ensurePrivateDir, markIgnored, PRIVATE_DIR } from '../platform/private-fs';
import { lstatOrNull } from '../platform/files';
import { uniqueSuffix } from '../platform/random';
import { readRegularFile } from '../platform/strict-read';

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
  /**
   * Checks a decision's or grant's MAC under this user's key (core/seal.ts; the app's is platform/decision-key.ts):
   * given, every state read is judged by it (countedHere), so what this machine's user did not record counts for
   * nothing. Absent: nothing is judged (tests, tools).
   */
  readonly verify?: (text: string, mac: string) => boolean;
}

/**
 * Sessions as folders: `<root>/<agent_id>/state.json`. Writes are atomic renames, every read-modify-write
 * holds the session's lock file, and no id or link can lead outside `root`. Read-only calls create nothing.
 * The file system work is synchronous (SyncFileStore, below; see SettledStore): a hook or CLI process has nothing
 * else to do meanwhile.
 */
export class FileStore extends SettledStore {
  readonly #sync: SyncFileStore;
  /** Always there on a file store (see SettledStore.maintenance). */
  declare readonly maintenance: StoreMaintenance;

  constructor(root: string, options: FileStoreOptions = {}) {
    const home = options.home === undefined ? DEFAULT_PROJECT : options.home;
    const sync = new SyncFileStore(root, options.lock ?? DEFAULT_LOCK_OPTIONS, home, options.verify);
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

  /** See FileStoreOptions.verify. */
  readonly #verify: ((text: string, mac: string) => boolean) | undefined;

  constructor(
    root: string,
    lock: LockOptions = DEFAULT_LOCK_OPTIONS,
    home: string | null = DEFAULT_PROJECT,
    verify?: (text: string, mac: string) => boolean,
  ) {
    this.location = root;
    this.#lock = lock;
    this.#home = home;
    this.#verify = verify;
    const read = (id: string): SessionState | null => this.read(id);
    const indexed = {
      read,
      scanNewest: (project: string, name: string, notAfter?: number) => this.#scanNewest(project, name, notAfter),
      scan: () => this.#scanAndComplete(false),
    };
    this.#index = new AgentIndex(root, indexed, lock, home);
    this.#claude = new ClaudeIndex(root, { read, scan: () => this.#scanAndComplete(true) });
    this.maintenance = new FileHygiene(this);
  }

  /** What is ours, and the sweep of leftovers (file-hygiene.ts). */
  readonly maintenance: FileHygiene;

  /** SweptStore.sweepIndexes: the sweep's part that is the indexes' (see FileHygiene.sweep). */
  sweepIndexes(
    isOld: (path: string) => boolean,
    states: readonly SessionState[] | undefined,
    options: SweepOptions,
  ): string[] {
    // Sessions another program wrote (or an older version alongside) have no pointer, so the complete indexes would
    // hide them: cleanup, which has just listed the store, gives them one (the hourly cron bounds how long).
    if (states !== undefined && options.dryRun !== true) this.#completeIndexes(states, false);
    // A dry run takes the sessions its real run would remove first as gone already, so their pointers are named too.
    const removing = options.dryRun === true ? options.removing : undefined;
    // Claude-agent pointers whose session is gone (cleaned up, deleted) would only cost lookups a scan.
    return this.#claude.sweep({
      dryRun: options.dryRun === true,
      sessionExists: (id) =>
        isValidId(id) && removing?.has(id) !== true && entryKind(joinPath(this.location, id)) !== 'absent',
      isOld,
      withAgentLock: (claudeAgentId, work) => this.#withAgentLock(claudeAgentId, work),
      // Listed before the removals: a session it names is checked to exist before a pointer names it.
      // A dry run writes nothing: the sessions are listed without completing the indexes from them.
      states: () =>
        states ??
        (options.dryRun === true
          ? this.list().flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []))
          : this.#scanAndComplete(true)),
    });
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
    const locks = joinPath(this.location, LOCKS_DIR);
    // 0700, and never through a link (E_REFUSED): the lock files must not be written outside the store.
    ensurePrivateDir(locks, true);
    const releaseAgent = acquireLock(joinPath(locks, `agent-${lockName(claudeAgentId)}.lock`), this.#lock);
    if (agentType === '') return releaseAgent;
    let releaseType: () => void;
    try {
      releaseType = acquireLock(joinPath(locks, `type-${lockName(agentType)}.lock`), this.#lock);
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
    const file = readRegularFile(joinPath(dir, STATE_FILE));
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
    const placed = decoded.project === undefined && this.#home !== null ? withProject(decoded, this.#home) : decoded;
    // Judged on every read (issue 40 item 3): a folder in the workspace holds what git, a copy or an agent put there.
    const state = this.#verify === undefined ? placed : countedHere(placed, this.#verify);
    this.#lastRead = { id, text: file.text, state: structuredClone(state) };
    return state;
  }

  create(state: SessionState): void {
    const dir = this.#dir(state.agent_id);
    this.assertWritable();
    try {
      // Private whatever the umask: another local user must not plant links in the store.
      // The store made now is kept out of git from its first write (markIgnored).
      if (mkdirSync(this.location, { recursive: true, mode: PRIVATE_DIR }) !== undefined) markIgnored(this.location);
    } catch (error) {
      throw ioError(error, 'create the store folder', this.location);
    }
    // Build the whole session in a hidden folder and rename it into place: the session appears complete
    // or not at all, and rename refuses an existing (non-empty) session, so create never overwrites.
    let staging: string;
    try {
      staging = mkdtempSync(joinPath(this.location, CREATING_PREFIX));
    } catch (error) {
      throw ioError(error, 'create a folder in', this.location);
    }
    let written = (): void => undefined;
    try {
      writeFileAtomic(joinPath(staging, STATE_FILE), serialize(this.#stored(state)));
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
      this.#index.writing(next, () => writeFileAtomic(joinPath(this.#dir(id), STATE_FILE), bytes));
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

  /**
   * See SessionStore.query. The sessions are chosen on their summaries (listing-cache.ts: one stat per session, a
   * read only for a state.json changed since the cache was written), and only those chosen are read whole: a
   * listing of 100,000 sessions reads the few it shows, not 100,000 files.
   */
  query(scope: ListScope | undefined, query: ListQuery): ListedSession[] {
    return this.page(scope, query).entries;
  }

  /** See SessionStore.page: query's one pass, the chosen counted before the limit. */
  page(scope: ListScope | undefined, query: ListQuery): ListPage {
    const walked = this.#summaries();
    const chosen: { id: string; last_updated: string }[] = [];
    for (const { id, summary } of walked.valid) {
      if (!summaryInScope(summary, scope)) continue;
      const phases = query.phases;
      if (phases !== undefined && !(phases as readonly string[]).includes(summary.phase)) continue;
      if (query.agent !== undefined && summary.agent_name !== query.agent) continue;
      chosen.push({ id, last_updated: summary.last_updated });
    }
    chosen.sort((a, b) => {
      const x = Date.parse(a.last_updated);
      const y = Date.parse(b.last_updated);
      return x !== y ? (x < y ? 1 : -1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    const corrupt = [...walked.corrupt];
    const valid: ListedSession[] = [];
    for (const { id } of chosen) {
      if (query.limit !== undefined && valid.length >= query.limit) break;
      const listed = this.#readChosen(id, walked.read);
      if (listed === null) continue;
      if (listed.kind === 'corrupt') corrupt.push(listed);
      // Changed since it was chosen (written meanwhile): kept only if it still fits.
      else if (inScope(listed, scope) && kept(listed.state, query)) valid.push(listed);
    }
    // A corrupt entry that still names a project is that project's (as in `list`); one naming none is in every scope.
    return { entries: [...valid, ...corrupt.filter((entry) => inScope(entry, scope))], total: chosen.length };
  }

  /**
   * See SessionStore.stats: counted from the summaries' facts (listing-cache.ts), the live sessions read whole; a store
   * of 100,000 sessions is one stat per session and one read of the cache.
   */
  stats(scope: ListScope | undefined, query: StatsQuery): StatsAnswer {
    const walked = this.#summaries();
    const facts: StatsFacts[] = [];
    const live: SessionState[] = [];
    const corrupt = [...walked.corrupt];
    for (const { id, summary } of walked.valid) {
      if (!summaryInScope(summary, scope)) continue;
      if (query.agent !== undefined && summary.agent_name !== query.agent) continue;
      const known = summaryFacts(summary);
      // A cached row not as written here: the session read whole, its facts taken from the state.
      const listed = known === null ? this.#readChosen(id, walked.read) : null;
      if (listed?.kind === 'corrupt') {
        corrupt.push(listed);
        continue;
      }
      const own = known ?? (listed === null ? null : statsFactsOf(listed.state));
      if (own === null) continue;
      facts.push(own);
      if (!mayBeLive(own, query)) continue;
      const whole = listed ?? this.#readChosen(id, walked.read);
      if (whole?.kind === 'valid') {
        if (isLive(whole.state, query)) live.push(whole.state);
      } else if (whole !== null) corrupt.push(whole);
    }
    return {
      tally: tallyFacts(facts, query.since),
      live,
      corrupt: corrupt.filter((entry) => inScope(entry, scope)),
    };
  }

  /** See SessionStore.aged: chosen on the summaries (one stat per session), none read whole. */
  aged(scope: ListScope | undefined, query: AgedQuery): AgedEntry[] {
    const walked = this.#summaries();
    const aged: AgedEntry[] = walked.corrupt.filter(
      (entry): entry is AgedEntry & { kind: 'corrupt' } => entry.kind === 'corrupt' && inScope(entry, scope),
    );
    for (const { id, summary } of walked.valid)
      if (summaryInScope(summary, scope) && isAged(summary.last_updated, query))
        aged.push({ kind: 'valid', id, last_updated: summary.last_updated });
    return aged;
  }

  /**
   * One pass over the store root: each session's summary (from the cache while its state.json is unchanged, else read
   * and summarized), the states read meanwhile, and the corrupt entries; the cache written again when it changed.
   */
  #summaries(): {
    valid: { id: string; summary: Summary }[];
    read: Map<string, SessionState>;
    corrupt: ListedSession[];
  } {
    const cachePath = joinPath(this.location, LISTING_CACHE);
    const cached = readListingCache(cachePath);
    const next = new Map<string, Summary>();
    const read = new Map<string, SessionState>();
    const corrupt: ListedSession[] = [];
    const valid: { id: string; summary: Summary }[] = [];
    let changed = false;
    for (const entry of this.#rootEntries()) {
      const id = entry.name;
      if (!isValidId(id) || (!entry.isDirectory() && !entry.isSymbolicLink())) continue;
      // A linked session folder is read each time: its file's identity is not the store's to vouch for.
      const key = entry.isDirectory() ? fileKey(joinPath(this.location, id, STATE_FILE)) : null;
      let summary = key === null ? undefined : cached.get(id);
      if (summary === undefined || summary.key !== key) {
        const listed = this.#listOne(id, entry);
        if (listed === null) continue;
        if (listed.kind === 'corrupt') {
          corrupt.push(listed);
          continue;
        }
        read.set(id, listed.state);
        summary = summaryOf(listed.state, key ?? '');
        changed = true;
      }
      if (key !== null) next.set(id, summary);
      valid.push({ id, summary });
    }
    if (changed || next.size !== cached.size) writeListingCache(cachePath, next);
    return { valid, read, corrupt };
  }

  /** A chosen session as it is now: the state this pass read, else read now. */
  #readChosen(id: string, read: ReadonlyMap<string, SessionState>): ListedSession | null {
    const known = read.get(id);
    return known === undefined ? this.#listOne(id) : { kind: 'valid', id, state: known };
  }

  /** See SessionStore.idsContaining: one look at the id's own folder, else one listing of the root's names. */
  idsContaining(part: string, limit: number): string[] {
    if (isValidId(part) && entryKind(this.#dir(part)) !== 'absent') return [part];
    const found: string[] = [];
    for (const id of this.ids()) {
      if (found.length >= limit) break;
      if (id.includes(part)) found.push(id);
    }
    return found;
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
      const one = this.#listOne(name, entry);
      if (one !== null) listed.push(one);
    }
    return listed;
  }

  /** The project the state.json of an unreadable session names (codec.ts namedProject), read as strictly as a state. */
  #namedProject(id: string): string | undefined {
    const file = readRegularFile(joinPath(this.#dir(id), STATE_FILE));
    return file !== null && 'text' in file ? namedProject(file.text) : undefined;
  }

  /** One entry of a listing: its state, or why it cannot be trusted; null when it is gone or a stray file. */
  #listOne(name: string, entry?: Dirent): ListedSession | null {
    try {
      const state = this.read(name, entry === undefined ? undefined : entry.isSymbolicLink() ? 'link' : 'dir');
      return state === null ? null : { kind: 'valid', id: name, state };
    } catch (error) {
      const stats = lstatOrNull(joinPath(this.location, name));
      if (stats !== null && !stats.isDirectory() && !stats.isSymbolicLink()) return null; // a stray file
      const message = error instanceof Error ? error.message : String(error);
      const notOurs = this.maintenance.notOurs(name);
      const modifiedAt = this.#modifiedAt(name);
      // The project an unreadable session names still decides whose it is (cleanup leaves another project's alone).
      const project = notOurs === null ? this.#namedProject(name) : undefined;
      return {
        kind: 'corrupt',
        id: name,
        error: message,
        modifiedAt,
        ...(notOurs === null ? {} : { notOurs }),
        ...(project === undefined ? {} : { project }),
      };
    }
  }

  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean {
    this.maintenance.assertRemovable();
    const dir = this.#dir(id);
    if (entryKind(dir) === 'absent') return false;
    // Checked before locking too: the lock would write into a folder that is not ours.
    const before = this.maintenance.notOurs(id);
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
        const doomed = joinPath(this.location, `${REMOVING_PREFIX}${uniqueSuffix()}`);
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
   * Refuses writes (create, update, attach locks, pointers) to a store whose root or `.claude` parent is a symbolic
   * link, as removals are: files are never created through a linked folder (reads may follow it).
   * @throws SessionError E_REFUSED naming the link
   */
  assertWritable(): void {
    const where = linkedRoot(this.location);
    if (where !== null)
      throw new SessionError(
        'E_REFUSED',
        `Refusing to write anything through ${where}; pass --dir with the real folder`,
      );
  }

  // --- internal ---

  #dir(id: string): string {
    return joinPath(this.location, assertValidId(id));
  }

  /** The state as its file holds it: the home project's sessions name none (see FileStoreOptions.home). */
  #stored(given: SessionState): SessionState {
    // The marks are a judgment of this reader's (countedHere), never a fact to keep.
    const state = withoutUnverifiedMarks(given);
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
    if (lstatOrNull(joinPath(dir, STATE_FILE)) === null) {
      if (entryKind(dir) === 'absent') throw notFound(id);
      throw new SessionError('E_CORRUPT', `Session \`${id}\` has no state.json`);
    }
    let release: () => void;
    try {
      release = acquireLock(joinPath(dir, LOCK_FILE), this.#lock);
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
    if (linkedRoot(this.location) !== null) return;
    // Cleanup lists before it removes: a session removed since gets no pointer.
    const exists = (id: string): boolean => entryKind(joinPath(this.location, id)) !== 'absent';
    // A store without sessions and without the folder gets none (cleanup of a store holding only leftovers).
    if (states.length > 0 || pathKind(joinPath(this.location, INDEX_DIR)) === 'folder')
      bestEffort(() => this.#index.rebuild(states, exists));
    const claudeDir = joinPath(this.location, CLAUDE_INDEX_DIR);
    if (withClaude || states.some((state) => state.claude !== undefined) || pathKind(claudeDir) === 'folder')
      bestEffort(() => this.#claude.rebuild(states, exists));
  }

  /** Runs `work` holding a Claude agent id's attach lock (see claudeAgentLocks); false when it stays taken. */
  #withAgentLock(claudeAgentId: string, work: () => void): boolean {
    const locks = joinPath(this.location, LOCKS_DIR);
    let release: () => void;
    try {
      ensurePrivateDir(locks, true);
      release = acquireLock(joinPath(locks, `agent-${lockName(claudeAgentId)}.lock`), this.#lock);
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
    const dir = joinPath(this.location, id);
    const own = lstatOrNull(dir);
    // A link (or stray file) is judged by itself: a path through it would stat what it points to.
    if (own === null) return new Date(0);
    if (!own.isDirectory()) return own.mtime;
    return (lstatOrNull(joinPath(dir, STATE_FILE)) ?? own).mtime;
  }
}

/**
 * The bytes written for a state: indented JSON with a final newline.
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export function serialize(state: SessionState): string {
  return `${stateJson(state, 2)}\n`;
}

// --- internal ---

/** True when a summary is of a session of `scope` (see inScope). */
function summaryInScope(summary: Summary, scope: ListScope | undefined): boolean {
  return (
    scope === undefined || (summary.project === null ? scope.unassigned === true : summary.project === scope.project)
  );
}

/** True when a summary's session may be live (StatsQuery.activeSince): worth reading whole. */
function mayBeLive(facts: StatsFacts, query: StatsQuery): boolean {
  if (isFinalPhase(facts.phase)) return false;
  if (query.since !== undefined && Date.parse(facts.created_at) < query.since.getTime()) return false;
  return Date.parse(facts.last_updated) >= query.activeSince.getTime() || facts.interrupted_now;
}

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

/** A lock file name for an id or agent type: its UTF-8 hex, or one shared name when that would be too long. */
function lockName(key: string): string {
  const bytes = Buffer.from(key, 'utf8');
  return bytes.length > 100 ? 'long-names' : bytes.toString('hex');
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

function notFound(id: string): SessionError {
  return new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
}

function duplicate(id: string): SessionError {
  return new SessionError('E_DUPLICATE', `Session \`${id}\` already exists; create never overwrites`);
}
