import { joinPath } from '../platform/paths';
import { isNewer, keepNewer, newestState } from '../core/activity';
import { isSessionError } from '../core/errors';
import { isValidId } from '../core/ids';
import type { SessionState } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { ensurePrivateDir } from '../platform/private-fs';
import { MARKER_TEMP } from './index-marker';
import { PointerIndex, removeFile, type KeyPolicy, type PointedStore, type PointerRead } from './pointer-index';

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
export type ClaudeIndexedStore = PointedStore;

/** What a sweep may remove: a pointer none of whose sessions exists, and old temp files. */
export interface ClaudeSweep {
  /** Only say what would be removed: nothing is removed or settled. */
  readonly dryRun?: boolean;
  readonly sessionExists: (id: string) => boolean;
  readonly isOld: (path: string) => boolean;
  /** Runs `work` holding the attach lock of a Claude agent id (every attach of that agent waits); false when busy. */
  readonly withAgentLock: (claudeAgentId: string, work: () => void) => boolean;
  /** The valid sessions: the listing cleanup just took, else a scan (only asked for when a pointer may go). */
  readonly states: () => readonly SessionState[];
}

/**
 * The key policy of the Claude-agent index: a pointer per Claude Code agent id (`<root>/.claude-agents/<hex of the
 * id>`) to the session it was attached to, as the session id alone; an announcement is `pending <session>` or
 * `pending <session> <the session the pointer named before>`. Trusted while the session named is linked to some Claude
 * agent (this one, or a later one that resumed it); an announcement is proven by its session showing a link to the
 * agent (linked now, or resumed from it since). The pointer of an agent names its session linked now, else the one a
 * later agent resumed from it.
 */
const CLAUDE_POLICY: KeyPolicy<string> = {
  folder: CLAUDE_INDEX_DIR,
  fileName(claudeAgentId) {
    const bytes = Buffer.from(claudeAgentId, 'utf8');
    return bytes.length === 0 || bytes.length > MAX_ID_BYTES ? null : bytes.toString('hex');
  },
  parse(text) {
    if (isValidId(text)) return { session: text, pending: false };
    const announced = PENDING.exec(text);
    if (announced === null || !isValidId(announced[1])) return 'untrusted';
    const previous = announced[2];
    if (previous === undefined) return { session: announced[1]!, pending: true };
    return isValidId(previous) ? { session: announced[1]!, pending: true, previous } : 'untrusted';
  },
  // No pointer of this index records "no session": the empty text would read as untrusted.
  plain: (_, target) => target?.agent_id ?? '',
  announcement: (_, session, previous) =>
    previous === undefined ? `pending ${session}` : `pending ${session} ${previous}`,
  checks: (_, __, state) => state.claude !== undefined,
  proves: (claudeAgentId, state) =>
    state.claude?.agent_id === claudeAgentId || state.claude?.resumed_from?.agent_id === claudeAgentId,
  pointed: (states) => linksOf(states),
};

/**
 * Pointers from a Claude Code agent id to the session it was attached to (CLAUDE_POLICY), so the hooks need not scan
 * the store; the protocol is PointerIndex's. A pointer stays when a later agent resumes that session: it is how a late
 * event of the earlier agent finds the session it had (and leaves it alone) instead of making a second one. What this
 * index adds:
 *
 * - no lock of its own: its writers already hold the session's lock (and an attach the agent's attach lock); every
 *   announcement is flushed, file and folder, since a missing pointer proves "no session" once the index is complete;
 * - a write that fails leaves its announcement: it counts as what it replaced (the session it names shows no link);
 * - a write that moves a session's link to another agent first makes the earlier agent's pointer name that session,
 *   durably, so a pending pointer whose session shows no trace of its agent was never written;
 * - the sweep removes pointers none of whose sessions exists.
 */
export class ClaudeIndex {
  readonly #index: PointerIndex<string>;
  readonly #store: ClaudeIndexedStore;

