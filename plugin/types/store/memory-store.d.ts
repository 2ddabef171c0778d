import { SettledStore } from './settled-store';
/** What a memory store may be given: a name for messages, the clock that dates its writes, its home project. */
export interface MemoryStoreOptions {
    readonly location?: string;
    readonly now?: () => Date;
    /**
     * As the file store's (FileStoreOptions.home): a session stored without a project belongs to it, and a session of it
     * is kept without one. Null: a session without a project is unassigned. Default: DEFAULT_PROJECT.
     */
    readonly home?: string | null;
}
/**
 * Sessions in a Map, for tests and embedding (lowdb's `Memory` adapter idea): the same contract as the file
 * store (tests/contract/), within one process. States are kept as JSON text and parsed with the strict schema
 * on every read, like state.json: a caller never holds a reference into the store, and a state the file store
 * would read back as corrupt reads back as corrupt here too. Each call is one synchronous step (SyncMemoryStore,
 * see SettledStore); `lockClaudeAgent` serializes its callers per key, as locks do across processes.
 */
export declare class MemoryStore extends SettledStore {
    #private;
    constructor(options?: MemoryStoreOptions);
    /**
     * Test hook: stores `text` as the session's raw content, as if state.json held it (a torn write, an edit by
     * hand, an old version), so corrupt entries can be planted. Overwrites; checks only the id.
     */
    putRaw(id: string, text: string, modifiedAt?: Date): void;
}
