import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isNewer, keepNewer, newestState } from '../core/activity';
import { isSessionError } from '../core/errors';
import { isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { syncFile, syncFolder, writeFileAtomic } from '../platform/atomic-file';
import { ensurePrivateDir } from '../platform/private-fs';
import { readRegularFile } from '../platform/strict-read';
import { completeIndex, isMarkedComplete, MARKER_TEMP, pathKind, type IndexEntry } from './index-marker';

/** Our names in the folder: pointers (`<hex>`) and writeFileAtomic's temp files (`.<hex>.<pid>.<hex8>.tmp`). */
const POINTER_NAME = /^[0-9a-f]+$/;
const TEMP_NAME = /^\.[0-9a-f]+\.\d+\.[0-9a-f]{8}\.tmp$/;
/** An announced link: `pending <session>`, or `pending <session> <the session the pointer named before>`. */
const PENDING = /^pending ([^ ]+)(?: ([^ ]+))?$/;

/** The folder of the Claude-agent pointers, inside the store root (hidden: listings skip it). */
export const CLAUDE_INDEX_DIR = '.claude-agents';

/** Claude agent ids are short (`a4d2c8f1e0b3a297`); a longer one is looked up by a scan. */
const MAX_ID_BYTES = 100;

/** What the Claude index needs of its store. */
export interface ClaudeIndexedStore {
  /** The store's strict read of one session (E_CORRUPT for a damaged one). */
  read(id: string): SessionState | null;
  /**
   * Every valid session, from one listing of the store; the store also completes (rebuilds and marks) the indexes that
   * have no marker yet, this one included, from that listing.
   */
  scan(): SessionState[];
}

/** What a pointer file says: the session it names, whether that link was only announced, and what it named before. */
interface Pointer {
  readonly session: string;
  readonly pending: boolean;
  readonly previous?: string;
}

/** What a sweep may remove: a pointer none of whose sessions exists, and old temp files. */
export interface ClaudeSweep {
  readonly sessionExists: (id: string) => boolean;
  readonly isOld: (path: string) => boolean;
  /** Runs `work` holding the attach lock of a Claude agent id (every attach of that agent waits); false when busy. */
  readonly withAgentLock: (claudeAgentId: string, work: () => void) => boolean;
  /** The valid sessions: the listing cleanup just took, else a scan (only asked for when a pointer may go). */
  readonly states: () => readonly SessionState[];
}

/**
 * Pointers from a Claude Code agent id to the session it was attached to (`<root>/.claude-agents/<hex of the id>`),
 * so the hooks need not scan the store. A pointer stays when a later agent resumes that session: it is how a late
 * event of the earlier agent finds the session it had (and leaves it alone) instead of making a second one.
 *
 * The index is complete (its marker, index-marker.ts): every session linked to a Claude agent has its pointer, so no
 * pointer proves no session, and the event of a new agent reads no session at all. That holds because a link is
 * announced before it is written: `pending <session> [<previous>]` goes to disk (fsync of the file and of the folder)
 * before the session that links the agent is written, and becomes the plain `<session>` after (without fsync). An
 * announcement whose write never landed (a crash) names a session that shows no link to the agent: it counts as what
 * it replaced. A write that moves a session's link to another agent first makes the earlier agent's pointer name that
 * session, durably, so a pending pointer whose session shows no trace of its agent was never written. A store without
 * the marker (made by an older version) is listed once, its missing pointers written and flushed, then marked.
 *
 * The folders stay the source of truth: a pointer is trusted only when the session it names exists and is linked to
 * a Claude agent (an announced one: to this agent, or resumed from it); otherwise the caller scans for a current link.
 */
export class ClaudeIndex {
  readonly #dir: string;
  readonly #store: ClaudeIndexedStore;

  constructor(root: string, store: ClaudeIndexedStore) {
    this.#dir = join(root, CLAUDE_INDEX_DIR);
    this.#store = store;
  }

  /**
   * The session a Claude agent id was attached to: the one its pointer names while that session is linked to some
   * Claude agent (this one, or a later one that resumed it); null when the complete index has no pointer for it; else
   * the one linked to it now (a scan, which repairs the pointer). Only sessions that `fit` (a project's) are answered:
   * a pointer (one per agent id, whatever the project) naming another is passed over for a scan of those that fit.
   */
  attachedTo(claudeAgentId: string, fits: (state: SessionState) => boolean = ANY): SessionState | null {
    const resolved = this.#resolve(claudeAgentId);
    if (resolved === null) return null;
    return resolved !== undefined && fits(resolved) ? resolved : this.#scan(claudeAgentId, true, fits);
  }

  /**
   * The session linked to a Claude agent id now (the most recently active if several are), or null; only sessions
   * that `fit`, as for attachedTo.
   */
  findByClaudeAgent(claudeAgentId: string, fits: (state: SessionState) => boolean = ANY): SessionState | null {
    const resolved = this.#resolve(claudeAgentId);
    if (resolved === null) return null;
    if (resolved?.claude?.agent_id === claudeAgentId && fits(resolved)) return resolved;
    // Linked to a later agent since (or no pointer to trust): only a scan can tell whether another session is linked.
    return this.#scan(claudeAgentId, false, fits);
  }

  /**
   * Before `next` is written over `current` (null for a create), under the session's lock: announces a new link durably
   * (the pointer of `next`'s Claude agent names it, `pending`), and makes the pointer of the agent it is taken from name
   * it durably (a late event of that agent then finds it, superseded). Returns what to do once `next` is written.
   * A pointer folder that is a link or a file is left alone (lookups then scan).
   * @throws SessionError E_IO when a pointer cannot be written: the session must not be written then either
   */
  beforeWrite(current: SessionState | null, next: SessionState): () => void {
    const from = current?.claude?.agent_id;
    const to = next.claude?.agent_id;
    if (to === undefined && from === undefined) return NOTHING;
    if (this.#unusable()) return NOTHING;
    const writes: [file: string, text: string][] = [];
    const flushes: string[] = [];
    const toFile = to === undefined || to === from ? null : this.#file(to);
    if (toFile !== null) {
      const text = this.#announcement(to!, toFile, next);
      if (text !== null) writes.push([toFile, text]);
    }
    const fromFile = from === undefined || from === to ? null : this.#file(from);
    if (fromFile !== null) {
      const pointer = this.#readPointer(fromFile);
      if (pointer === 'absent' || pointer === 'untrusted' || (pointer.session === next.agent_id && pointer.pending))
        writes.push([fromFile, next.agent_id]);
      // Already naming it: flushed, for it may have been made plain without fsync after its own write.
      else if (pointer.session === next.agent_id) flushes.push(fromFile);
      // Naming another session: left as it is (that session is this agent's too).
    }
    if (writes.length > 0 || flushes.length > 0) {
      try {
        ensurePrivateDir(this.#dir, true);
      } catch (error) {
        // A link or a file in the folder's place since the check: nothing is written through it, lookups scan.
        if (isSessionError(error, 'E_REFUSED')) return NOTHING;
        throw error;
      }
      for (const [file, text] of writes) writeFileAtomic(file, text, { syncFolder: false });
      for (const file of flushes) syncFile(file);
      syncFolder(this.#dir);
    }
    return to === undefined ? NOTHING : () => this.written(next);
  }

  /**
   * Points the state's Claude agent at it, when it is linked to one, unless the pointer names another session still
   * linked to that agent and more recently active (the lookup answers the most recently active of several). Called
   * after the session is written, under its lock: makes an announced link plain, and repairs a missing pointer. Not
   * flushed: a lost rewrite leaves the announcement, which the written session confirms. A pointer that cannot be
   * rewritten only costs lookups a read, so write failures are not the session write's failure.
   */
  written(state: SessionState): void {
    const agentId = state.claude?.agent_id;
    if (agentId !== undefined) this.#point(agentId, state);
  }

  /** Points `claudeAgentId` at `state` (not flushed), unless it names another session linked to it and more recent. */
  #point(claudeAgentId: string, state: SessionState): void {
    const file = this.#file(claudeAgentId);
    if (file === null || this.#unusable()) return;
    const pointer = this.#readPointer(file);
    if (pointer !== 'absent' && pointer !== 'untrusted') {
      if (pointer.session === state.agent_id && !pointer.pending) return;
      if (pointer.session !== state.agent_id) {
        const other = this.#readQuiet(pointer.session);
        if (other !== null && other.claude?.agent_id === claudeAgentId && isNewer(other, state)) return;
      }
    }
    try {
      ensurePrivateDir(this.#dir, true);
      writeFileAtomic(file, state.agent_id, { durable: false });
    } catch (error) {
      // A link (or a file) in the folder's place: no pointer, never one written through it.
      if (isSessionError(error, 'E_REFUSED')) return;
      const code = errnoCode((error as { cause?: unknown }).cause ?? error);
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS' && code !== 'ENOSPC')
        throw ioError(error, 'write', file);
    }
  }

  /**
   * Completes the index from a listing of the store: a pointer for every Claude agent a session is linked to, or was
   * linked to before a later agent resumed it (`resumed_from`), where there is none (created exclusively: a writer may
   * announce a link meanwhile). An index without its marker (a store an older version made, once) is then marked,
   * after each of those pointers and the folder are flushed. `cleanup` runs it on a marked index too: links another
   * program (or an older version alongside) wrote without a pointer get one. Creates the folder only inside an
   * existing store.
   * @param exists whether a listed session is still there (cleanup lists before it removes)
   * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
   */
  rebuild(states: readonly SessionState[], exists: (id: string) => boolean = () => true): void {
    const marked = this.#isComplete();
    ensurePrivateDir(this.#dir, false);
    const entries: IndexEntry[] = [];
    for (const [agentId, state] of linksOf(states)) {
      const file = this.#file(agentId);
      if (file !== null) entries.push({ file, session: state.agent_id, text: state.agent_id });
    }
    completeIndex(this.#dir, marked, entries, exists);
  }

  /**
   * Removes pointers none of whose sessions exists any more (cleaned up, deleted), and old temp files of killed writers.
   * A pointer is removed only when old (a writer announces a link before its session exists), under the attach lock
   * of its agent, and when no session is linked to that agent (or resumed from it): that one is pointed at instead,
   * since the absence of a pointer says there is none.
   * @returns how many files were removed
   */
  sweep(sweep: ClaudeSweep): number {
    // readdir would list a linked folder's target: nothing is removed through a link.
    if (this.#unusable()) return 0;
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return 0;
      throw ioError(error, 'list', this.#dir);
    }
    const stands = (pointer: Pointer | 'absent' | 'untrusted'): boolean =>
      pointer === 'absent' ||
      (pointer !== 'untrusted' &&
        (sweep.sessionExists(pointer.session) ||
          (pointer.previous !== undefined && sweep.sessionExists(pointer.previous))));
    let removed = 0;
    let evidence: Map<string, SessionState> | undefined;
    for (const name of names) {
      const path = join(this.#dir, name);
      // Only our own names, and never recursively: whatever else is in the folder is not ours to remove.
      if (TEMP_NAME.test(name) || MARKER_TEMP.test(name)) {
        if (sweep.isOld(path)) removed += removeQuiet(path);
        continue;
      }
      if (!POINTER_NAME.test(name) || name.length % 2 !== 0) continue;
      if (stands(this.#readPointer(path)) || !sweep.isOld(path)) continue;
      evidence ??= linksOf(sweep.states());
      const agentId = Buffer.from(name, 'hex').toString('utf8');
      sweep.withAgentLock(agentId, () => {
        // Read again under the lock: an attach of this agent may have announced a link since.
        if (stands(this.#readPointer(path)) || !sweep.isOld(path)) return;
        const other = evidence!.get(agentId);
        if (other !== undefined && sweep.sessionExists(other.agent_id))
          writeFileAtomic(path, other.agent_id, { durable: false });
        else removed += removeQuiet(path);
      });
    }
    return removed;
  }

  // --- internal ---

  /**
   * What the index says about a Claude agent id: the session it was attached to, null when the complete index proves
   * there is none, or undefined when only a scan can tell (no pointer to trust, no marker, a long id, a linked folder).
   */
  #resolve(claudeAgentId: string): SessionState | null | undefined {
    const file = this.#file(claudeAgentId);
    if (file === null || this.#unusable()) return undefined;
    const pointer = this.#readPointer(file);
    if (pointer === 'untrusted') return undefined;
    if (pointer !== 'absent') {
      const named = this.#attachedAt(pointer.session, claudeAgentId, pointer.pending);
      if (named !== NOT_WRITTEN) return named;
      // An announcement whose write never landed: what the pointer said before it.
      if (pointer.previous !== undefined) {
        const previous = this.#attachedAt(pointer.previous, claudeAgentId, false);
        return previous === NOT_WRITTEN ? undefined : previous;
      }
    }
    return this.#isComplete() ? null : undefined;
  }

  /** The session `id` as a pointer of `claudeAgentId` names it, undefined when only a scan can tell, or NOT_WRITTEN. */
  #attachedAt(id: string, claudeAgentId: string, pending: boolean): SessionState | undefined | typeof NOT_WRITTEN {
    let state: SessionState | null;
    try {
      state = this.#store.read(id);
    } catch (error) {
      // Corrupt: another session may be linked to the agent; a scan tells.
      if (isSessionError(error, 'E_CORRUPT')) return undefined;
      throw error;
    }
    // Gone: announced and never created (or removed since), or, for a plain pointer, removed while another may be linked.
    if (state === null) return pending ? NOT_WRITTEN : undefined;
    if (!pending) return state.claude !== undefined ? state : undefined;
    const link = state.claude;
    // Only the written session proves an announced link: linked to the agent now, or resumed from it since.
    return link?.agent_id === claudeAgentId || link?.resumed_from?.agent_id === claudeAgentId ? state : NOT_WRITTEN;
  }

  /**
   * The announcement to write before `next` links `claudeAgentId`, or null when the pointer already names it (or names
   * another session linked to that agent and more recently active). It carries the session the pointer named before,
   * which stands again if this write never lands. A store not known complete is completed first, so that a missing
   * pointer really means no session.
   */
  #announcement(claudeAgentId: string, file: string, next: SessionState): string | null {
    let pointer = this.#readPointer(file);
    if (pointer === 'absent' && !this.#isComplete()) {
      this.#store.scan();
      pointer = this.#readPointer(file);
    }
    if (pointer === 'absent') return `pending ${next.agent_id}`;
    if (pointer === 'untrusted') {
      // A torn or foreign pointer: the session linked to the agent now, if any, is what stands if this write fails.
      const linked = newestState(this.#store.scan().filter((s) => s.claude?.agent_id === claudeAgentId));
      return linked === null || linked.agent_id === next.agent_id
        ? `pending ${next.agent_id}`
        : `pending ${next.agent_id} ${linked.agent_id}`;
    }
    if (pointer.session === next.agent_id) return null;
    const named = this.#attachedAt(pointer.session, claudeAgentId, pointer.pending);
    const standing = named === NOT_WRITTEN ? pointer.previous : pointer.session;
    if (
      named !== NOT_WRITTEN &&
      named !== undefined &&
      named.claude?.agent_id === claudeAgentId &&
      isNewer(named, next)
    )
      return null;
    return standing === undefined || standing === next.agent_id
      ? `pending ${next.agent_id}`
      : `pending ${next.agent_id} ${standing}`;
  }

  /** A link or a file in the folder's place makes the index unusable: nothing is read or written through it. */
  #unusable(): boolean {
    return pathKind(this.#dir) === 'other';
  }

  /** Read every time (a small file): a long-lived process must see the folder removed meanwhile ("always safe"). */
  #isComplete(): boolean {
    return isMarkedComplete(this.#dir);
  }

  /** A session, or null when it is absent, invalid or its id is not one (the pointer is then simply replaced). */
  #readQuiet(id: string): SessionState | null {
    try {
      return this.#store.read(id);
    } catch (error) {
      if (isSessionError(error, 'E_CORRUPT') || isSessionError(error, 'E_USAGE')) return null;
      throw error;
    }
  }

  /**
   * The scan, when the index cannot answer: the session linked to the agent now, else (`resumedToo`) the one a later
   * agent resumed from it; the pointer is repaired to what it finds.
   */
  #scan(claudeAgentId: string, resumedToo: boolean, fits: (state: SessionState) => boolean): SessionState | null {
    const states = this.#store.scan().filter(fits);
    const found =
      newestState(states.filter((state) => state.claude?.agent_id === claudeAgentId)) ??
      (resumedToo ? newestState(states.filter((s) => s.claude?.resumed_from?.agent_id === claudeAgentId)) : null);
    // Repair the pointer so the next lookup is direct; it is verified on every read, so a race cannot mislead.
    if (found !== null) this.#point(claudeAgentId, found);
    return found;
  }

  #readPointer(path: string): Pointer | 'absent' | 'untrusted' {
    const read = readRegularFile(path);
    if (read === null) return 'absent';
    if (!('text' in read)) return 'untrusted';
    const text = read.text;
    if (isValidId(text)) return { session: text, pending: false };
    const announced = PENDING.exec(text);
    if (announced === null || !isValidId(announced[1])) return 'untrusted';
    const previous = announced[2];
    if (previous === undefined) return { session: announced[1]!, pending: true };
    return isValidId(previous) ? { session: announced[1]!, pending: true, previous } : 'untrusted';
  }

  #file(claudeAgentId: string): string | null {
    const bytes = Buffer.from(claudeAgentId, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_ID_BYTES) return null;
    return join(this.#dir, bytes.toString('hex'));
  }
}

// --- internal ---

/** An announced link whose session shows no trace of it: the write never landed. */
const NOT_WRITTEN = Symbol('not written');

const NOTHING = (): void => undefined;

/** Every session fits (no project named). */
const ANY = (): boolean => true;

/** Per Claude agent id, the session linked to it now, else the one resumed from it (the newest of each). */
function linksOf(states: readonly SessionState[]): Map<string, SessionState> {
  const linked = new Map<string, SessionState>();
  const resumedFrom = new Map<string, SessionState>();
  for (const state of states) {
    if (state.claude !== undefined) keepNewer(linked, state.claude.agent_id, state);
    const earlier = state.claude?.resumed_from?.agent_id;
    if (earlier !== undefined) keepNewer(resumedFrom, earlier, state);
  }
  for (const [agentId, state] of resumedFrom) if (!linked.has(agentId)) linked.set(agentId, state);
  return linked;
}

function removeQuiet(path: string): number {
  try {
    unlinkSync(path);
    return 1;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 0;
    throw ioError(error, 'remove', path);
  }
}
