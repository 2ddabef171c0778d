/**
 * Tells the bin's loader that this call used a database, so that the V8 code cache it makes for the next calls holds
 * that path too (a `-database` cache). Why: a cache made with the PostgreSQL calls costs every file-store hook call
 * ~1.3 M instructions more to deserialize (docs/performance.md), so a file store's calls get one without them.
 * Outside the built bins (ts-node, jest, the library), or when the loader already read that cache, there is no
 * callback and nothing happens.
 */
export declare function noteDatabaseUse(): void;
/**
 * Tells the bin's loader to make no code cache as this call exits: the call removed the cache folder (`init
 * --uninstall --purge`), which the cache would bring back. Outside the built bins, nothing happens.
 */
export declare function noteNoCodeCache(): void;
