/** Where the bins' loader (scripts/loader/loader-body.cjs) leaves its callback for a call that used a database. */
const DATABASE_USED = Symbol.for('agent-session.database-used');

/**
 * Tells the bin's loader that this call used a database, so that the V8 code cache it makes for the next calls holds
 * that path too (a `-database` cache). Why: a cache made with the PostgreSQL calls costs every file-store hook call
 * ~1.3 M instructions more to deserialize (docs/performance.md), so a file store's calls get one without them.
 * Outside the built bins (ts-node, jest, the library), or when the loader already read that cache, there is no
 * callback and nothing happens.
 */
export function noteDatabaseUse(): void {
  const callback = (globalThis as Record<symbol, unknown>)[DATABASE_USED];
  if (typeof callback === 'function') callback();
}

/** Where the loader leaves its callback that drops the cache it would make as the call exits. */
const NO_CODE_CACHE = Symbol.for('agent-session.no-code-cache');

/**
 * Tells the bin's loader to make no code cache as this call exits: the call removed the cache folder (`init
 * --uninstall --purge`), which the cache would bring back. Outside the built bins, nothing happens.
 */
export function noteNoCodeCache(): void {
  const callback = (globalThis as Record<symbol, unknown>)[NO_CODE_CACHE];
  if (typeof callback === 'function') callback();
}
