/** The agent name Claude Code uses when `subagent_type` is absent. */
export declare const DEFAULT_AGENT_TYPE = "general-purpose";
/** True for the tool that delegates to a sub-agent (the matcher of its rows in src/core/events.ts). */
export declare function isDelegationTool(name: string | undefined): boolean;
/** The agent type a delegation asks for: its `subagent_type`, else Claude Code's default agent. */
export declare function agentNameOf(toolInput: unknown): string;
