import { isAbsolute, resolve } from 'node:path';
import { isRecordingAgent } from '../../core/claude-link';
import { goesToInbox, pendingPermission, type PermissionAsk } from '../../core/permission';
import { recordingTarget } from '../../core/recording-command';
import { agentLaunchFacts } from '../../service/agent-launch';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { permissionParkedText, recordPrefix } from '../texts';
import { parseBashInput } from '../../generated/claude-parsers';
import type { Payload } from './claude-schema';
import type { HandlerContext, HandlerOutcome } from './handler';

/**
 * The host's answer to one permission request (Claude Code's; Codex reads it alike): `allow` lets that one call run
 * without a prompt; `deny` with a message gives the sub-agent's model exactly that text as the call's error result.
 */
export interface PermissionAnswer {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PermissionRequest';
    readonly decision: { readonly behavior: 'allow' } | { readonly behavior: 'deny'; readonly message: string };
  };
}

/**
 * PermissionRequest: the host is about to ask the user (or, for a background sub-agent that cannot ask, to deny)
 * whether a tool call may run. It fires only when a prompt would be shown: tool calls the user already allowed never
 * start this hook. Answered here, in this order, and only for a sub-agent (its payload carries `agent_id`):
 * 1. its own recording command: Bash running exactly the command its start context gave it (its recording words,
 *    `cli` and `update` or Codex's `record` entry, its session id, recording options only: core/recording-command.ts) on the session linked to that very
 *    agent (core/claude-link.ts isRecordingAgent): `allow`;
 * 2. the call the user approved for its session (issue 33, core/permission.ts): the same tool with a deep-equal input,
 *    from the same folder (the payload's `cwd`), a grant not spent nor expired, in this project and host: `allow`, and
 *    the grant spent in the same locked write;
 * 3. a call of any tool nobody can answer (`permission_inbox`, default `background`: a headless run, by what Claude
 *    Code tells the hook in its environment, else by the sub-agent's files, service/agent-launch.ts): recorded in its
 *    session, which waits in approval, and `deny` with a message naming the inbox item (the host would deny it
 *    anyway: the answer only adds where it waits).
 * Anything else gets no answer, so the host's own flow decides (a person is asked where one can be).
 * @returns the answer and the log note; the answer is null when the request is not ours to decide
 */
export async function permissionRequest(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<PermissionAnswer>> {
  // The main agent is never handed a recording command nor parked; only a sub-agent's request carries its agent_id.
  if (!payload.agent_id) return { answer: null, note: 'not_a_subagent' };
  const tool = payload.tool_name;
  if (tool === undefined || tool === '') return { answer: null, note: 'no_tool' };
  const claudeAgent = logValue(payload.agent_id);
  if (tool === 'Bash') {
    const recording = await recordingAnswer(sessions, payload, payload.agent_id, recordPrefix(context));
    if (recording !== null) return recording;
  }
  const cwd = folderOf(payload.cwd);
  const ask: PermissionAsk = {
    tool,
    input: payload.tool_input ?? null,
    claudeAgentId: payload.agent_id,
    ...(cwd === undefined ? {} : { cwd }),
  };
  const spent = await sessions.spendPermission(ask);
  if (spent !== null) {
    return {
      answer: answer({ behavior: 'allow' }),
      note: `grant_spent claude_agent=${claudeAgent} session=${logValue(spent.agent_id)} tool=${logValue(tool)}`,
    };
  }
  const mode = sessions.permissionInbox;
  const facts = mode !== 'background' ? null : (context.launch ?? agentLaunchFacts(payload, payload.agent_id));
  if (!goesToInbox(mode, facts)) {
    return {
      answer: null,
      note: `not_ours claude_agent=${claudeAgent} tool=${logValue(tool)} inbox=${mode} launch=${facts === null ? '-' : logValue(`${String(facts.requestShape)}/${String(facts.entrypoint)}/${String(facts.attended)}`)}`,
    };
  }
  const parked = await sessions.parkPermission(ask);
  const request = parked === null ? null : pendingPermission(parked);
  if (parked === null || request === null) {
    return { answer: null, note: `no_session_to_park claude_agent=${claudeAgent} tool=${logValue(tool)}` };
  }
  return {
    answer: answer({ behavior: 'deny', message: permissionParkedText(parked, request, context) }),
    note: `permission_parked claude_agent=${claudeAgent} session=${logValue(parked.agent_id)} tool=${logValue(tool)}`,
  };
}

/** The folder a call would run in: the payload's `cwd` when absolute, normalized (no `..`, no trailing slash). */
function folderOf(cwd: string | undefined): string | undefined {
  return cwd === undefined || cwd === '' || !isAbsolute(cwd) ? undefined : resolve(cwd);
}

function answer(decision: PermissionAnswer['hookSpecificOutput']['decision']): PermissionAnswer {
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

/** Step 1 of permissionRequest: `allow` for the agent's own recording command, else null. */
async function recordingAnswer(
  sessions: Sessions,
  payload: Payload,
  claudeAgentId: string,
  cli: readonly string[],
): Promise<HandlerOutcome<PermissionAnswer> | null> {
  const command = parseBashInput(payload.tool_input)?.command;
  const target = command === undefined ? null : recordingTarget(command, cli);
  if (target === null) return null;
  const linked = await sessions.findByClaudeAgent(claudeAgentId);
  if (linked === null || linked.agent_id !== target || !isRecordingAgent(linked, claudeAgentId)) {
    return {
      answer: null,
      note: `not_its_session claude_agent=${logValue(claudeAgentId)} session=${logValue(target)} linked=${logValue(linked?.agent_id ?? '-')}`,
    };
  }
  return {
    answer: answer({ behavior: 'allow' }),
    note: `recording_allowed claude_agent=${logValue(claudeAgentId)} session=${logValue(target)}`,
  };
}
