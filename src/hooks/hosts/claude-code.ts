// Claude Code as a host: its payloads are the shape every handler reads, so its adapter passes them as they are.
import type { AgentLaunchFacts } from '../../core/permission';
import type { HostAdapter, HostPayload } from './adapter';
import { cliWords } from './cli-words';

/** True for a payload of Claude Code's own hook protocol: an object with a string `hook_event_name`. */
export function isClaudeCodePayload(value: unknown): value is HostPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Record<string, unknown>).hook_event_name === 'string'
  );
}

/**
 * True when text that could not be read as a whole JSON document (over the size cap, cut short) is a Claude Code
 * payload: it has a `hook_event_name` key. Inside a JSON string the quotes would be escaped, so a seed payload
 * that merely mentions the key does not match.
 */
export function isClaudeCodeText(text: string): boolean {
  return /"hook_event_name"\s*:\s*"/.test(text);
}

/** The payload's `cwd` when it is an absolute path (the live working folder of Claude), else undefined. */
export function payloadCwd(value: Record<string, unknown>): string | undefined {
  const cwd = value.cwd;
  return typeof cwd === 'string' && (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd)) ? cwd : undefined;
}

/** Claude Code: its payloads as they are, its words, the plugin's `agent-session` where installed as one. */
export const claudeCode: HostAdapter = {
  normalize: (payload) => ({ payload }),
  words: {
    agent: 'Claude',
    host: 'Claude Code',
    resuming: 'A delegation to the same agent type resumes its session with a new agent primed with what it recorded.',
    continuing:
      'SendMessage to a Claude agent id said continuable continues that agent itself with its whole context (nothing re-read; in -p load the tool first with ToolSearch "select:SendMessage").',
  },
  cliWords: (io, root) => cliWords(io, root),
  launchFacts: claudeCodeLaunch,
};

/**
 * What Claude Code tells each hook it starts (measured on 2.1.330 and 2.1.332): `CLAUDE_CODE_SESSION_ATTENDED` `1` in
 * an interactive session, `0` under `claude -p`, set by that very process for its children (never inherited from a
 * shell it was started from), and `CLAUDE_CODE_ENTRYPOINT` (`cli`, `sdk-cli`). Undefined when it says neither (an
 * older version): the sub-agent's files are read instead.
 */
export function claudeCodeLaunch(env: Readonly<Record<string, string | undefined>>): AgentLaunchFacts | undefined {
  const said = env.CLAUDE_CODE_SESSION_ATTENDED;
  if (said !== '0' && said !== '1') return undefined;
  const entrypoint = env.CLAUDE_CODE_ENTRYPOINT;
  return { attended: said === '1', ...(entrypoint === undefined || entrypoint === '' ? {} : { entrypoint }) };
}
