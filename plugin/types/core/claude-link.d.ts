import type { Limits } from './limits';
import type { ClaudeLink, SessionState } from './state';
/**
 * The purpose of the sessions every host's hooks make for their sub-agents (Claude Code's, and Codex's, opencode's and
 * the Agent SDK's through the same attach): it says which way the session came, nothing of its task.
 */
export declare const CLAUDE_PURPOSE = "claude_code_subagent";
/** A change to a session's Claude Code link. A new `agent_id` (re)links; `stopped` records that the agent stopped. */
export interface ClaudeLinkChange {
    readonly agent_id?: string;
    readonly session_id?: string;
    readonly agent_type?: string;
    /** The agent stopped now. Sticky: no later change of the same agent clears it (its events may arrive in any order). */
    readonly stopped?: true;
    readonly last_message?: string;
    /** Set when this link resumes a parked session (see ClaudeLink `resumed_from`). */
    readonly resumed_from?: ClaudeLink['resumed_from'];
}
/**
 * Links a session to a Claude Code agent, or updates the link, and marks the session active.
 * A new `agent_id` starts a fresh link (time, no `stopped_at`); the same one keeps its `stopped_at` once set.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final, E_USAGE when there is no link to update
 */
export declare function withClaudeLink(state: SessionState, change: ClaudeLinkChange, now: Date): SessionState;
/**
 * True when applying `change` would alter the link's facts (not counting the activity time): lets a repeated
 * event of a linked agent write nothing, so every order of its events ends in the same state.
 */
export declare function changesLink(state: SessionState, change: ClaudeLinkChange): boolean;
/**
 * Why a session left `initializing` by an older version (before the stop policy abandoned such sessions) is
 * abandoned by `cleanup`, or null when it is not one: still `initializing`, linked to a Claude agent, and either
 * that agent stopped or the session is idle past the resume timeout (a duplicate of a racing start never stops).
 * With `retryWatchdog` (Claude Code's unattended retry, `CLAUDE_CODE_RETRY_WATCHDOG`, is on), idleness alone is no
 * sign: a running agent may sleep for hours through a usage limit, and the watchdog ends that wait with StopFailure
 * (or Claude Code closes it at resume), which interrupts the session for the next delegation to carry on.
 */
export declare function orphanedStartReason(state: SessionState, now: Date, limits: Limits, retryWatchdog?: boolean): string | null;
/**
 * Why the agent `claudeAgentId` may not record into session `id`, worded for a refusal (`got …`), or null when it may
 * (isRecordingAgent): `linked` is the session linked to that agent, or null.
 */
export declare function recordingRefusal(linked: SessionState | null, id: string, claudeAgentId: string): string | null;
/**
 * True when the Claude agent `claudeAgentId` may record into `state` without a permission prompt: the session is
 * linked to that very agent, which has not stopped, and the session is not final. Another agent's session, a
 * session whose link moved on (a later delegation resumed it) or one that ended is not its to write.
 */
export declare function isRecordingAgent(state: SessionState, claudeAgentId: string): boolean;
