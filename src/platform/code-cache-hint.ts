/** The global the bins' loader reads as the process exits (scripts/loader/loader-body.cjs). */
const DATABASE_USED = Symbol.for('agent-session.database-used');

/**
 * Tells the bin's loader that this call used a database, so the V8 code cache it has made for the next calls holds
 * that path too (a `-database` cache). Why: a cache made with the PostgreSQL calls costs every file-store hook call
 * ~1.3 M instructions more to deserialize (docs/performance.md), so a file store's calls get one without them. Outside
 * the built bins (ts-node, jest, the library) nobody reads it.
 */
export function noteDatabaseUse(): void {
  (globalThis as Record<symbol, unknown>)[DATABASE_USED] = true;
}
