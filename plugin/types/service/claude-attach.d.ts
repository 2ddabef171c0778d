import { type StopOutcome } from '../core/stop-policy';
import { type DelegatedTask } from '../core/task';
import type { SessionState } from '../core/state';
import type { ProjectView } from './project-view';
/** One event of a Claude Code sub-agent, as `attachClaudeAgent` takes it. */
export interface ClaudeAgentEvent {
    /** Claude's agent id (`a` + 16 hex digits in 2.1.330). */
    readonly agent_id: string;
    /** Its agent type (the session's agent name); absent: only an agent already attached is found, none is made. */
    readonly agent_type?: string;
    readonly session_id?: string;
    /**
     * Present for SubagentStart: the agent starts now. A start of an agent whose link had stopped is that agent coming
     * back with its context (SendMessage, issue 34): its session runs again (core/continuation.ts withContinued).
     */
    readonly started?: true;
    /** Present for SubagentStop: the agent stopped, with (an excerpt of) its last message. */
    readonly stopped?: {
        readonly last_message?: string;
    };
    /** Present for StopFailure: the agent died of a host failure (its kind and message, core/interruption.ts). */
    readonly failed?: AgentFailure;
    /**
     * The task it was delegated, where the event carries it (PostToolUse of the delegation tool, opencode's `task`):
     * recorded on its session, and judged before a parked session is taken (core/task.ts `takeover`).
     */
    readonly task?: DelegatedTask;
}
/** How an agent died: the kind and message of its interruption (core/interruption.ts). */
export interface AgentFailure {
    readonly error: string;
    readonly message?: string;
    /**
     * The agent was cut off by the main turn's interrupt (Claude Code's Interrupt), which names no agent: recorded only
     * while its link runs (a stop of its own that came first wins: it finished), and a denied permission's interruption
     * names the inbox item its session waits on.
     */
    readonly cut?: true;
}
/**
 * What attaching did: `created` a session, `relinked` the type's parked session (a resume), found the one
 * already `linked` to this agent, `continued` it (this agent had stopped and starts again with its context), or found
 * it `superseded` (this agent stopped and a later one resumed its session: nothing is changed for a late event of the
 * earlier agent).
 */
export type AttachAction = 'created' | 'relinked' | 'linked' | 'continued' | 'superseded';
export interface Attachment {
    readonly state: SessionState;
    readonly action: AttachAction;
    /** For a stop: what the stop policy did, or `already_final` / `superseded` when there was nothing to do. */
    readonly stop?: StopOutcome | 'already_final' | 'superseded';
    /**
     * For a failure: `recorded` (the session waits for the next delegation), `already` (this agent's failure was
     * recorded before: nothing written), `already_final` or `superseded` (nothing to do), `stopped` (an agent cut off
     * whose own stop came first: it had finished, nothing written).
     */
    readonly interruption?: 'recorded' | 'already' | 'already_final' | 'superseded' | 'stopped';
}
export { CLAUDE_PURPOSE } from '../core/claude-link';
/**
 * Attaches one event of a Claude Code sub-agent to its session, in one step serialized per Claude agent id and
 * per agent type (the store's locks): the session this agent id was attached to before, whatever its phase
 * (never a second one); else the type's parked session, relinked (a resume, recorded in its history and on the
 * link); else a new session. For a stop, the stop policy (`stopOutcome`) is applied in the same step. Any order
 * of one agent's events ends in the same state: `stopped_at` is sticky for an agent id, a repeated event
 * writes nothing, and a stop that arrives first links (or creates) before applying the policy.
 * @returns null when the agent is not attached and `agent_type` is absent (nothing to create)
 * @throws SessionError E_USAGE for an `agent_type` the naming rule refuses (core/input.ts: the name of the session
 *   it would make); E_BUSY when a lock stays taken, E_IO
 */
export declare function attachClaudeAgent(view: ProjectView, event: ClaudeAgentEvent): Promise<Attachment | null>;
