import { SessionError } from './errors';
import { isFinalPhase } from './phase-names';
import type { ClaudeLink, SessionState } from './state';

/** A change to a session's Claude Code link. `agent_id` (re)links; `stopped` records that the agent stopped. */
export interface ClaudeLinkChange {
  readonly agent_id?: string;
  readonly session_id?: string;
  readonly agent_type?: string;
  /** true: the agent stopped now; false: it runs (again). */
  readonly stopped?: boolean;
  readonly last_message?: string;
}

/**
 * Links a session to a Claude Code agent, or updates the link, and marks the session active.
 * A new `agent_id` starts a fresh link time and clears `stopped_at`, since that agent is running.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final, E_USAGE when there is no link to update
 */
export function withClaudeLink(state: SessionState, change: ClaudeLinkChange, now: Date): SessionState {
  if (isFinalPhase(state.phase)) {
    throw new SessionError('E_ILLEGAL_TRANSITION', `Session \`${state.agent_id}\` is final (\`${state.phase}\`) and cannot be linked`);
  }
  const at = now.toISOString();
  const previous = state.claude;
  const relinked = change.agent_id !== undefined && change.agent_id !== previous?.agent_id;
  const agentId = change.agent_id ?? previous?.agent_id;
  if (agentId === undefined) {
    throw new SessionError('E_USAGE', `Expected a Claude \`agent_id\` to link session \`${state.agent_id}\` to, got none`);
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
  if (change.stopped === true) link.stopped_at = at;
  if (change.stopped === false) delete link.stopped_at;
  return { ...state, last_updated: at, claude: link };
}
