import type { SessionState } from '../core/state';
import { type TempName } from '../platform/atomic-file';
import { type LockOptions } from '../platform/lock';
/**
 * What a pointer file says, as its key policy reads it: a session named plainly (with the stamp it had, when the policy
 * records one), an announcement (`pending`: a write of that session was under way, with the session the pointer named
 * before when the policy records it), or "no session" (`session` null).
 */
export type Pointer = Plain | {
    readonly session: string;
    readonly pending: true;
    readonly previous?: string;
} | {
    readonly session: null;
    readonly pending: false;
};
/** A pointer naming a session plainly. */
export interface Plain {
    readonly session: string;
    readonly pending: false;
    readonly stamp?: string;
}
/** A pointer, no pointer file, or a file not to go by (torn, foreign, not a plain file). */
export type PointerRead = Pointer | 'absent' | 'untrusted';
/** A session as a pointer records it. */
export type Target = Pick<SessionState, 'agent_id' | 'last_updated'>;
/** What a pointer index needs of its store. */
export interface PointedStore {
    /** The store's strict read of one session (E_CORRUPT for a damaged one). */
    read(id: string): SessionState | null;
    /**
     * Every valid session, from one listing of the store; the store also completes (rebuilds and marks) the indexes that
     * have no marker yet, this one included, from that listing.
     */
    scan(): SessionState[];
}
/**
 * What makes one pointer index differ from another: which key a pointer stands for and how it is written. Everything
 * else (announce, flush, write, settle; trust only a target that checks out; the marker) is PointerIndex's.
 */
export interface KeyPolicy<Key> {
    /** The index's folder inside the store root (hidden: listings and sweeps skip it like any dot-entry). */
    readonly folder: string;
    /** How its temp files are named: part of the on-disk format, since the sweeps match them by name. */
    readonly temp?: TempName;
    /** The pointer's file name in the folder, or null for a key that gets none (too long): its lookups scan. */
    fileName(key: Key): string | null;
    /** Reads a pointer file's text; anything not written for `key` (torn, edited, another key's) is untrusted. */
    parse(text: string, key: Key): PointerRead;
    /** The text of a plain pointer of `key` to `target`, or recording that it has no session (null). */
    plain(key: Key, target: Target | null): string;
    /** The text of an announcement of a write of `session`, carrying the session that stands if it never lands. */
    announcement(key: Key, session: string, previous?: string): string;
    /** Whether the session a plain pointer of `key` names is still what the pointer says (trusted). */
    checks(key: Key, pointer: Plain, state: SessionState): boolean;
    /** Whether a session named by an announcement of `key` shows that its write landed. */
    proves(key: Key, state: SessionState): boolean;
    /** Per key, the session its pointer names, from every session of the store (completing the index). */
    pointed(states: readonly SessionState[]): Iterable<readonly [Key, SessionState]>;
}
/** A pointer as it stood before a write: completed first when needed, so that `absent` means "no session". */
export interface Before {
    readonly file: string;
    readonly pointer: PointerRead;
    /** The key's first pointer in a complete index: its announcement must be flushed before the session is written. */
    readonly first: boolean;
}
/**
 * What the lookup of a key found: the session, none (proven), that only a scan can tell, or ('list') that the index
 * has no pointer and no marker (a store an older version made): a listing of the store answers and completes it.
 */
export type Lookup = SessionState | null | 'scan' | 'list';
/**
 * One crash-consistent pointer index: per key (a key policy: agent name per project, Claude agent id), a small file
 * in `<root>/<folder>/` naming a session, so a lookup reads a few small files instead of every session. The folders
 * stay the source of truth; the protocol (docs/storage.md, "The pointer indexes"):
 *
 * 1. announce: before a session is written, the pointer it changes is replaced by an announcement, which says a write
 *    was under way (`announce`);
 * 2. flush: an announcement whose loss would mislead (a key's first pointer, a new link) is flushed, file and folder,
 *    before the session is written;
 * 3. the session is written (by the store);
 * 4. settle: the pointer names its target plainly again, not flushed (`settle`): a lost settle leaves the announcement,
 *    which the next lookup checks.
 *
 * `writing` runs the four steps for an index whose writers of one key take the pointer's lock; an index whose writers
 * already hold other locks (the session's) calls `before`, `announce` and `settle` around the store's write itself.
 *
 * A pointer is trusted only when its target checks out (`lookup`): the session exists, is valid and is what the
 * pointer says (the policy's `checks`), or, for an announcement, shows its write landed (`proves`); an announcement
 * that did not land counts as the pointer it replaced. The index is complete when its marker (index-marker.ts) says
 * so: every key with a session has a pointer, so a key without one has none. A store without the marker is listed
 * once and completed (`complete`). A link or a file in the folder's place is never read or written through.
 */
