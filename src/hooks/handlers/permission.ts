import { isRecordingAgent } from '../../core/claude-link';
import { recordingTarget } from '../../core/recording-command';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { recordPrefix } from '../texts';
import { parseBashInput } from '../../generated/claude-parsers';
import type { Payload } from './claude-schema';
import type { HandlerContext, HandlerOutcome } from './handler';

/** The host's answer that lets one tool call run without a prompt (Claude Code's; Codex reads it alike). */
export interface PermissionAnswer {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PermissionRequest';
    readonly decision: { readonly behavior: 'allow' };
  };
}

/**
 * PermissionRequest: the host is about to ask the user (or, for a background sub-agent that cannot ask, to deny)
 * whether a tool call may run. Allowed here, and only here, is a sub-agent's own recording command: Bash running
 * exactly the command its start context gave it (its recording words, `cli` and `update` or Codex's `record` entry,
 * its session id, recording options only:
 * core/recording-command.ts) on the session linked to that very agent (core/claude-link.ts isRecordingAgent).
 * Anything else gets no answer, so the host's own flow decides: this never denies and never allows anything else.
 * It fires only when a prompt would be shown: tool calls the user already allowed never start this hook.
 * @returns the answer and the log note; the answer is null when the request is not ours to allow
 */
export async function permissionRequest(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<PermissionAnswer>> {
  if (payload.tool_name !== 'Bash') return { answer: null, note: 'other_tool' };
  // The main agent is never handed a recording command; only a sub-agent's request carries its agent_id.
  if (!payload.agent_id) return { answer: null, note: 'not_a_subagent' };
  const command = parseBashInput(payload.tool_input)?.command;
  const target = command === undefined ? null : recordingTarget(command, recordPrefix(context));
  if (target === null)
    return { answer: null, note: `not_a_recording_command claude_agent=${logValue(payload.agent_id)}` };
  const linked = await sessions.findByClaudeAgent(payload.agent_id);
  if (linked === null || linked.agent_id !== target || !isRecordingAgent(linked, payload.agent_id)) {
    return {
      answer: null,
      note: `not_its_session claude_agent=${logValue(payload.agent_id)} session=${logValue(target)} linked=${logValue(linked?.agent_id ?? '-')}`,
    };
  }
  return {
    answer: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } },
    note: `recording_allowed claude_agent=${logValue(payload.agent_id)} session=${logValue(target)}`,
  };
}
