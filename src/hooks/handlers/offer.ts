import { agentNameProblem } from '../../core/input';
import type { SessionState } from '../../core/state';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { resumeContext } from '../texts';
import type { Payload } from './claude-schema';
import { agentNameOf, isDelegationTool } from './delegation';
import { skip, type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';

/**
 * PreToolUse of the delegation tool: the resume offered, when the agent type delegated to has a session to resume
 * (the delegated agent is linked to it as it starts).
 */
export async function offer(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<ContextAnswer<'PreToolUse'>>> {
  if (!isDelegationTool(payload.tool_name)) return skip('other_tool');
  const agentName = agentNameOf(payload.tool_input);
  if (agentNameProblem(agentName) !== null) return skip(`invalid_agent_type agent=${logValue(agentName)}`);
  const state = await approveResume(sessions, agentName);
  if (state === null) return skip(`nothing_to_resume agent=${logValue(agentName)}`);
  return {
    answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: resumeContext(state, context) } },
    note: `resume_offered agent=${logValue(agentName)} session=${logValue(state.agent_id)}`,
  };
}

/**
 * The resume decision of a delegation to `agentName`: its newest session when that one may be resumed
 * (the resume rules pass) and no Claude agent is running it; else null.
 */
export function approveResume(sessions: Sessions, agentName: string): Promise<SessionState | null> {
  return sessions.parkedOf(agentName);
}
