import { type Phase } from '../phase-names';
import type { SessionState } from '../state';
/**
 * What `stats` needs of one session, without the rest of it (a store keeps these beside the state: the file store's
 * listing cache, PostgreSQL's `session_facts` table, so a million sessions are counted without being read). Pure: the
 * figures that depend on the clock (`active`, `resumable_now`) are judged on the states of the live sessions.
 */
export interface StatsFacts {
    readonly agent_name: string;
    readonly project: string | null;
    readonly phase: Phase;
    readonly created_at: string;
    readonly last_updated: string;
    readonly error_count: number;
    readonly duration_seconds: number | null;
    readonly resumes: number;
    readonly approvals: number;
    readonly rejections: number;
    /** Seconds from entering approval to each decision. */
    readonly decision_waits: readonly number[];
    readonly interruptions: number;
    readonly carried_on: number;
    readonly interrupted_now: boolean;
    readonly permission_requests: number;
    readonly permissions_granted: number;
    readonly permissions_refused: number;
    readonly permissions_spent: number;
    readonly continued: number;
    readonly primed: boolean;
}
/** The facts of one session (see StatsFacts). */
export declare function statsFactsOf(state: SessionState): StatsFacts;
/** The figures of a group that add up (a store may count them per part and add the parts: mergeSums). */
export interface StatsSums {
    sessions: number;
    completed: number;
    failed: number;
    abandoned: number;
    resumes: number;
    resumed: number;
    duration_total: number;
    durations: number;
    by_error_count: Record<string, number>;
    approvals: number;
    rejections: number;
    interruptions: number;
    carried_on: number;
    interrupted_now: number;
    permission_requests: number;
    permissions_granted: number;
    permissions_refused: number;
    permissions_spent: number;
    continued: number;
    primed: number;
    /** The latest `last_updated`, ms since the epoch; null without sessions. */
    last_activity: number | null;
}
/** A group's sums and its two medians (which do not add up, so a store computes them per group), unrounded. */
export interface TallyGroup {
    readonly sums: StatsSums;
    readonly median_duration: number | null;
    readonly median_decision: number | null;
}
/**
 * The figures a store counts for `stats` (SessionStore.stats): overall, per agent name and per project (null: of
 * none), every one but those the clock decides.
 */
export interface StatsTally {
    readonly overall: TallyGroup;
    readonly agents: Readonly<Record<string, TallyGroup>>;
    readonly projects: readonly {
        readonly project: string | null;
        readonly group: TallyGroup;
    }[];
}
/** Sums of no session. */
export declare function emptySums(): StatsSums;
/** Adds `part` into `into` (both sums of disjoint sessions). */
export declare function mergeSums(into: StatsSums, part: StatsSums): void;
/**
 * The tally of sessions' facts, those created at or after `since` when given (what a store without SQL answers
 * SessionStore.stats with). Projects and agents without a session kept are not in it.
 */
export declare function tallyFacts(facts: readonly StatsFacts[], since?: Date): StatsTally;
/**
 * The median of `values`, unrounded; null for none. Of an even count, the lower middle value plus half the gap to the
 * upper one: PostgreSQL's `percentile_cont(0.5)` computes exactly that (the PostgreSQL store's stats), and `(a + b) / 2`
 * differs from it in the last bit for some pairs, which rounding to milliseconds can show (1 ms and 18 ms: 0.0095
 * against 0.009499999999999998). Matching it here costs nothing; a second sort in SQL cost +55 % at 1M rows.
 */
export declare function rawMedian(values: readonly number[]): number | null;
