import type { HostAdapter, HostPayload } from './adapter';
/** A Codex payload as the handlers read it, or why it is left alone (a note for the log). */
export type CodexTranslation = {
    readonly payload: HostPayload;
} | {
    readonly skip: string;
};
/**
 * Codex: its payloads read as Claude Code's (fromCodex), its words (a sub-agent is resumed by a `spawn_agent` of the
 * same `agent_type`; the links hold Codex thread ids), the CLI always by absolute path (cli-words.ts), recording through its `record` entry.
 */
export declare const codex: HostAdapter;
/**
 * The OpenAI Codex CLI's hook payload (0.169.0) in the shape of Claude Code's, which it mostly already is: the same
 * `hook_event_name`, `cwd`, `session_id`, and for a thread-spawned sub-agent `agent_id` (its thread id) and
 * `agent_type` (the `agent_type` given to `spawn_agent`, `default` without one). So SessionStart, SubagentStart,
 * SubagentStop and PermissionRequest go to the handlers as they are, and their answers
 * (`hookSpecificOutput` with `additionalContext`, a PermissionRequest `decision`) are Codex's too. What differs:
 * - a sub-agent's model request that failed (an API error, a usage limit) is `PostModelRequest` with `status:
 *   "failed"` and the API's error body as text in `error`, and no SubagentStop follows: it is Claude Code's
 *   StopFailure of that agent, its kind read from the body (errorKind);
 * - `UserPromptSubmit` fires for a sub-agent's own first prompt too (with its `agent_id`): only the main agent's gets
 *   the parked overview;
 * - the main agent's own failed request, and every other model request, is not ours;
 * - `PreToolUse` of `spawn_agent` (which a hook matcher `Agent` matches, Codex 0.141.0 on: openai/codex #24149;
 *   the payload keeps `tool_name: "spawn_agent"`, `tool_input` `{agent_type, message}`) is Claude Code's `Agent`
 *   delegation (delegationOf), so a parked session is offered for resume before the sub-agent starts; any other
 *   tool's PreToolUse is not ours (SendMessage is Claude Code's continuation of its transcripts).
 * Everything else passes unchanged.
 */
export declare function fromCodex(payload: HostPayload): CodexTranslation;
/**
 * The failure kind of a Codex `PostModelRequest` error: the Responses API's error body (`{"error": {"type", "code",
 * "message"}}`) read for a kind in Claude Code's words where one fits (a rate or usage limit, an overload, a server
 * error, a refused request, a login), else the body's own `code` or `type` when it is a plain word, else `unknown`.
 */
export declare function errorKind(body: string | undefined): string;
