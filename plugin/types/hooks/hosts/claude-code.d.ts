import type { AgentLaunchFacts } from '../../core/permission';
import type { HostAdapter, HostPayload } from './adapter';
/** True for a payload of Claude Code's own hook protocol: an object with a string `hook_event_name`. */
export declare function isClaudeCodePayload(value: unknown): value is HostPayload;
/**
 * True when text that could not be read as a whole JSON document (over the size cap, cut short) is a Claude Code
 * payload: it has a `hook_event_name` key. Inside a JSON string the quotes would be escaped, so a seed payload
 * that merely mentions the key does not match.
 */
export declare function isClaudeCodeText(text: string): boolean;
/** The payload's `cwd` when it is an absolute path (the live working folder of Claude), else undefined. */
export declare function payloadCwd(value: Record<string, unknown>): string | undefined;
/** Claude Code: its payloads as they are, its words, the plugin's `agent-session` where installed as one. */
export declare const claudeCode: HostAdapter;
/**
 * What Claude Code tells each hook it starts (measured on 2.1.330 and 2.1.332): `CLAUDE_CODE_SESSION_ATTENDED` `1` in
 * an interactive session, `0` under `claude -p`, set by that very process for its children (never inherited from a
 * shell it was started from), and `CLAUDE_CODE_ENTRYPOINT` (`cli`, `sdk-cli`). Undefined when it says neither (an
 * older version): the sub-agent's files are read instead.
 */
export declare function claudeCodeLaunch(env: Readonly<Record<string, string | undefined>>): AgentLaunchFacts | undefined;
