import type { HostAdapter } from './adapter';
/**
 * The adapter of each host (core/host.ts): the compiler demands one per host. The Agent SDK fires Claude Code's own
 * events with Claude Code's own payloads, in its words: Claude Code's adapter; its in-process runner (agent-sdk.ts)
 * adds the recording tool its sub-agents use instead of the CLI. opencode's plugin (opencode-plugin.ts) makes Claude
 * Code's payloads of its hooks.
 */
export declare const ADAPTERS: {
    'claude-code': HostAdapter;
    codex: HostAdapter;
    'agent-sdk': HostAdapter;
    opencode: HostAdapter;
};
export type { CliPlace, HostAdapter, HostPayload } from './adapter';
