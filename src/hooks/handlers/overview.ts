import type { Sessions } from '../../service/sessions';
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
  const parked = await sessions.parkedSessions();
  if (parked.length === 0) return skip('nothing_parked');
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
    note: `parked_listed count=${parked.length} shown=${shown} continuable=${[...choices.values()].filter((c) => c.kind === 'continue').length}`,
  };
}
