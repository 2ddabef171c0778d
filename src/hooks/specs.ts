import { logValue } from './log';
import type { HookSpec } from './run';
import { preDelegate, subagentStop, type PreDelegateAnswer, type SubagentStopAnswer } from './seed/seed-protocol';
import { cutText } from '../core/text';

/** `pre-delegate`: should the next delegation resume the previous session? */
export const preDelegateHook: HookSpec<PreDelegateAnswer> = {
  logFile: 'pre_delegate.log',
  handle: preDelegate,
  onBadInput: (problem) => ({ should_resume: false, reason: 'invalid_input', error: problem }),
  onError: () => ({ should_resume: false, reason: 'error' }),
  describe: (input, answer) => {
    const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
    const agentId = text(answer && 'agent_id' in answer ? answer.agent_id : fields.agent_id);
    const decision = `should_resume=${answer?.should_resume ?? false} reason=${text(answer?.reason ?? 'none')}`;
    return `pre-delegate agent=${text(fields.agent_name)} task=${text(fields.task_id)} agent_id=${agentId} ${decision}`;
  },
};

/** `subagent-stop`: finalize the session of the agent that stopped. */
export const subagentStopHook: HookSpec<SubagentStopAnswer> = {
  logFile: 'subagent_stop.log',
  handle: subagentStop,
  onBadInput: (problem) => ({ finalized: false, reason: 'invalid_input', error: problem }),
  onError: () => ({ finalized: false, reason: 'error' }),
  describe: (_input, answer) =>
    answer === null
      ? 'subagent-stop no answer'
      : answer.finalized
        ? `subagent-stop agent_id=${text(answer.agent_id)} finalized=true outcome=${text(answer.outcome)}`
        : `subagent-stop agent_id=${text(answer.agent_id)} finalized=false reason=${text(answer.reason)}`,
};

// --- internal ---

function text(value: unknown): string {
  if (value === undefined || value === null) return '"-"';
  // Only plain values are logged: rendering an arbitrary input could be huge, or nested past the stack.
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return `"(${Array.isArray(value) ? 'array' : typeof value})"`;
  }
  const s = String(value);
  return logValue(cutText(s, 120, '...'));
}
