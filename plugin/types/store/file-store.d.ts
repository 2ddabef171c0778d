import type { SessionState } from '../core/state';
import { type StoreMaintenance } from '../service/store';
import { SettledStore } from './settled-store';
import { type LockOptions } from '../platform/lock';
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
export declare class FileStore extends SettledStore {
    #private;
    /** Always there on a file store (see SettledStore.maintenance). */
    readonly maintenance: StoreMaintenance;
    constructor(root: string, options?: FileStoreOptions);
    /** The project whose sessions' files name none (see FileStoreOptions.home). */
    readonly home: string | null;
    /** @throws SessionError E_REFUSED when the store root (or its `.claude` parent) is a symbolic link */
    assertWritable(): void;
    /**
     * The names of the entries that may be sessions, without reading one (see SyncFileStore.ids): synchronous, as
     * shell completion answers from one listing and nothing else.
     * @throws SessionError E_IO when the store root cannot be listed
     */
    ids(): string[];
}
/**
 * The bytes written for a state: indented JSON with a final newline.
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export declare function serialize(state: SessionState): string;
