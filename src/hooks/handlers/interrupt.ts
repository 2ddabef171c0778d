// Claude Code's Interrupt (2.1.335+): an interrupt ended the main conversation's turn (the user's Esc, a denied
// permission, another session, a rewind). The foreground sub-agents it cut off get no SubagentStop and no StopFailure
// (measured on 2.1.337): their sessions record the interruption here, as StopFailure's do, and the next delegation
// carries them on. Background sub-agents go on working and are left alone. Claude Code ignores this event's output.
import { turnInterruption } from '../../core/interruption';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import type { Payload } from './claude-schema';
import { skip, type HandlerOutcome } from './handler';

/**
 * Interrupt: each foreground sub-agent of the main session that has not finished (service/cut-agents.ts) has its
 * session stopped and interrupted (kind `user_stopped`, `permission_denied` or `turn_interrupted`), only while its
 * link runs: a SubagentStop that came first wins, one that comes later keeps the session open (core `stopOutcome`).
 * One agent that cannot be written (a lock kept taken) does not keep the others from being recorded.
 */
export async function interrupt(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>> {
  // Claude Code fires it for the main thread only: a payload that names an agent is not one of its interrupts.
  if (payload.agent_id) return skip('not_main_turn');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only this event reads the sub-agents' files
  const { cutOffAgents } = require('../../service/cut-agents') as typeof import('../../service/cut-agents');
  const facts = turnInterruption(payload);
  const agents = cutOffAgents(payload);
  if (agents.length === 0) return skip(`no_agent_cut kind=${facts.error}`);
  const notes: string[] = [];
  let failure: unknown;
  for (const agent of agents) {
    try {
      const attached = await sessions.claudeAgentFailed({
        ...agent,
        ...(payload.session_id === undefined ? {} : { session_id: payload.session_id }),
        ...facts,
        cut: true,
      });
      notes.push(
        attached === null
          ? `${agent.agent_id}:unknown_agent`
          : `${agent.agent_id}:${attached.interruption ?? attached.action}:${attached.state.agent_id}`,
      );
    } catch (error) {
      failure ??= error;
      notes.push(`${agent.agent_id}:error`);
    }
  }
  // After every agent had its turn: the hook's fail-open answer logs the first failure.
  if (failure !== undefined) throw failure;
  return skip(`kind=${facts.error} cut=${logValue(notes.join(' '))}`);
}
