import { SessionError } from '../core/errors';
import type { SessionState } from '../core/state';
import type { ListedSession, SweepOptions } from '../service/store';
/** A session folder's state file, and its lock. */
export declare const STATE_FILE = "state.json";
export declare const LOCK_FILE = "state.json.lock";
/** The prefixes of a session folder being created (staging) and of one renamed away to be removed. */
export declare const CREATING_PREFIX = ".creating-";
export declare const REMOVING_PREFIX = ".removing-";
/** The attach locks' folder (see lockClaudeAgent). */
export declare const LOCKS_DIR = ".locks";
/** The synchronous StoreMaintenance of a SyncStore (see settled-store.ts). */
export interface SyncMaintenance {
    notOurs(id: string): string | null;
    assertRemovable(): void;
    foreignEntries(): {
        id: string;
        reason: string;
    }[];
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
    sweepIndexes(isOld: (path: string) => boolean, states: readonly SessionState[] | undefined, options: SweepOptions): string[];
}
/**
 * The file store's maintenance (SessionStore.maintenance): which entries are not its own, the refusal to remove
 * through a linked root, the entries named like its leftovers that hold something else, and the sweep of leftovers.
 */
export declare class FileHygiene implements SyncMaintenance {
    #private;
    constructor(store: SweptStore);
    /**
     * Why the entry `id` is not a session folder agent-session made (so nothing removes it), or null when it is
     * one (or is absent). Ours: a real folder holding a state.json that shows it is ours (a valid session, or a damaged
     * one still naming this id: see stateNotOurs) and only the files we write beside it (its lock, temp files and lock
     * drafts by their exact names).
     */
    notOurs(id: string): string | null;
    /**
     * Refuses removals from a store whose root (or the `.claude` folder holding it) is a symbolic link: a link
     * such as `.claude/session -> ../..` would turn a cleanup into one of the folder it points to.
     * @throws SessionError E_REFUSED naming the link
     */
    assertRemovable(): void;
    /**
     * Entries of the store root that are not ours and that `list` does not report, with why (`sweep` leaves them alone
     * and cleanup lists them): folders named like our leftovers (staging, `.removing-`) holding something we do not
     * make; our pointer and lock folders (`.agents`, `.claude-agents`, `.locks`) replaced by a link or a file (nothing
     * is written through them, so Claude events go unhandled: the user must hear of it); loose files and links.
     */
    foreignEntries(): {
        id: string;
        reason: string;
    }[];
    sweep(olderThanMs: number, now: Date, listed?: readonly ListedSession[], options?: SweepOptions): string[];
}
/** The store root, or its `.claude` parent, when it is a symbolic link: named with its target; else null. */
export declare function linkedRoot(location: string): string | null;
/** What is at `path`, not following a link. */
export declare function entryKind(path: string): 'absent' | 'dir' | 'link' | 'other';
/**
 * Why the folder is not a session folder we made, or null when it is (or is gone): it must hold a state.json that shows
 * it is ours (see stateNotOurs) and nothing else but the files we write beside it. `checkState` false: its state.json
 * was just read as a valid session of this id, which shows it already.
 */
export declare function folderNotOurs(dir: string, checkState?: boolean): string | null;
export declare function notOursError(id: string, reason: string): SessionError;
/** A link's target, for messages. @throws SessionError E_IO */
export declare function readLink(path: string): string;
