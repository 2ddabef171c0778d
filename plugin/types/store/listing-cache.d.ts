import type { SessionState } from '../core/state';
import { type StatsFacts } from '../core/views/stats-facts';
/**
 * What a listing needs to choose sessions without reading them: a session's project, agent, phase and last activity,
 * with the identity of the state.json it was read from (inode, size, modification time). Every write of a session
 * renames a new file into place (a new inode), so an unchanged identity means an unchanged state: the cache is only
 * ever believed for a file whose identity it names. It is derived data: lost, damaged or stale, it costs a full read,
 * never a wrong answer.
 */
export interface Summary {
    readonly key: string;
    readonly project: string | null;
    readonly agent_name: string;
    readonly phase: string;
    readonly last_updated: string;
    /**
     * What `stats` counts of it (core/views/stats.ts), as the cache holds it (factsRow): read by summaryFacts only when
     * `stats` asks, so a listing of 100,000 sessions does not build 100,000 objects it never uses.
     */
    readonly facts: readonly unknown[];
}
/** The cache's file in the store root (hidden: not a session). */
export declare const LISTING_CACHE = ".listing-cache.json";
/** The identity of a state.json (see Summary), or null when there is no such file. */
export declare function fileKey(path: string): string | null;
/** A session's summary, for the file `key` names. */
export declare function summaryOf(state: SessionState, key: string): Summary;
/** The stats facts of a summary, or null when its cached row is not as written here (then the session is read). */
export declare function summaryFacts(summary: Summary): StatsFacts | null;
/** The summaries the cache at `path` holds; none when it is absent or not as written here. */
export declare function readListingCache(path: string): Map<string, Summary>;
/** Writes the cache whole (an atomic rename); a store it cannot be written to (read-only) lists without it. */
export declare function writeListingCache(path: string, rows: ReadonlyMap<string, Summary>): void;
