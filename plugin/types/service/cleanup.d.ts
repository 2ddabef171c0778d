import type { ProjectView } from './project-view';
export interface CleanupResult {
    /** Valid sessions removed (or that would be, with dryRun). */
    readonly removed: readonly string[];
    /** Corrupt sessions removed, judged by file time. */
    readonly corruptRemoved: readonly string[];
    /** Temp files and half-created folders of killed writers removed (or that would be, with dryRun): how many. */
    readonly leftovers: number;
    /** The same leftovers, each by its path. */
    readonly leftoverPaths: readonly string[];
    /**
     * Sessions finalized `abandoned` (or that would be, with dryRun): left `initializing` by an older version,
     * linked to a Claude agent that stopped or idle past the resume timeout (see `orphanedStartReason`).
     */
    readonly abandoned: readonly string[];
    /** Stale sessions that could not be removed this time (busy or unwritable); the others were. */
    readonly failed: readonly {
        readonly id: string;
        readonly error: string;
    }[];
    /**
     * Those of `removed` taken as stale because their `last_updated` is ahead of the store's clock by more than the
     * horizon (`hours`, at least the clock-skew bound): not idle, their clock was ahead (see cleanup).
     */
    readonly clockAhead: readonly string[];
    /** Entries agent-session did not make (no state.json, a link, unknown files): never removed, whatever their age. */
    readonly notOurs: readonly {
        readonly id: string;
        readonly reason: string;
    }[];
    /**
     * Finished sessions removed (or that would be, with dryRun) because the project held more than `maxSessions`, oldest
     * first (core/retention.ts overCap); not in `removed`.
     */
    readonly capped: readonly string[];
}
/**
 * Removes sessions idle longer than `hours` (any phase), sessions whose `last_updated` is ahead of the clock by more
 * than that horizon (their idle time is unknown: left alone they would never expire; one a few minutes ahead, after a
 * clock stepped back, is kept and expires as any other once the clock passes it), corrupt sessions whose files are
 * older than `hours`, and leftovers of killed writers. Each removal re-checks the session under its lock, so a
 * session touched while cleanup runs is kept. Only what agent-session made is removed: other entries are reported
 * in `notOurs` and left alone.
 * This project's sessions, or with `allProjects` every session of the store (unassigned ones too). A corrupt entry
 * is judged by the project it names (a newer version's state, one bad field: store.ts inScope), so another project's
 * is left alone, with that project's own horizon; one that names none, and leftovers, in either case.
 * @throws SessionError E_USAGE for options that are not `{hours: a number ≥ 0, dryRun?: boolean}`; E_REFUSED when
 *   the store root is a symbolic link (with dryRun too: it says it would refuse)
 */
export declare function cleanup(view: ProjectView, options: {
    hours: number;
    dryRun?: boolean;
    allProjects?: boolean;
    /** Called after each chunk of removals (or, with dryRun, of checks): how many of how many stale sessions. */
    onProgress?: (done: number, total: number) => void;
    /**
     * Claude Code's unattended retry is on (`CLAUDE_CODE_RETRY_WATCHDOG`): a session whose Claude agent still runs is
     * not abandoned for being idle (see orphanedStartReason); the horizon (`hours`) applies as to any session.
     */
    retryWatchdog?: boolean;
    /**
     * The most sessions this project keeps (`max_sessions`): above it, its oldest finished ones are removed (never
     * one waiting for a decision or a person). Always this project's, even with allProjects. Absent or null: no cap.
     */
    maxSessions?: number | null;
}): Promise<CleanupResult>;
/**
 * Deletes a session.
 * @throws SessionError E_NOT_FOUND; E_REFUSED when the entry is not agent-session's or the store root is a link
 */
export declare function deleteSession(view: ProjectView, id: string): Promise<void>;