  constructor(root: string, store: ClaudeIndexedStore) {
    // No pointer locks: writers of one agent id hold the session's lock (and the attach locks).
    this.#index = new PointerIndex(root, CLAUDE_POLICY, store);
    this.#store = store;
  }

  /**
   * The session a Claude agent id was attached to: the one its pointer names while that session is linked to some
   * Claude agent (this one, or a later one that resumed it); null when the complete index has no pointer for it; else
   * the one linked to it now (a scan, which repairs the pointer). Only sessions that `fit` (a project's) are answered:
   * a pointer (one per agent id, whatever the project) naming another is passed over for a scan of those that fit.
   */
  attachedTo(claudeAgentId: string, fits: (state: SessionState) => boolean = ANY): SessionState | null {
    const found = this.#index.lookup(claudeAgentId);
    if (found === null) return null;
    return typeof found === 'object' && fits(found) ? found : this.#scan(claudeAgentId, true, fits);
  }

  /**
   * The session linked to a Claude agent id now (the most recently active if several are), or null; only sessions
   * that `fit`, as for attachedTo.
   */
  findByClaudeAgent(claudeAgentId: string, fits: (state: SessionState) => boolean = ANY): SessionState | null {
    const found = this.#index.lookup(claudeAgentId);
    if (found === null) return null;
    if (typeof found === 'object' && found.claude?.agent_id === claudeAgentId && fits(found)) return found;
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
    if (!this.#index.usable()) return NOTHING;
    const writes: [file: string, text: string][] = [];
    const flushes: string[] = [];
    const before = to === undefined || to === from ? null : this.#index.before(to);
    if (before !== null) {
      const text = this.#announcement(to!, before.pointer, next);
      if (text !== null) writes.push([before.file, text]);
    }
    const fromFile = from === undefined || from === to ? null : this.#index.file(from);
    if (fromFile !== null) {
      const pointer = this.#index.read(fromFile, from!);
      if (pointer === 'absent' || pointer === 'untrusted' || (pointer.session === next.agent_id && pointer.pending))
        writes.push([fromFile, CLAUDE_POLICY.plain(from!, next)]);
      // Already naming it: flushed, for it may have been made plain without fsync after its own write.
      else if (pointer.session === next.agent_id) flushes.push(fromFile);
      // Naming another session: left as it is (that session is this agent's too).
    }
    // A link or a file in the folder's place since the check: nothing is written through it, lookups scan.
    if ((writes.length > 0 || flushes.length > 0) && !this.#index.announce(writes, true, flushes)) return NOTHING;
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

  /**
   * Completes the index from a listing of the store (PointerIndex.complete): a pointer for every Claude agent a session
   * is linked to, or was linked to before a later agent resumed it (`resumed_from`), where there is none. `cleanup`
   * runs it on a marked index too: links another program (or an older version alongside) wrote without a pointer get
   * one. Creates the folder only inside an existing store.
   * @param exists whether a listed session is still there (cleanup lists before it removes)
   * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
   */
  rebuild(states: readonly SessionState[], exists: (id: string) => boolean = () => true): void {
    this.#index.complete(states, exists);
  }

  /**
   * Removes pointers none of whose sessions exists any more (cleaned up, deleted), and old temp files of killed writers.
   * A pointer is removed only when old (a writer announces a link before its session exists), under the attach lock
   * of its agent, and when no session is linked to that agent (or resumed from it): that one is pointed at instead,
   * since the absence of a pointer says there is none.
   * @returns the files removed (with dryRun: those that would be)
   */
  sweep(sweep: ClaudeSweep): string[] {
    const stands = (pointer: PointerRead): boolean =>
      pointer === 'absent' ||
      (pointer !== 'untrusted' &&
        ((pointer.session !== null && sweep.sessionExists(pointer.session)) ||
          (pointer.pending && pointer.previous !== undefined && sweep.sessionExists(pointer.previous))));
    const removed: string[] = [];
    const dryRun = sweep.dryRun === true;
    let evidence: Map<string, SessionState> | undefined;
    // Nothing is listed, nor removed, through a link in the folder's place.
    for (const name of this.#index.fileNames()) {
      const path = joinPath(this.#index.dir, name);
      // Only our own names, and never recursively: whatever else is in the folder is not ours to remove.
      if (TEMP_NAME.test(name) || MARKER_TEMP.test(name)) {
        if (sweep.isOld(path) && (dryRun || removeFile(path))) removed.push(path);
        continue;
      }
      if (!POINTER_NAME.test(name) || name.length % 2 !== 0) continue;
      const agentId = Buffer.from(name, 'hex').toString('utf8');
      if (stands(this.#index.read(path, agentId)) || !sweep.isOld(path)) continue;
      evidence ??= linksOf(sweep.states());
      if (dryRun) {
        // As below without the lock: a pointer another linked session can take over is settled, not removed.
        const other = evidence.get(agentId);
        if (other === undefined || !sweep.sessionExists(other.agent_id)) removed.push(path);
        continue;
      }
      sweep.withAgentLock(agentId, () => {
        // Read again under the lock: an attach of this agent may have announced a link since.
        if (stands(this.#index.read(path, agentId)) || !sweep.isOld(path)) return;
        const other = evidence!.get(agentId);
        if (other !== undefined && sweep.sessionExists(other.agent_id)) this.#index.settle(path, agentId, other);
        else if (removeFile(path)) removed.push(path);
      });
    }
    return removed;
  }

  // --- internal ---

  /**
   * The announcement to write before `next` links `claudeAgentId`, or null when the pointer already names it (or names
   * another session linked to that agent and more recently active). It carries the session the pointer named before,
   * which stands again if this write never lands.
   */
  #announcement(claudeAgentId: string, pointer: PointerRead, next: SessionState): string | null {
    if (pointer === 'absent') return this.#index.announcement(claudeAgentId, next.agent_id);
    if (pointer === 'untrusted') {
      // A torn or foreign pointer: the session linked to the agent now, if any, is what stands if this write fails.
      const linked = newestState(this.#store.scan().filter((s) => s.claude?.agent_id === claudeAgentId));
      return this.#index.announcement(
        claudeAgentId,
        next.agent_id,
        linked === null || linked.agent_id === next.agent_id ? undefined : linked.agent_id,
      );
    }
    // This index records no "no session" (its parse never reads one).
    if (pointer.session === null || pointer.session === next.agent_id) return null;
    const named = pointer.pending
      ? this.#index.landed(claudeAgentId, pointer.session)
      : this.#index.target(claudeAgentId, pointer);
    const standing = named === false ? (pointer.pending ? pointer.previous : undefined) : pointer.session;
    if (named && named.claude?.agent_id === claudeAgentId && isNewer(named, next)) return null;
    return this.#index.announcement(
      claudeAgentId,
      next.agent_id,
      standing === undefined || standing === next.agent_id ? undefined : standing,
    );
  }

  /** Points `claudeAgentId` at `state` (not flushed), unless it names another session linked to it and more recent. */
  #point(claudeAgentId: string, state: SessionState): void {
    const file = this.#index.file(claudeAgentId);
    if (file === null || !this.#index.usable()) return;
    const pointer = this.#index.read(file, claudeAgentId);
    if (pointer !== 'absent' && pointer !== 'untrusted' && pointer.session !== null) {
      if (pointer.session === state.agent_id && !pointer.pending) return;
      if (pointer.session !== state.agent_id) {
        const other = this.#index.readQuiet(pointer.session);
        if (other !== null && other.claude?.agent_id === claudeAgentId && isNewer(other, state)) return;
      }
    }
    try {
      ensurePrivateDir(this.#index.dir, true);
      this.#index.settle(file, claudeAgentId, state);
    } catch (error) {
      // A link (or a file) in the folder's place: no pointer, never one written through it.
      if (isSessionError(error, 'E_REFUSED')) return;
      const code = errnoCode((error as { cause?: unknown }).cause ?? error);
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS' && code !== 'ENOSPC')
        throw ioError(error, 'write', file);
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
}

// --- internal ---

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
