import { type Continuation, type SessionState } from './state';
/** What a choice records: continue or prime, why, the agent, and the transcript looked at. */
export interface ContinuationChoiceFacts {
    readonly choice: Continuation['choice'];
    readonly reason: string;
    readonly claude_agent_id: string;
    readonly transcript_path?: string;
    readonly transcript_bytes?: number;
}
/**
 * The session with its latest continuation choice: `continuing` while a continuation is asked and its agent has not
 * started again; the count and the last return are kept. Not activity: `last_updated` stays (the resume timeout runs
 * from the agent's work, not from our looking).
 */
export declare function withContinuationChoice(state: SessionState, facts: ContinuationChoiceFacts, now: Date): SessionState;
/**
 * True when a start of Claude agent `claudeAgentId` is that agent coming back with its context: the session is linked
 * to that very agent, which had stopped, is not final, and a continuation of that agent was asked (`continuing`: our
 * SendMessage hook or the offer chose it). A start nobody asked for is the same run's own start arriving after its
 * stop or failure (a background agent's hooks run at once, in any order: tests/stress/claude-race.stress.ts), which
 * must not run the session again.
 */
export declare function isContinuationOf(state: SessionState, claudeAgentId: string): boolean;
/**
 * The session as its stopped Claude agent's return leaves it: the link runs again (no `stopped_at`: the stop policy
 * and the interruption rules apply to its next stop as to any), a `continue` history entry in its phase, an
 * interruption it waited after carried on, and the continuation record's return (`continuing` over, one more).
 * @throws SessionError E_ILLEGAL_TRANSITION when it is not a continuation of that agent (isContinuationOf)
 */
export declare function withContinued(state: SessionState, claudeAgentId: string, now: Date): SessionState;
/** How many times the session's agents came back with their context (the record's count). */
export declare function continuationCount(state: SessionState): number;
