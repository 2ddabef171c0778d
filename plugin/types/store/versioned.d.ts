import type { SessionState } from '../core/state';
/** A stored session with the version its next compare-and-swap names. */
export interface VersionedRow {
    /** The row's version, as text (a bigint). */
    readonly version: string;
    /** The state, or null when what is stored is not a valid session (`problem` says why). */
    readonly state: SessionState | null;
    /** The E_CORRUPT message of a state that does not decode, else null. */
    readonly problem: string | null;
    /** When the row was last written (the server's clock). */
    readonly writtenAt: Date;
}
/**
 * The compare-and-swap steps of a shared store (the PostgreSQL store, and the relay's client which sends them to it):
 * `update` and a judged `remove` are loops over them, run where the caller's callback is (a callback cannot travel).
 */
export interface VersionedRows {
    readonly location: string;
    /**
     * The row, or null when there is no such session.
     * @param lock inside `exclusive`: hold the row until its transaction ends (other writers wait)
     */
    readVersioned(id: string, lock?: boolean): Promise<VersionedRow | null>;
    /** Writes `state` when the row still has `version`; false when another writer got in first. */
    writeVersioned(id: string, version: string, state: SessionState): Promise<boolean>;
    /** Removes the row when it still has `version`; false when it changed or went. */
    removeVersioned(id: string, version: string): Promise<boolean>;
    /**
     * Runs `work` in one transaction, where `readVersioned(id, true)` holds the row until it ends: the way out for a
     * writer that keeps losing the race (a store without transactions leaves it out).
     */
    exclusive?<T>(id: string, work: () => Promise<T>): Promise<T>;
}
/** Compare-and-swap attempts of one update (or judged removal) before it gives up with E_BUSY. */
export declare const CAS_ATTEMPTS = 40;
/**
 * Lost races after which an update holds the row instead (`exclusive`): optimistic writers stay cheap when they rarely
 * meet, and one that keeps losing to many (8 processes on one session through the relay lost 40 in a row) still gets
 * through, in the order the database queues its row locks.
 */
export declare const LOCK_AFTER = 4;
/**
 * SessionStore.update over compare-and-swap: reads the row, applies `change`, writes it back naming the version read;
 * a writer that lost the race reads again and re-applies `change` to what the other wrote (CAS_ATTEMPTS at most).
 * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, or whatever `change` throws (nothing is written then)
 */
export declare function updateByVersion(rows: VersionedRows, id: string, change: (state: SessionState) => SessionState): Promise<SessionState>;
/**
 * SessionStore.remove with `shouldRemove` over compare-and-swap: the removal names the version that was judged, so a
 * write in between makes it judge again (a session touched while cleanup runs is kept).
 * @returns true when removed, false when absent or judged worth keeping
 */
export declare function removeByVersion(rows: VersionedRows, id: string, shouldRemove: (state: SessionState | null, modifiedAt: Date) => boolean): Promise<boolean>;
