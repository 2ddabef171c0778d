// Stop (the main agent's turn ends): the person is told, in one line Claude Code shows them (`systemMessage`), of each
// decision that started waiting (a plan to approve, a sub-agent's permission request) and was not told yet on this
// machine: each item once, never again on a later turn, after a `--resume`, or in another session of the project.
// Loaded only by the Stop hook (index.ts requires it on first use).
import { toldKey, toldLine, waitingDecisions } from '../../core/views/told';
import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { skip, type HandlerContext, type HandlerOutcome } from './handler';

/** An answer that shows the person a line and nothing else (no block, no context for the agent). */
export interface SystemMessageAnswer {
  readonly systemMessage: string;
}

/**
 * The line for the person at the end of a main turn, naming the decisions not told yet (claimed as told here, so a
 * second Stop at once names none of them); nothing when none is new. It reads what the parked overview reads (one
 * listing of the agents' pointers, no scan of the store).
 */
export async function told(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<SystemMessageAnswer>> {
  // Stop is the main agent's; a sub-agent's turn ends in SubagentStop. A payload that says otherwise is not ours.
  if (payload.agent_id) return skip('subagent');
  if (context.person === undefined) return skip('no_record');
  const waiting = waitingDecisions(await sessions.parkedSessions(), context.now, sessions.limits);
  if (waiting.length === 0) return skip('nothing_waits');
  const person = context.person();
  const fresh = waiting.filter((decision) => person.claim(toldKey(decision)));
  if (fresh.length === 0) return skip(`told_before waiting=${waiting.length}`);
  return {
    answer: { systemMessage: toldLine(fresh, person.page()) },
    note: `told count=${fresh.length} waiting=${waiting.length}`,
  };
}
