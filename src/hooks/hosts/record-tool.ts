// The Agent SDK's sub-agents record their phase with an in-process MCP tool instead of a shell command. Its handler
// is told only the tool call's id (`extra`), not which sub-agent called it: the PreToolUse callback, which is told
// both (`tool_use_id`, `agent_id`), keeps the pair until the handler runs, and lets the call run without a prompt
// when it comes from the sub-agent linked to a session (the rule of the command hooks' PermissionRequest:
// handlers/permission.ts, core/claude-link.ts isRecordingAgent).
import { isRecordingAgent } from '../../core/claude-link';
import { isSessionError } from '../../core/errors';
import { PHASES } from '../../core/phase-names';
import type { HookCall } from '../../app/hook-call';
import type { Metadata } from '../../core/state';
import { logValue } from '../log';
import { eventHead } from '../answer';

/**
 * The two functions of the SDK we call, as the app passes them (`import { tool, createSdkMcpServer } from …`).
 * `Server`: what its createSdkMcpServer returns (the SDK's McpSdkServerConfigWithInstance), so `mcpServers` keeps the
 * SDK's type in the app.
 */
export interface AgentSdkToolKit<Server = unknown> {
  // The SDK's own types are generic over zod shapes; ours stay free of them so the package needs no SDK to compile.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  readonly tool: (
    name: string,
    description: string,
    inputSchema: any,
    handler: (args: any, extra: unknown) => Promise<any>,
  ) => unknown;
  readonly createSdkMcpServer: (options: {
    name: string;
    version?: string;
    tools?: any[];
    alwaysLoad?: boolean;
  }) => Server;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

/** PreToolUse's answer for our own tool from the sub-agent that owns the session: it runs without a prompt. */
export interface RecordAllowAnswer {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PreToolUse';
    readonly permissionDecision: 'allow';
    readonly permissionDecisionReason: string;
  };
}

/** An MCP tool result (`CallToolResult`): text for the model, `isError` when nothing was recorded. */
interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** The tool's input. */
interface RecordInput {
  readonly phase?: string;
  readonly metadata?: Metadata;
  readonly error?: string;
}

/** Tool calls whose PreToolUse came and whose handler has not run yet (a denied call never runs it): bounded. */
const PENDING_LIMIT = 1000;

/** The recording tool of one hooks object: its PreToolUse answer and the tool itself. */
export interface Recorder {
  preToolUse(payload: Record<string, unknown>): Promise<RecordAllowAnswer | Record<string, never>>;
  tool(sdk: AgentSdkToolKit<unknown>): unknown;
}

/**
 * The recorder on an open hook call.
 * @param toolName the tool's name as payloads carry it (`mcp__agent-session__record`)
 * @param log one log line (the hooks object's log)
 */
