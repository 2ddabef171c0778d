import type { Host } from '../../core/host';
import type { HostAdapter } from './adapter';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { opencode } from './opencode';

/**
 * The adapter of each host (core/host.ts): the compiler demands one per host. The Agent SDK fires Claude Code's own
 * events with Claude Code's own payloads, in its words: Claude Code's adapter; its in-process runner (agent-sdk.ts)
 * adds the recording tool its sub-agents use instead of the CLI. opencode's plugin (opencode-plugin.ts) makes Claude
 * Code's payloads of its hooks.
 */
export const ADAPTERS = {
  'claude-code': claudeCode,
  codex,
  'agent-sdk': claudeCode,
  opencode,
} satisfies Record<Host, HostAdapter>;

export type { CliPlace, HostAdapter, HostPayload } from './adapter';
