import type { HostAdapter } from './adapter';
/**
 * opencode: the plugin's payloads as they are (it makes them in Claude Code's shape), its words (a sub-agent is
 * resumed by a `task` call with the same `subagent_type`; the links hold the task calls' ids), the CLI by absolute path
 * run by `node` from the shell's PATH: the plugin runs inside opencode's own runtime (Bun), whose executable is
 * opencode itself, not a node to run the CLI with.
 */
export declare const opencode: HostAdapter;
