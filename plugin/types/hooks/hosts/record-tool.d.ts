import type { HookCall } from '../../app/hook-call';
/**
 * The two functions of the SDK we call, as the app passes them (`import { tool, createSdkMcpServer } from …`).
 * `Server`: what its createSdkMcpServer returns (the SDK's McpSdkServerConfigWithInstance), so `mcpServers` keeps the
 * SDK's type in the app.
 */
export interface AgentSdkToolKit<Server = unknown> {
    readonly tool: (name: string, description: string, inputSchema: any, handler: (args: any, extra: unknown) => Promise<any>) => unknown;
    readonly createSdkMcpServer: (options: {
        name: string;
        version?: string;
        tools?: any[];
        alwaysLoad?: boolean;
    }) => Server;
}
/** PreToolUse's answer for our own tool from the sub-agent that owns the session: it runs without a prompt. */
export interface RecordAllowAnswer {
    readonly hookSpecificOutput: {
        readonly hookEventName: 'PreToolUse';
        readonly permissionDecision: 'allow';
        readonly permissionDecisionReason: string;
    };
}
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
export declare function recorderOf(call: HookCall, toolName: string, log: (line: string, level: 'info' | 'warn' | 'error') => void): Recorder;