export function recorderOf(
  call: HookCall,
  toolName: string,
  log: (line: string, level: 'info' | 'warn' | 'error') => void,
): Recorder {
  /** tool_use_id → the Claude agent id of the sub-agent that made the call. */
  const pending = new Map<string, string>();
  const head = `tool=${logValue(toolName)}`;
  // The hooks' own line head, as every line of the SDK's log has it (`agent-sdk event="PreToolUse"`).
  const preToolUse = eventHead({ hook_event_name: 'PreToolUse' }, 'agent-sdk');

  return {
    async preToolUse(payload): Promise<RecordAllowAnswer | Record<string, never>> {
      const toolUseId = payload.tool_use_id;
      const agentId = payload.agent_id;
      if (typeof toolUseId !== 'string' || typeof agentId !== 'string' || agentId === '') {
        // The main agent has no session of its own: the app's permission flow decides, and the handler refuses.
        log(`${preToolUse} ${head} not_a_subagent`, 'info');
        return {};
      }
      try {
        const linked = await call.sessions().findByClaudeAgent(agentId);
        if (linked === null || !isRecordingAgent(linked, agentId)) {
          log(`${preToolUse} ${head} not_linked claude_agent=${logValue(agentId)}`, 'info');
          return {};
        }
        if (pending.size >= PENDING_LIMIT) pending.delete(pending.keys().next().value!);
        pending.set(toolUseId, agentId);
        log(
          `${preToolUse} ${head} recording_allowed claude_agent=${logValue(agentId)} session=${logValue(linked.agent_id)}`,
          'info',
        );
        return {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            permissionDecisionReason: `agent-session: sub-agent ${agentId} records its own session ${linked.agent_id}`,
          },
        };
      } catch (error) {
        log(`${preToolUse} ${head} error error=${logValue(messageOf(error))}`, 'error');
        return {};
      }
    },

    tool(sdk) {
      // zod (the full one: the SDK converts the shape to JSON Schema), loaded when an app asks for the tool.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (above)
      const { z } = require('zod') as typeof import('zod');
      const shape = {
        phase: z
          .enum(PHASES)
          .optional()
          .describe('The phase this sub-agent moves its session to (the phase machine decides which moves exist)'),
        metadata: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('JSON fields merged into the session metadata, e.g. {"findings": "…"}'),
        error: z.string().optional().describe('An error this sub-agent met (counted; too many fail the session)'),
      };
      return sdk.tool(
        'record',
        "Records this sub-agent's own session in agent-session: its phase, metadata (findings) or an error. " +
          'The session survives interruptions; the next delegation to the same agent type resumes it.',
        shape,
        (args: RecordInput, extra: unknown) => record(args, extra),
      );
    },
  };

  async function record(args: RecordInput, extra: unknown): Promise<ToolResult> {
    const toolUseId = toolUseIdOf(extra);
    const agentId = toolUseId === undefined ? undefined : pending.get(toolUseId);
    if (toolUseId !== undefined) pending.delete(toolUseId);
    if (agentId === undefined) {
      log(`tool ${head} not_a_session_agent tool_use=${logValue(toolUseId ?? '-')}`, 'info');
      return failure(
        'agent-session: nothing recorded; this tool records the session of a sub-agent that agent-session linked at its start (the main agent has none).',
      );
    }
    const change = {
      ...(args.phase === undefined ? {} : { phase: args.phase as (typeof PHASES)[number] }),
      ...(args.metadata === undefined ? {} : { metadata: args.metadata }),
      ...(args.error === undefined ? {} : { error: args.error }),
    };
    if (Object.keys(change).length === 0)
      return failure('agent-session: nothing recorded; give a phase, metadata or an error.');
    try {
      const sessions = call.sessions();
      const linked = await sessions.findByClaudeAgent(agentId);
      if (linked === null || !isRecordingAgent(linked, agentId)) {
        log(`tool ${head} not_linked claude_agent=${logValue(agentId)}`, 'info');
        return failure('agent-session: nothing recorded; this sub-agent is no longer linked to an open session.');
      }
      const updated = await sessions.update(linked.agent_id, change);
      log(
        `tool ${head} recorded claude_agent=${logValue(agentId)} session=${logValue(updated.agent_id)} phase=${logValue(updated.phase)}`,
        'info',
      );
      return { content: [{ type: 'text', text: `Updated session ${updated.agent_id}: phase ${updated.phase}` }] };
    } catch (error) {
      const code = isSessionError(error) ? ` (${error.code})` : '';
      log(`tool ${head} refused claude_agent=${logValue(agentId)} error=${logValue(messageOf(error))}`, 'warn');
      return failure(`agent-session: nothing recorded${code}: ${messageOf(error)}`);
    }
  }
}

/**
 * The tool call's id in the handler's `extra`: the SDK (0.3.332) passes `{ signal, _meta: { "claudecode/toolUseId":
 * <id>, progressToken }, requestId }`, the id the same as PreToolUse's `tool_use_id`.
 */
function toolUseIdOf(extra: unknown): string | undefined {
  if (typeof extra !== 'object' || extra === null) return undefined;
  const meta = (extra as Record<string, unknown>)._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const id = (meta as Record<string, unknown>)['claudecode/toolUseId'];
  return typeof id === 'string' ? id : undefined;
}

function failure(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
