import type { Host } from '../../core/host';
import type { HostAdapter } from './adapter';
import { claudeCode } from './claude-code';
import { codex } from './codex';

/**
 * The adapter of each host (core/host.ts): the compiler demands one per host. The Agent SDK fires Claude Code's own
 * events with Claude Code's own payloads, in its words: Claude Code's adapter; its in-process runner (agent-sdk.ts)
 * adds the recording tool its sub-agents use instead of the CLI.
 */
export const ADAPTERS = {
  'claude-code': claudeCode,
  codex,
  'agent-sdk': claudeCode,
} satisfies Record<Host, HostAdapter>;

export type { CliPlace, HostAdapter, HostPayload } from './adapter';
