import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';
/**
 * SubagentStart: the agent attached to its session (relinked, resumed, new, or continued: a stopped agent back with
 * its context), told which one and how to record.
 */
export declare function subagentStart(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<ContextAnswer<'SubagentStart'>>>;
/** SubagentStop: the stop policy applied to the agent's session (kept open, completed, failed or abandoned). */
export declare function subagentStop(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>>;
/**
 * StopFailure: an agent's turn ended on an API error (after the host's own retries: a rate limit, an overload, a
 * server error, a refused request). For a sub-agent it is the last event (no SubagentStop follows): its session stops
 * its link and waits, interrupted, for the next delegation. The main agent's own failure (no agent_id) is not ours.
 * Claude Code ignores the output of this event, so nothing is printed.
 */
export declare function stopFailure(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>>;
/**
 * PostToolUse of the delegation tool: a background agent attached as it is launched; a finished one left alone. Both
 * record the delegation's task on their session; when that session was made beside a parked one of another task
 * (core/task.ts), the main agent is told both.
 */
export declare function postToolUse(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<ContextAnswer<'PostToolUse'>>>;
/** A sub-agent that started and has not stopped: what its interruption needs. */
export interface RunningAgent {
    readonly agent_id: string;
    readonly agent_type: string;
    readonly session_id?: string;
}
/**
 * What a payload (as it arrives) says of a sub-agent's run: it started (SubagentStart, with its agent type), it ended
 * (SubagentStop, StopFailure: its id), or nothing. For a host that fires no stop when the app stops its run (the Agent
 * SDK's `interrupted()`, src/hooks/hosts/agent-sdk.ts).
 */
export declare function agentRunOf(payload: Record<string, unknown>): {
    readonly started: RunningAgent;
} | {
    readonly ended: string;
} | null;
