import { UNFINISHED_AT_RESUME, UNFINISHED_AT_RESUME_MESSAGE } from '../../core/interruption';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import type { ContinuationChoice } from '../../core/claude-transcript';
import { overviewText } from '../texts';
import { continuationChoiceOf } from './continue';
import type { Payload } from './claude-schema';
import { skip, type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';

/** The events the overview answers. */
type OverviewEvent = 'SessionStart' | 'UserPromptSubmit';

/**
 * SessionStart / UserPromptSubmit: the parked sessions, so the main agent knows them before it delegates. It runs
 * on every prompt, so it never scans the store: one listing of `<root>/.agents/` and one pointer and one state read
 * per agent name (a scan only for a pointer that does not check out, once). Nothing parked: nothing printed.
 */
export async function overview(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<ContextAnswer<OverviewEvent>>> {
  const closed =
    payload.hook_event_name === 'SessionStart' && payload.source === 'resume'
      ? await closedAtResume(sessions, payload)
      : '';
  const parked = await sessions.parkedSessions();
  if (parked.length === 0) return skip(`nothing_parked${closed}`);
  // Which parked agents can be continued with their context from this session (a few system calls each: their
  // transcripts are looked for where their link says they last ran first).
  const choices = new Map<string, ContinuationChoice>();
  for (const state of parked) {
    const choice = continuationChoiceOf(state, payload, context);
    if (choice !== null) choices.set(state.agent_id, choice);
  }
  const { text, shown } = overviewText(parked, context, choices);
  return {
    answer: {
      hookSpecificOutput: { hookEventName: payload.hook_event_name as OverviewEvent, additionalContext: text },
    },
    note: `parked_listed count=${parked.length} shown=${shown} continuable=${[...choices.values()].filter((c) => c.kind === 'continue').length}${closed}`,
  };
}

/**
 * A resumed Claude Code session (SessionStart `source: "resume"`, same session id): its sub-agents that never finished
 * ran in a process that is gone (Claude Code closes them as `unfinished_at_resume`); each one's session still linked to
 * it, running, records the interruption, so the overview lists it and the next delegation carries it on. An agent
 * already stopped or interrupted is left as it is. Fails open: what cannot be recorded is noted, the overview goes on.
 * @returns the log note (empty when there was nothing to close)
 */
async function closedAtResume(sessions: Sessions, payload: Payload): Promise<string> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only a resumed session reads these files
    const { cutOffAgents } = require('../../service/cut-agents') as typeof import('../../service/cut-agents');
    const agents = cutOffAgents(payload, 'resume');
    const recorded: string[] = [];
    for (const agent of agents) {
      const attached = await sessions.claudeAgentFailed({
        ...agent,
        ...(payload.session_id === undefined ? {} : { session_id: payload.session_id }),
        error: UNFINISHED_AT_RESUME,
        message: UNFINISHED_AT_RESUME_MESSAGE,
        cut: true,
      });
      if (attached?.interruption === 'recorded') recorded.push(`${agent.agent_id}:${attached.state.agent_id}`);
    }
    return recorded.length === 0 ? '' : ` unfinished_at_resume=${logValue(recorded.join(' '))}`;
  } catch (error) {
    return ` unfinished_at_resume_error=${logValue(error instanceof Error ? error.message : String(error))}`;
  }
}
