import type { Limits } from '../limits';
import type { SessionState } from '../state';
import { type StatsTally } from './stats-facts';
export { emptySums, mergeSums, rawMedian, statsFactsOf, tallyFacts, type StatsFacts, type StatsSums, type StatsTally, type TallyGroup, } from './stats-facts';
/** The figures of one agent, or of all agents together. Rates are 0..1, or null when undefined (0 / 0). */
export interface StatsGroup {
    readonly sessions: number;
    /**
     * Sessions that can still make progress: not final, and either resumable now (every resume rule passes), or in
     * a working phase (initializing, executing, validating) active within the resume timeout and not left by a
     * Claude agent that stopped. A session idle past the timeout, over the error limit, or whose agent stopped
     * outside a resumable phase is open but not active (`sessions - completed - failed - abandoned - active`).
     */
    readonly active: number;
    /** Would be resumed now (every resume rule passes). */
    readonly resumable_now: number;
    readonly completed: number;
    readonly failed: number;
    readonly abandoned: number;
    /** completed / (completed + failed + abandoned). */
    readonly success_rate: number | null;
    /** Resumes recorded in the sessions' (kept) histories. */
    readonly resumes: number;
    /** Sessions resumed at least once / sessions. */
    readonly resume_rate: number | null;
    /** Over finalized sessions (`duration_seconds`). */
    readonly mean_duration_seconds: number | null;
    readonly median_duration_seconds: number | null;
    /** How many sessions have each error_count, keyed by the count. */
    readonly by_error_count: Readonly<Record<string, number>>;
    /** Decisions recorded by `approve` and `reject` (every one of each session, not only its last). */
    readonly approvals: number;
    readonly rejections: number;
    /** Median seconds from entering approval to the decision, over every decision; null without decisions. */
    readonly median_decision_seconds: number | null;
    /**
     * Host failures that killed the sessions' agents (API errors, usage limits: Claude Code's StopFailure, the seed's
     * `interrupted`), counted apart from errors; `carried_on` of them were picked up by a later delegation, and
     * `interrupted_now` sessions wait for one.
     */
    readonly interruptions: number;
    readonly carried_on: number;
    readonly interrupted_now: number;
    /**
     * Sub-agent permission requests parked as inbox items (issue 33), and how many of them the user granted (`approve`),
     * refused (`reject`), and whose grant a resumed agent used (`spent`).
     */
    readonly permission_requests: number;
    readonly permissions_granted: number;
    readonly permissions_refused: number;
    readonly permissions_spent: number;
    /**
     * Issue 34: how many times the sessions' stopped agents were continued with their context (SendMessage), and how
     * many sessions' last choice was a primed fresh agent instead (over the size limit, transcript gone…).
     */
    readonly continued: number;
    readonly primed: number;
    /** The most recent `last_updated`, or null without sessions. */
    readonly last_activity: string | null;
}
/** What `agent-session stats --json` prints. */
export interface Stats {
    readonly generated_at: string;
    /** Only sessions created at or after this instant are counted; null: all. */
    readonly since: string | null;
    readonly overall: StatsGroup;
    /** One group per agent name, in name order. */
    readonly agents: Readonly<Record<string, StatsGroup>>;
}
/**
 * Parses `--since`: a duration back from `now` (`90s`, `30m`, `24h`, `7d`, `2w`, fractions allowed) or an
 * ISO 8601 time. A time without an offset is UTC, like a date alone (which JavaScript reads as UTC midnight):
 * `2026-11-01` and `2026-11-01T00:00:00` are one instant on every machine, whatever its time zone.
 * @throws SessionError E_USAGE naming the value and both accepted forms
 */
export declare function parseSince(text: string, now: Date, flag?: string): Date;
/** What `stats` shows besides the overall and per-agent figures: each project's overall ones (null: of none). */
export interface ProjectStats {
    readonly project: string | null;
    readonly overall: StatsGroup;
}
/**
 * The figures of a tally, with `active` and `resumable_now` judged now on `live`: the states of the sessions those can
 * count (not final, and active within the resume timeout or interrupted; more do no harm). Projects in name order,
 * those of none last.
 */
export declare function statsOfTally(tally: StatsTally, live: readonly SessionState[], options: {
    now: Date;
    limits: Limits;
    since?: Date;
}): {
    stats: Stats;
    projects: ProjectStats[];
};
/**
 * Computes per-agent and overall figures over `states` (pure: the clock and limits are passed in).
 * `since` keeps sessions created at or after it.
 */
export declare function computeStats(states: readonly SessionState[], options: {
    now: Date;
    limits: Limits;
    since?: Date;
}): Stats;
