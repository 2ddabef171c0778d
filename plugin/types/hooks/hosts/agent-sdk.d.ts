import type { ClaudeCodeAnswer } from '../handlers';
import type { UpdatedInputAnswer } from '../handlers/continue';
import type { PermissionAnswer } from '../handlers/permission';
import { type AgentSdkToolKit, type RecordAllowAnswer } from './record-tool';
export type { AgentSdkToolKit } from './record-tool';
/** The in-process MCP server's name: its tool is `mcp__<name>__record` to the model. */
export declare const SDK_SERVER_NAME = "agent-session";
/** The tool sub-agents record their phase with, as the model and the hooks' payloads name it. */
export declare const RECORD_TOOL = "mcp__agent-session__record";
/** The log file of the in-process hooks, beside the command hooks' (pre-delegate.log, subagent-stop.log). */
export declare const SDK_LOG_FILE = "agent-sdk.log";
/** What a callback answers: one of our hook answers, or `{}` (nothing to say: the SDK goes on as without us). */
export type SdkHookOutput = ClaudeCodeAnswer | PermissionAnswer | RecordAllowAnswer | UpdatedInputAnswer | Record<string, never>;
/** A hook callback in the SDK's shape (`HookCallback`): the payload, the tool use id, an abort signal. */
export type SdkHookCallback = (input: unknown, toolUseId: string | undefined, options: {
    readonly signal: AbortSignal;
}) => Promise<SdkHookOutput>;
/** The SDK's permission answer (`PermissionResult`), as far as ours go. */
export type SdkPermissionResult = {
    readonly behavior: 'allow';
    readonly updatedInput: Record<string, unknown>;
} | {
    readonly behavior: 'deny';
    readonly message: string;
};
/** The SDK's permission callback (`CanUseTool`), as an app's own one is passed to ours as `fallback`. */
export type SdkCanUseTool = (toolName: string, input: Record<string, unknown>, options: {
    readonly signal?: AbortSignal;
    readonly agentID?: string;
    readonly toolUseID?: string;
}) => Promise<SdkPermissionResult>;
/** The deny words of the permission callback when it is not ours to decide and the app gave no fallback. */
export declare const SDK_NOT_DECIDED = "Permission to use this tool was not granted: no one can answer this request here.";
/** One matcher group of `options.hooks` (`HookCallbackMatcher`). */
export interface SdkHookMatcher {
    readonly matcher?: string;
    readonly hooks: SdkHookCallback[];
}
/** Where the hooks object finds its store, and how it reaches the SDK. Every field is optional. */
export interface AgentSessionHooksOptions<Server = unknown> {
    /** The store folder; default as the CLI and the command hooks: AGENT_SESSION_DIR, else `<project>/.claude/session`. */
    readonly dir?: string;
    /** The folder the project is searched from; default the working directory (pass the `cwd` you give `query()`). */
    readonly cwd?: string;
    /** The environment read for AGENT_SESSION_* settings; default `process.env`. */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /**
     * The SDK's `tool` and `createSdkMcpServer` (pass them from your import: the very SDK your app runs); default:
     * loaded with `import('@anthropic-ai/claude-agent-sdk')`.
     */
    readonly sdk?: AgentSdkToolKit<Server>;
}
/** What `query()` takes from us: spread `hooks` and `mcpServers` into its options; close when done. */
export interface AgentSessionHooks<Server = unknown> {
    /** `options.hooks`: our callbacks per event. Merge them with your own per event if you have any. */
    readonly hooks: Record<string, SdkHookMatcher[]>;
    /** `options.mcpServers`: the in-process server holding the `record` tool. */
    readonly mcpServers: Record<string, Server>;
    /** The tool's full name as the model sees it (`mcp__agent-session__record`), e.g. for an agent's `tools` list. */
    readonly recordTool: string;
    /** The store folder in use. */
    readonly root: string;
    /**
     * Tells agent-session that a query was stopped (`interrupt()`, its abort controller, a thrown iteration): the SDK then
     * fires no SubagentStop, so every sub-agent started through these hooks that has not stopped (of the query whose
     * `session_id` is given, else of every query) has its session wait, interrupted (kind `app_stopped`), for the next
     * delegation to carry it on. Never rejects (a failure is logged). @returns how many sessions it interrupted
     */
    interrupted(sessionId?: string): Promise<number>;
    /**
     * `options.canUseTool` of `query()` (issue 33, docs/permissions.md): a sub-agent's call (the SDK gives its `agentID`)
     * that is its own recording command or the call the user approved for its session (once) is allowed; one nobody
     * can answer (the SDK's run is non-interactive; `permission_inbox`) is parked in its session and denied with the
     * message naming the inbox item. Everything else (the main agent's calls, `permission_inbox: off`) goes to
     * `fallback` (your own permission callback) if you give one, else is denied with the SDK's plain words.
     */
    canUseTool(toolName: string, input: Record<string, unknown>, options: {
        readonly signal?: AbortSignal;
        readonly agentID?: string;
        readonly toolUseID?: string;
    }, fallback?: SdkCanUseTool): Promise<SdkPermissionResult>;
    /**
     * Closes the store (a PostgreSQL connection) after `interrupted()` for the sub-agents still running (none when every
     * query ended normally); later events are answered with nothing.
     */
    close(): Promise<void>;
}
/**
 * A ready hooks object for the Claude Agent SDK's `query()`: the behaviour of the Claude Code hooks in-process (the
 * parked sessions listed before a delegation, the resumed session given to a sub-agent at SubagentStart, the stop
 * policy at SubagentStop, interruptions at StopFailure), and an in-process MCP tool with which a sub-agent records
 * its phase, findings or an error without a shell command or a permission prompt. Pass `settingSources: []` (or
 * settings without our command hooks) to `query()`, so the same events are not answered twice.
 * Every callback fails open: whatever breaks is logged (`agent-sdk.log` in the hooks' log folder) and answered `{}`.
 * @throws SessionError E_IO when the store root cannot be resolved; E_USAGE when the SDK is needed and cannot be loaded
 */
export declare function agentSessionHooks<Server = unknown>(options?: AgentSessionHooksOptions<Server>): Promise<AgentSessionHooks<Server>>;
/**
 * The interruption kind of a sub-agent whose query the app stopped (core/interruption.ts words it); no message: the
 * contexts would quote it as the host's.
 */
export declare const APP_STOPPED = "app_stopped";
