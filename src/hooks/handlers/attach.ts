// The events of a sub-agent's run, each attaching the host's agent to its session (one session per agent, in one
// step under the agent's lock: src/service/claude-attach.ts): SubagentStart gives it its session, PostToolUse attaches
// a background agent as it is launched, SubagentStop applies the stop policy, StopFailure records an interruption.
import { agentNameProblem } from '../../core/input';
import { interruptionKind } from '../../core/interruption';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { delegatedTaskOf, type DelegatedTask } from '../../core/task';
import { excerpt } from '../../core/text';
import { besideContext, startContext } from '../texts';
import type { SessionState } from '../../core/state';
import type { Payload } from './claude-schema';
import { agentNameOf, DEFAULT_AGENT_TYPE, isDelegationTool } from './delegation';
import { skip, type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';

const MESSAGE_LIMIT = 1000;

/**
 * SubagentStart: the agent attached to its session (relinked, resumed, new, or continued: a stopped agent back with
 * its context), told which one and how to record.
 */
export async function subagentStart(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<ContextAnswer<'SubagentStart'>>> {
  if (payload.agent_type === '') return skip('internal_agent');
  if (!payload.agent_id) return skip('no_agent_id');
  const agentType = payload.agent_type ?? DEFAULT_AGENT_TYPE;
  // A name no session may have (the one rule of core/input.ts): nothing is tracked for this agent.
  if (agentNameProblem(agentType) !== null) return skip(`invalid_agent_type agent=${logValue(agentType)}`);
  const attached = (await sessions.attachClaudeAgent({
    agent_id: payload.agent_id,
    agent_type: agentType,
    ...sessionOf(payload),
    // Claude Code's start names no task (its PreToolUse and PostToolUse do); opencode's plugin passes its task's input.
    ...taskOf(payload),
    started: true,
  }))!;
  const maxErrors = sessions.limits.maxErrors;
  return {
    answer: {
      hookSpecificOutput: {
        hookEventName: 'SubagentStart',
        additionalContext: startContext(attached.state, context, maxErrors),
      },
    },
    note: `${attached.action} agent=${logValue(agentType)} claude_agent=${logValue(payload.agent_id)} session=${logValue(attached.state.agent_id)}`,
  };
}

/** SubagentStop: the stop policy applied to the agent's session (kept open, completed, failed or abandoned). */
export async function subagentStop(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>> {
  // Internal summarizer and compaction forks stop with an empty agent_type and were never started by us.
  if (payload.agent_type === '') return skip('internal_agent');
  // Before Claude Code 2.0.42 SubagentStop carried no agent_id: there is nothing to match it to.
  if (!payload.agent_id) return skip('no_agent_id');
  if (payload.agent_type !== undefined && agentNameProblem(payload.agent_type) !== null)
    return skip(`invalid_agent_type agent=${logValue(payload.agent_type)}`);
  const message = payload.last_assistant_message?.trim();
  const lastMessage = message ? excerpt(message, MESSAGE_LIMIT) : undefined;
  // Without an agent_type (2.1.47) only an agent already attached is found (the service's claudeAgentStopped).
  const attached = await sessions.claudeAgentStopped({
    agent_id: payload.agent_id,
    ...(payload.agent_type === undefined ? {} : { agent_type: payload.agent_type }),
    ...sessionOf(payload),
    ...(lastMessage === undefined ? {} : { last_message: lastMessage }),
  });
  if (attached === null) return skip(`unknown_agent claude_agent=${logValue(payload.agent_id)}`);
  return skip(
    `${attached.action} stop=${logValue(attached.stop)} phase=${logValue(attached.state.phase)} session=${logValue(attached.state.agent_id)}`,
  );
}

/**
 * StopFailure: an agent's turn ended on an API error (after the host's own retries: a rate limit, an overload, a
 * server error, a refused request). For a sub-agent it is the last event (no SubagentStop follows): its session stops
 * its link and waits, interrupted, for the next delegation. The main agent's own failure (no agent_id) is not ours.
 * Claude Code ignores the output of this event, so nothing is printed.
 */
export async function stopFailure(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>> {
  if (payload.agent_type === '') return skip('internal_agent');
  if (!payload.agent_id) return skip('main_agent');
  if (payload.agent_type !== undefined && agentNameProblem(payload.agent_type) !== null)
    return skip(`invalid_agent_type agent=${logValue(payload.agent_type)}`);
  const error = interruptionKind(payload.error);
  const message = payload.last_assistant_message?.trim() || payload.error_details?.trim();
  const attached = await sessions.claudeAgentFailed({
    agent_id: payload.agent_id,
    ...(payload.agent_type === undefined ? {} : { agent_type: payload.agent_type }),
    ...sessionOf(payload),
    error,
    ...(message ? { message } : {}),
  });
  if (attached === null) return skip(`unknown_agent claude_agent=${logValue(payload.agent_id)}`);
  return skip(
    `${attached.action} interruption=${logValue(attached.interruption)} kind=${logValue(error)} phase=${logValue(attached.state.phase)} session=${logValue(attached.state.agent_id)}`,
  );
}

/**
 * PostToolUse of the delegation tool: a background agent attached as it is launched; a finished one left alone. Both
 * record the delegation's task on their session; when that session was made beside a parked one of another task
 * (core/task.ts), the main agent is told both.
 */
export async function postToolUse(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<ContextAnswer<'PostToolUse'>>> {
  if (!isDelegationTool(payload.tool_name)) return skip('other_tool');
  const agentId = payload.tool_response?.agentId;
  if (!agentId) return skip('no_agent_id');
  // A foreground agent that already finished (its start and stop came first) has nothing left to track.
  if (payload.tool_response?.status === 'completed') {
    // Its task is recorded on the session it worked in (Claude Code's start named none), found by its agent id only.
    const linked = await sessions.attachClaudeAgent({ agent_id: agentId, ...taskOf(payload) });
    if (linked === null) return skip(`finished_unlinked claude_agent=${logValue(agentId)}`);
    const note = `already_linked claude_agent=${logValue(agentId)} session=${logValue(linked.state.agent_id)}`;
    return besideAnswer(sessions, linked.state, context, note);
  }
  // Launched in the background: this fires with its SubagentStart, in another process; both attach in one step.
  const agentType = agentNameOf(payload.tool_input);
  if (agentNameProblem(agentType) !== null) return skip(`invalid_agent_type agent=${logValue(agentType)}`);
  const attached = (await sessions.attachClaudeAgent({
    agent_id: agentId,
    agent_type: agentType,
    ...sessionOf(payload),
    ...taskOf(payload),
  }))!;
  const note = `${attached.action} agent=${logValue(agentType)} claude_agent=${logValue(agentId)} session=${logValue(attached.state.agent_id)}`;
  return besideAnswer(sessions, attached.state, context, note);
}

/**
 * The main agent told, after a delegation whose agent got a new session beside a parked one of another task, which
 * session each task is in (texts.ts besideContext); nothing otherwise.
 */
async function besideAnswer(
  sessions: Sessions,
  state: SessionState,
  context: HandlerContext,
  note: string,
): Promise<HandlerOutcome<ContextAnswer<'PostToolUse'>>> {
  const id = state.task?.passed_over_id;
  if (id === undefined) return skip(note);
  const kept = await sessions.find(id);
  return {
    answer: {
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: besideContext(state, kept, id, context) },
    },
    note: `${note} beside=${logValue(id)}`,
  };
}

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
export function agentRunOf(
  payload: Record<string, unknown>,
): { readonly started: RunningAgent } | { readonly ended: string } | null {
  const { hook_event_name: event, agent_id: agentId, agent_type: agentType, session_id: sessionId } = payload;
  if (typeof agentId !== 'string' || agentId === '') return null;
  if (event === 'SubagentStop' || event === 'StopFailure') return { ended: agentId };
  if (event === 'SubagentStart' && typeof agentType === 'string' && agentType !== '')
    return {
      started: {
        agent_id: agentId,
        agent_type: agentType,
        ...(typeof sessionId === 'string' ? { session_id: sessionId } : {}),
      },
    };
  return null;
}

/** The delegation's task, where the payload's tool input names one (core/task.ts). */
function taskOf(payload: Payload): { task?: DelegatedTask } {
  const task = delegatedTaskOf(payload.tool_input);
  return task === null ? {} : { task };
}

function sessionOf(payload: Payload): { session_id?: string } {
  return payload.session_id === undefined ? {} : { session_id: payload.session_id };
}
