import { agentNameProblem } from '../../core/input';
import type { SessionState } from '../../core/state';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { delegatedTaskOf } from '../../core/task';
import { passedOverContext, resumeContext } from '../texts';
import type { Payload } from './claude-schema';
import { CONTINUE_TOOL, continuationChoiceOf, continueAgent, type UpdatedInputAnswer } from './continue';
import { agentNameOf, isDelegationTool } from './delegation';
import { skip, type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';

/**
 * PreToolUse of the delegation tool: the resume offered, when the agent type delegated to has a session to resume
 * (the delegated agent is linked to it as it starts), saying whether its previous agent could have been continued
 * with its context, and recording that a fresh agent was primed. PreToolUse of SendMessage: continue.ts.
 */
export async function offer(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<ContextAnswer<'PreToolUse'> | UpdatedInputAnswer>> {
  if (payload.tool_name === CONTINUE_TOOL) return continueAgent(sessions, payload, context);
  if (!isDelegationTool(payload.tool_name)) return skip('other_tool');
  const agentName = agentNameOf(payload.tool_input);
  if (agentNameProblem(agentName) !== null) return skip(`invalid_agent_type agent=${logValue(agentName)}`);
  const task = delegatedTaskOf(payload.tool_input);
  const offered = await sessions.offerDelegation(agentName, task);
  if (offered === null) return skip(`nothing_to_resume agent=${logValue(agentName)}`);
  if (offered.kind === 'passed_over') {
    // Another task's delegation: the parked session keeps its decision or grant; the delegated agent gets a new one.
    return {
      answer: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          additionalContext: passedOverContext(offered.state, task!, context),
        },
      },
      note: `passed_over agent=${logValue(agentName)} session=${logValue(offered.state.agent_id)}`,
    };
  }
  const state = offered.state;
  const choice = continuationChoiceOf(state, payload, context);
  const previous = state.claude?.agent_id;
  // A new agent is delegated: the session is primed, whatever the previous agent's transcript allowed (recorded for
  // `show`, `should-resume --explain` and the report).
  const recorded =
    choice === null || previous === undefined
      ? state
      : ((await sessions.recordContinuation(state.agent_id, {
          choice: 'prime',
          reason:
            choice.kind === 'continue'
              ? `a new agent was delegated (the previous one was continuable: ${choice.reason})`
              : choice.reason,
          claude_agent_id: previous,
        })) ?? state);
  return {
    answer: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        additionalContext: resumeContext(recorded, context, choice ?? undefined),
      },
    },
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
