import { type TempName } from '../platform/atomic-file';
/**
 * The file that makes an index folder (`.agents/`, `.claude-agents/`) complete: every session the folder indexes has its
 * pointer there, so a pointer's absence proves there is no such session and a lookup of a new key reads no session.
 * It lives inside the folder it vouches for: removing the folder (always allowed) removes it too, and the next use
 * rebuilds the folder from one listing of the store. Its name is neither a pointer's nor a lock's.
 */
export declare const MARKER_FILE = "complete.json";
/** Its temp file while it is written (writeFileAtomic's hidden name), for the sweeps. */
export declare const MARKER_TEMP: RegExp;
/**
 * True when `dir` is a real folder (not a link) holding the marker with its exact content. Anything else (no marker,
 * a torn or foreign one, a link in the folder's place) is "not known complete": lookups then list the store.
 * @throws SessionError E_IO when the marker cannot be read for another reason than its absence
 */
export declare function isMarkedComplete(dir: string): boolean;
/**
 * Marks `dir` complete, durably: the folder first (the pointers the caller wrote and flushed are then named on disk),
 * then the marker. Only after every pointer the marker vouches for is on disk, so a crash of the machine never leaves a
 * marker without them.
 * @throws SessionError E_IO
 */
export declare function markComplete(dir: string): void;
/** A pointer an index should hold: its file, the session it names, and its text. */
export interface IndexEntry {
    readonly file: string;
    readonly session: string;
    readonly text: string;
}
/**
 * Completes an index folder from a listing: creates each missing pointer (exclusively: a writer may hold its lock
 * meanwhile; an existing one, even wrong, is checked on read) whose session still `exists`. A folder not `marked`
 * before (a store an older version made, once) is then marked, after every pointer the marker vouches for is flushed
 * (older versions wrote them without fsync; cheap once the kernel wrote them back).
 * @throws SessionError E_IO
 */
export declare function completeIndex(dir: string, marked: boolean, entries: Iterable<IndexEntry>, exists: (id: string) => boolean, temp?: TempName): void;
/**
 * What is at `path`: a real folder, nothing, or something else (a link, a file: never read or written through).
 * @throws SessionError E_IO when it cannot be inspected
 */
export declare function pathKind(path: string): 'folder' | 'absent' | 'other';
