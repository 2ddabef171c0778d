import type { SessionState } from '../core/state';
import { type PointedStore } from './pointer-index';
/** The folder of the Claude-agent pointers, inside the store root (hidden: listings skip it). */
export declare const CLAUDE_INDEX_DIR = ".claude-agents";
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
export declare class ClaudeIndex {
    #private;
    constructor(root: string, store: ClaudeIndexedStore);
    /**
     * The session a Claude agent id was attached to: the one its pointer names while that session is linked to some
     * Claude agent (this one, or a later one that resumed it); null when the complete index has no pointer for it; else
     * the one linked to it now (a scan, which repairs the pointer). Only sessions that `fit` (a project's) are answered:
     * a pointer (one per agent id, whatever the project) naming another is passed over for a scan of those that fit.
     */
    attachedTo(claudeAgentId: string, fits?: (state: SessionState) => boolean): SessionState | null;
    /**
     * The session linked to a Claude agent id now (the most recently active if several are), or null; only sessions
     * that `fit`, as for attachedTo.
     */
    findByClaudeAgent(claudeAgentId: string, fits?: (state: SessionState) => boolean): SessionState | null;
    /**
     * Before `next` is written over `current` (null for a create), under the session's lock: announces a new link durably
     * (the pointer of `next`'s Claude agent names it, `pending`), and makes the pointer of the agent it is taken from name
     * it durably (a late event of that agent then finds it, superseded). Returns what to do once `next` is written.
     * A pointer folder that is a link or a file is left alone (lookups then scan).
     * @throws SessionError E_IO when a pointer cannot be written: the session must not be written then either
     */
    beforeWrite(current: SessionState | null, next: SessionState): () => void;
    /**
     * Points the state's Claude agent at it, when it is linked to one, unless the pointer names another session still
     * linked to that agent and more recently active (the lookup answers the most recently active of several). Called
     * after the session is written, under its lock: makes an announced link plain, and repairs a missing pointer. Not
     * flushed: a lost rewrite leaves the announcement, which the written session confirms. A pointer that cannot be
     * rewritten only costs lookups a read, so write failures are not the session write's failure.
     */
    written(state: SessionState): void;
    /**
     * Completes the index from a listing of the store (PointerIndex.complete): a pointer for every Claude agent a session
     * is linked to, or was linked to before a later agent resumed it (`resumed_from`), where there is none. `cleanup`
     * runs it on a marked index too: links another program (or an older version alongside) wrote without a pointer get
     * one. Creates the folder only inside an existing store.
     * @param exists whether a listed session is still there (cleanup lists before it removes)
     * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
     */
    rebuild(states: readonly SessionState[], exists?: (id: string) => boolean): void;
    /**
     * Removes pointers none of whose sessions exists any more (cleaned up, deleted), and old temp files of killed writers.
     * A pointer is removed only when old (a writer announces a link before its session exists), under the attach lock
     * of its agent, and when no session is linked to that agent (or resumed from it): that one is pointed at instead,
     * since the absence of a pointer says there is none.
     * @returns the files removed (with dryRun: those that would be)
     */
    sweep(sweep: ClaudeSweep): string[];
}
