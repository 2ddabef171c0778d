import type { SessionState } from '../core/state';
import { type LockOptions } from '../platform/lock';
import { type PointedStore } from './pointer-index';
/** The folder of pointers inside the store root; hidden, so listings and sweeps skip it like any dot-entry. */
export declare const INDEX_DIR = ".agents";
/** What the index needs of the store: a strict read of one session and a scan for an agent's newest. */
export interface IndexedStore extends PointedStore {
    /** Skips sessions whose `last_updated` is later than `notAfter` (ms since the epoch) when it is given. */
    scanNewest(project: string, agentName: string, notAfter?: number): SessionState | null;
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
export declare class AgentIndex {
    #private;
    constructor(root: string, store: IndexedStore, lock?: LockOptions, home?: string | null);
    /**
     * The newest valid session of `agentName`, from the pointer when it checks out, else from a scan.
     * A wrong pointer never throws: it only costs a scan; a pointer that cannot be rebuilt (read-only or busy store) too.
     * With `notAfter`, a session whose `last_updated` is later (a clock ahead) is skipped: the pointer keeps the folders'
     * order, so only when it names such a session does the lookup scan, skipping every skewed one.
     */
    newestOf(project: string, agentName: string, notAfter?: number): SessionState | null;
    /**
     * Writes a session through `write` with the agent's pointer kept right (PointerIndex's protocol, under the pointer's
     * lock): announced (flushed when it is the name's first pointer), then settled to the newer of `state` and the
     * previously pointed session. The session lock, when any, is already held.
     */
    writing<T>(state: SessionState, write: () => T): T;
    /**
     * The agent names of a project that have a pointer file (decoded from the file names); none when there is no index
     * yet.
     */
    names(project: string): string[];
    /**
     * Completes the index from a listing of the store (PointerIndex.complete): a pointer to the newest session of every
     * agent name that has none. `cleanup` runs it on a marked index too: agent names another program wrote sessions of
     * get a pointer. Only inside an existing store.
     * @param exists whether a listed session is still there (cleanup lists before it removes)
     * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
     */
    rebuild(states: readonly SessionState[], exists?: (id: string) => boolean): void;
}
