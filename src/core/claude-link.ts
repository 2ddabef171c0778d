import { SessionError } from './errors';
import { isInterrupted } from './interruption';
import { counted } from './plural';
import type { Limits } from './limits';
import { isFinalPhase } from './phase-names';
import type { ClaudeLink, SessionState } from './state';

/**
 * The purpose of the sessions every host's hooks make for their sub-agents (Claude Code's, and Codex's, opencode's and
 * the Agent SDK's through the same attach): it says which way the session came, nothing of its task.
 */
export const CLAUDE_PURPOSE = 'claude_code_subagent';

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
export function withClaudeLink(state: SessionState, change: ClaudeLinkChange, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot be linked`,
    );
  }
  const at = now.toISOString();
  const previous = state.claude;
  const relinked = change.agent_id !== undefined && change.agent_id !== previous?.agent_id;
  const agentId = change.agent_id ?? previous?.agent_id;
  if (agentId === undefined) {
    throw new SessionError(
      'E_USAGE',
      `Expected a Claude \`agent_id\` to link session \`${state.agent_id}\` to, got none`,
    );
  }
  const link: { -readonly [K in keyof ClaudeLink]: ClaudeLink[K] } = {
    ...(relinked ? {} : previous),
    agent_id: agentId,
    linked_at: relinked || previous === undefined ? at : previous.linked_at,
  };
  const sessionId = change.session_id ?? previous?.session_id;
  if (sessionId !== undefined) link.session_id = sessionId;
  const agentType = change.agent_type ?? previous?.agent_type;
  if (agentType !== undefined) link.agent_type = agentType;
  if (change.last_message !== undefined) link.last_message = change.last_message;
  if (change.stopped === true && link.stopped_at === undefined) link.stopped_at = at;
  if (change.resumed_from !== undefined) link.resumed_from = change.resumed_from;
  return { ...state, last_updated: at, claude: link };
}

/**
 * True when applying `change` would alter the link's facts (not counting the activity time): lets a repeated
 * event of a linked agent write nothing, so every order of its events ends in the same state.
 */
export function changesLink(state: SessionState, change: ClaudeLinkChange): boolean {
  const link = state.claude;
  if (link === undefined || (change.agent_id !== undefined && change.agent_id !== link.agent_id)) return true;
  return (
    (change.session_id !== undefined && change.session_id !== link.session_id) ||
    (change.agent_type !== undefined && change.agent_type !== link.agent_type) ||
    (change.last_message !== undefined && change.last_message !== link.last_message) ||
    (change.stopped === true && link.stopped_at === undefined) ||
    change.resumed_from !== undefined
  );
}

/**
 * Why a session left `initializing` by an older version (before the stop policy abandoned such sessions) is
 * abandoned by `cleanup`, or null when it is not one: still `initializing`, linked to a Claude agent, and either
 * that agent stopped or the session is idle past the resume timeout (a duplicate of a racing start never stops).
 * With `retryWatchdog` (Claude Code's unattended retry, `CLAUDE_CODE_RETRY_WATCHDOG`, is on), idleness alone is no
 * sign: a running agent may sleep for hours through a usage limit, and the watchdog ends that wait with StopFailure
 * (or Claude Code closes it at resume), which interrupts the session for the next delegation to carry on.
 */
export function orphanedStartReason(
  state: SessionState,
  now: Date,
  limits: Limits,
  retryWatchdog = false,
): string | null {
  const link = state.claude;
  // An interrupted session waits for the next delegation, whatever its phase (its agent died, it did not finish).
  if (state.phase !== 'initializing' || link === undefined || isInterrupted(state)) return null;
  if (link.stopped_at !== undefined) {
    return `Abandoned by cleanup: Claude Code agent ${link.agent_id} stopped while the session was still initializing`;
  }
  if (retryWatchdog) return null;
  if (now.getTime() - Date.parse(state.last_updated) > limits.resumeTimeoutMinutes * 60_000) {
    const idle = `idle for more than ${counted(limits.resumeTimeoutMinutes, 'minute')}`;
    return `Abandoned by cleanup: still initializing and ${idle} (Claude Code agent ${link.agent_id})`;
  }
  return null;
}

/**
 * Why the agent `claudeAgentId` may not record into session `id`, worded for a refusal (`got …`), or null when it may
 * (isRecordingAgent): `linked` is the session linked to that agent, or null.
 */
export function recordingRefusal(linked: SessionState | null, id: string, claudeAgentId: string): string | null {
  if (linked === null) return 'no session linked to it';
  if (linked.agent_id !== id) return `session \`${linked.agent_id}\` linked to it instead`;
  if (linked.claude?.agent_id !== claudeAgentId) return `the session linked to another agent since`;
  if (linked.claude.stopped_at !== undefined)
    return `its agent stopped (at ${linked.claude.stopped_at}): a stopped agent records nothing; the next delegation resumes the session`;
  if (isFinalPhase(linked.phase)) return `a session that ended (\`${linked.phase}\`)`;
  return null;
}

/**
 * True when the Claude agent `claudeAgentId` may record into `state` without a permission prompt: the session is
 * linked to that very agent, which has not stopped, and the session is not final. Another agent's session, a
 * session whose link moved on (a later delegation resumed it) or one that ended is not its to write.
 */
export function isRecordingAgent(state: SessionState, claudeAgentId: string): boolean {
  return (
    state.claude?.agent_id === claudeAgentId && state.claude.stopped_at === undefined && !isFinalPhase(state.phase)
  );
}
