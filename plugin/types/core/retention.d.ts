import type { SessionState } from './state';
/**
 * Parses `cleanup --older-than DAYS` (seed 000): a decimal number of days, 0 or more, as the hours cleanup works in.
 * @throws SessionError E_USAGE naming the flag, the expectation and the value
 */
export declare function parseDays(raw: unknown, flag?: string): number;
/**
 * True when the cap may remove a session: it is finished (completed, failed, abandoned) and holds no request waiting
 * for the person. A session waiting for a decision, parked in approval or still working is never capped.
 */
export declare function cappable(state: SessionState): boolean;
/**
 * The sessions a cap of `max` removes from a project's `sessions` (every valid one it keeps): as many as it holds
 * above `max`, taken among the cappable ones, oldest last activity first (then by id). Fewer when too few are
 * finished: the cap never reaches a session that is not.
 */
export declare function overCap(sessions: readonly {
    readonly id: string;
    readonly state: SessionState;
}[], max: number): string[];
