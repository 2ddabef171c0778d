import { parseToolInput } from '../../generated/claude-parsers';

/** The agent name Claude Code uses when `subagent_type` is absent. */
export const DEFAULT_AGENT_TYPE = 'general-purpose';

/** True for the tool that delegates to a sub-agent (the matcher of its rows in src/core/events.ts). */
export function isDelegationTool(name: string | undefined): boolean {
  // The tool was renamed from Task to Agent in Claude Code 2.1.63; both names are the same tool.
  return name === 'Task' || name === 'Agent';
}

/** The agent type a delegation asks for: its `subagent_type`, else Claude Code's default agent. */
export function agentNameOf(toolInput: unknown): string {
  let input = toolInput;
  if (typeof input === 'string') {
    // Some hosts and wrappers pass tool_input as a JSON string.
    try {
      input = JSON.parse(input);
    } catch {
      // Not JSON: no subagent_type can be read from it, so Claude's default agent applies.
      input = undefined;
    }
  }
  // Anything but an object has no subagent_type (the schema reads a wrong type as absent).
  const name = parseToolInput(input)?.subagent_type?.trim();
  return name ? name : DEFAULT_AGENT_TYPE;
}