export declare class PointerIndex<Key> {
    #private;
    /** The index's folder. */
    readonly dir: string;
    /** `lock`: the timings of the pointer locks (`lock`, `writing`), for an index whose writers take them. */
    constructor(root: string, policy: KeyPolicy<Key>, store: PointedStore, lock?: LockOptions);
    /** The pointer file of `key`, or null when it gets none. */
    file(key: Key): string | null;
    /** False when a link or a file is in the folder's place: nothing is read or written through it, lookups scan. */
    usable(): boolean;
    /** Read every time (a small file): a long-lived process must see the folder removed meanwhile ("always safe"). */
    isComplete(): boolean;
    /** The names in the folder; none when there is none (or something else is in its place). */
    fileNames(): string[];
    /** What the pointer file says: never through a link, never blocking on a FIFO; anything but a plain file is none. */
    read(file: string, key: Key): PointerRead;
    /** A session, or null when it is absent or not valid (a pointer to it is then simply not trusted). */
    readQuiet(id: string): SessionState | null;
    /**
     * What the index says about `key`: the session its pointer names when that checks out, null when the pointer says
     * "no session" or the complete index has none, 'list' when there is no pointer and no marker, else 'scan' (no
     * pointer to trust, a key without a file, an unusable folder).
     */
    lookup(key: Key): Lookup;
    /**
     * The session a pointer names when it checks out, null for "no session", undefined when only a scan can tell. An
     * announcement whose session shows no sign of the write counts as what it replaced: the pointer before it, else (in a
     * complete index) none.
     */
    target(key: Key, pointer: Pointer): SessionState | null | undefined;
    /** The session an announcement of `key` names when its write landed, false when it did not, undefined: cannot tell. */
    landed(key: Key, session: string): SessionState | false | undefined;
    /**
     * The pointer of `key` before a write, or null when it gets none (a key without a file, an unusable folder). A
     * missing pointer in an index not known complete is first completed by a listing of the store, so that afterwards a
     * missing pointer means "no session" (the key's first).
     */
    before(key: Key): Before | null;
    /**
     * Steps 1 and 2: writes each pointer text, then, when `flush`, flushes them and the files of `flushOnly` (written
     * before without fsync) and the folder, before the session is written. Creates the folder, with the store root when
     * `withRoot`.
     * @returns false when a link or a file took the folder's place: nothing was written (lookups scan)
     * @throws SessionError E_IO: the session must not be written then either
     */
    announce(writes: readonly (readonly [file: string, text: string])[], flush: boolean, flushOnly?: string[]): boolean;
    /** The text of an announcement of `key` (see KeyPolicy.announcement). */
    announcement(key: Key, session: string, previous?: string): string;
    /**
     * Step 4: the pointer of `key` names `target` (or records "no session": null) plainly, not flushed: a pointer lost or
     * torn by a crash is checked on read and rebuilt from the folders.
     */
    settle(file: string, key: Key, target: Target | null): void;
    /**
     * The whole protocol for one key whose writers hold the pointer's lock (`lock`): announces the write of `session`
     * (flushed when it is the key's first pointer in a complete index), runs `write`, then settles the pointer to what
     * `settleTo` says (null: the announcement stays, the next lookup scans). A write that fails puts the pointer back as
     * it was. The caller has checked that the folder is usable.
     */
    writing<T>(file: string, key: Key, session: string, write: () => T, settleTo: (before: Before) => Target | null): T;
    /** Removes a pointer file (a key found to have no session, or a pointer none of whose sessions exists). */
    remove(file: string): void;
    /**
     * Takes the lock of a pointer (`<pointer>.lock`), for an index whose writers of one key hold no other common lock;
     * returns its release. Creates the folder, with the store root when `withRoot`.
     * @throws SessionError E_BUSY, E_IO, E_REFUSED (the folder is a link), E_NOT_FOUND (no store, without `withRoot`)
     */
    lock(file: string, withRoot: boolean): () => void;
    /**
     * Completes the index from a listing of the store: a pointer for every key that has none, to the session the policy
     * says (created exclusively: a writer may hold it meanwhile; an existing one, even wrong, is checked on read). An
     * index without its marker (a store an older version made, once) is then marked, after each of those pointers and
     * the folder are flushed. Only inside an existing store.
     * @param exists whether a listed session is still there (cleanup lists before it removes)
     * @throws SessionError E_IO, E_NOT_FOUND (no store), E_REFUSED (the folder is a link or a file)
     */
    complete(states: readonly SessionState[], exists: (id: string) => boolean): void;
}
/** What a plain pointer recorded of its session. */
export declare function pointerTarget(pointer: Pointer & {
    readonly session: string;
}): Target;
/** Removes a file; already gone is fine. */
export declare function removeFile(file: string): boolean;
