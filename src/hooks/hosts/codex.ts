// The OpenAI Codex CLI as a host (`init --host codex`, the bins run with `--host codex`): the one place that knows it.
import { INTERRUPTION_KIND_PATTERN } from '../../core/interruption-kinds';
import type { HostAdapter, HostPayload } from './adapter';
import { recordEntryWords } from '../../core/recording-command';
import { storePin } from '../../app/store-pin';
import { cliProgram, cliWords } from './cli-words';

/** A Codex payload as the handlers read it, or why it is left alone (a note for the log). */
export type CodexTranslation = { readonly payload: HostPayload } | { readonly skip: string };

/**
 * Codex: its payloads read as Claude Code's (fromCodex), its words (a sub-agent is resumed by a `spawn_agent` of the
 * same `agent_type`; the links hold Codex thread ids), the CLI always by absolute path (cli-words.ts), recording through its `record` entry.
 */
export const codex: HostAdapter = {
  normalize: fromCodex,
  words: {
    agent: 'Codex',
    host: 'Codex',
    resuming:
      'A spawn_agent with the same agent_type resumes its session: the new sub-agent is told what was recorded.',
  },
  cliWords: (io, root) => cliWords(io, root),
  // The `record` entry, not `update`: the rule `init --host codex` writes allows these words as a prefix, outside
  // the sandbox, and the entry refuses whatever follows them but the recording (src/cli/record.ts).
  recordWords: (io, root, config) => recordEntryWords(cliProgram(io), root, storePin(root, config)),
};

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
export function fromCodex(payload: HostPayload): CodexTranslation {
  const agentId = typeof payload.agent_id === 'string' && payload.agent_id !== '' ? payload.agent_id : undefined;
  switch (payload.hook_event_name) {
    case 'UserPromptSubmit':
      return agentId === undefined ? { payload } : { skip: 'subagent_prompt' };
    case 'PostModelRequest': {
      if (payload.status !== 'failed') return { skip: 'model_request_ok' };
      if (agentId === undefined) return { skip: 'main_agent' };
      const body = typeof payload.error === 'string' ? payload.error : undefined;
      const { error: _body, status: _status, ...rest } = payload;
      return {
        payload: {
          ...rest,
          hook_event_name: 'StopFailure',
          error: errorKind(body),
          ...(body === undefined ? {} : { error_details: body }),
        },
      };
    }
    case 'PreToolUse':
      return payload.tool_name === 'spawn_agent' ? { payload: delegationOf(payload) } : { skip: 'other_tool' };
    default:
      return { payload };
  }
}

/** What a sub-agent is called without an `agent_type`: the name its SubagentStart carries then (measured). */
const CODEX_DEFAULT_AGENT_TYPE = 'default';

/**
 * A `spawn_agent` call's PreToolUse as Claude Code's `Agent` tool's: `subagent_type` ⇐ `agent_type` (Codex's
 * `default` without one, the name its SubagentStart will carry, so the offer looks up the session that start
 * attaches), `prompt` ⇐ `message` (Codex gives no short description: the task is its message, recorded once). The
 * offer only reads; SubagentStart attaches (one session).
 */
function delegationOf(payload: HostPayload): HostPayload {
  const input =
    typeof payload.tool_input === 'object' && payload.tool_input !== null
      ? (payload.tool_input as Record<string, unknown>)
      : {};
  const agentType = typeof input.agent_type === 'string' && input.agent_type.trim() !== '' ? input.agent_type : null;
  const message = typeof input.message === 'string' ? input.message : undefined;
  return {
    ...payload,
    tool_name: 'Agent',
    tool_input: {
      subagent_type: agentType ?? CODEX_DEFAULT_AGENT_TYPE,
      ...(message === undefined ? {} : { prompt: message }),
    },
  };
}

/**
 * The failure kind of a Codex `PostModelRequest` error: the Responses API's error body (`{"error": {"type", "code",
 * "message"}}`) read for a kind in Claude Code's words where one fits (a rate or usage limit, an overload, a server
 * error, a refused request, a login), else the body's own `code` or `type` when it is a plain word, else `unknown`.
 */
export function errorKind(body: string | undefined): string {
  if (body === undefined) return 'unknown';
  let error: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const inner = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).error : undefined;
    error = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
  } catch {
    // Not JSON (a transport error's words): only the words below can tell its kind.
  }
  const words = [error?.code, error?.type].filter((word): word is string => typeof word === 'string');
  const text = `${words.join(' ')} ${error === undefined ? body : ''}`.toLowerCase();
  if (/rate_limit|usage_limit|too many requests|\b429\b|quota/.test(text)) return 'rate_limit';
  if (/overload|\b529\b|\b503\b/.test(text)) return 'overloaded';
  if (/server_error|internal|\b500\b|\b502\b/.test(text)) return 'server_error';
  if (/authentication|unauthorized|invalid_api_key|\b401\b/.test(text)) return 'authentication_failed';
  if (/invalid_request/.test(text)) return 'invalid_request';
  const own = words.find((word) => INTERRUPTION_KIND_PATTERN.test(word));
  return own ?? 'unknown';
}
