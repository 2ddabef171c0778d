// The one table of the host events agent-session answers: data only. The wirings are derived from it (`init`'s
// Claude Code settings and Codex hooks: src/cli/init/settings.ts wiringsFor; the plugin's hooks/hooks.json:
// scripts/build-plugin.mjs; the Agent SDK's callbacks: src/hooks/hosts/agent-sdk.ts), the code cache's representative
// runs (scripts/loader/make-cache.cjs) and the handler map (src/hooks/handlers/index.ts, one handler per row, which the
// compiler demands). A new event: one row here and one handler.
import type { Host } from './host';

/**
 * The hook bin a wiring runs. Both answer every host event alike (the runner, src/hooks/run.ts, tells a host's payload
 * by its `hook_event_name`); the split only means something for the seed protocol, where each bin has its own.
 */
export type HookBin = 'pre-delegate' | 'subagent-stop';

/** One host event: its name, the tool matcher of its wiring (none: every occurrence), its bin, the hosts that fire it. */
export interface EventRow {
  readonly event: string;
  /** The tool names the wiring matches, as Claude Code's settings write them (`Task|Agent`); a regex. */
  readonly matcher?: string;
  readonly bin: HookBin;
  readonly hosts: readonly Host[];
  /**
   * The first version of a host that knows the event, where older ones are still in use: `init` wires it only for a
   * host found at that version or later (Claude Code 2.1.332 reports an unknown event in a settings file as an invalid
   * setting, in a dialog when attended; a Codex before 0.141.0 never fires the row for the tool it matches), and says
   * so otherwise.
   */
  readonly since?: Partial<Readonly<Record<Host, string>>>;
}

/**
 * Every event answered, in the order the wirings list them. The Claude Code rows are what `init` writes into
 * `.claude/settings.json` and the plugin wires; the Agent SDK answers the same (in-process); Codex (0.171.0) fires the
 * rows that name it, with the same payload shape; opencode's plugin (src/hooks/hosts/opencode.ts) reads its own
 * hooks and events as the rows that name it. The delegation tool is `Task` before Claude Code 2.1.63, `Agent` after.
 */
export const EVENTS = [
  // A delegation: a resume offered (its context arrives after the tool's result, see SessionStart below). SendMessage:
  // a parked agent continued with its context (its transcript brought from an earlier session,
  // src/hooks/handlers/continue.ts). Codex matches its `spawn_agent` by the alias `Agent` (an exact name: Codex has no
  // Task or SendMessage, and its adapter leaves any other tool alone), seen from 0.141.0 (0.140.0 ran no hook at all
  // in the same play). Codex needs no PostToolUse: it starts a sub-agent's hooks in order (SubagentStart before its
  // first request), so the race PostToolUse settles for Claude Code does not happen.
  {
    event: 'PreToolUse',
    matcher: 'Task|Agent|SendMessage',
    bin: 'pre-delegate',
    hosts: ['claude-code', 'codex', 'agent-sdk'],
    since: { codex: '0.141.0' },
  },
  // A sub-agent's own recording command runs without a prompt, and a headless run's request of any tool (Bash, Write,
  // Edit, an MCP tool…) that nobody can answer becomes an inbox item (src/hooks/handlers/permission.ts). No matcher:
  // it fires only when the host would ask, so tool calls that need no permission never start it.
  {
    event: 'PermissionRequest',
    bin: 'pre-delegate',
    // opencode: a sub-agent's `permission.asked` event for bash, replied to through its client.
    hosts: ['claude-code', 'codex', 'agent-sdk', 'opencode'],
  },
  // opencode: its `task` tool's `tool.execute.before` / `tool.execute.after` (the agent id is the tool call's id).
  { event: 'SubagentStart', bin: 'pre-delegate', hosts: ['claude-code', 'codex', 'agent-sdk', 'opencode'] },
  { event: 'SubagentStop', bin: 'subagent-stop', hosts: ['claude-code', 'codex', 'agent-sdk', 'opencode'] },
  // A sub-agent that dies of an API error or a usage limit gets StopFailure and no SubagentStop; no matcher: every
  // failure kind (its matcher values) interrupts it the same way.
  // opencode: a child session's `session.error`, or its task part turned `error`.
  { event: 'StopFailure', bin: 'subagent-stop', hosts: ['claude-code', 'agent-sdk', 'opencode'] },
  // Claude Code 2.1.335+: an interrupt ended the main turn (Esc, a denied permission…); the foreground sub-agents it
  // cut off get neither SubagentStop nor StopFailure (src/hooks/handlers/interrupt.ts). Older versions never fire it.
  { event: 'Interrupt', bin: 'subagent-stop', hosts: ['claude-code'], since: { 'claude-code': '2.1.335' } },
  // A delegation launched: a background agent attached as it starts (its SubagentStart runs in another process).
  { event: 'PostToolUse', matcher: 'Task|Agent', bin: 'subagent-stop', hosts: ['claude-code', 'agent-sdk'] },
  // The parked sessions, told to the main agent before it decides to delegate. The Agent SDK has not been seen firing
  // SessionStart: UserPromptSubmit lists them in its place.
  { event: 'SessionStart', bin: 'pre-delegate', hosts: ['claude-code', 'codex', 'agent-sdk'] },
  // opencode: `chat.message` of the main agent.
  { event: 'UserPromptSubmit', bin: 'pre-delegate', hosts: ['claude-code', 'codex', 'agent-sdk', 'opencode'] },
  // The main agent's turn ends: the person is told, in a line Claude Code shows them (`systemMessage`), of each decision
  // that started waiting and was not told yet on this machine (src/hooks/handlers/told.ts).
  { event: 'Stop', bin: 'subagent-stop', hosts: ['claude-code'] },
  // Codex's model request; a sub-agent's that failed (an API error, a usage limit) is its StopFailure: no
  // SubagentStop follows (src/hooks/hosts/codex.ts reads it so).
  { event: 'PostModelRequest', bin: 'subagent-stop', hosts: ['codex'] },
] as const satisfies readonly EventRow[];

/** The name of an event answered (a row of EVENTS). */
export type EventName = (typeof EVENTS)[number]['event'];

/** The rows a host fires, in the table's order: its wiring. */
export function eventsOf(host: Host): readonly EventRow[] {
  return EVENTS.filter((row) => (row.hosts as readonly Host[]).includes(host));
}

/**
 * The rows of `host` that its version `found` knows (see EventRow.since); a row with a `since` is left out when the
 * version is unknown (null): an unknown event breaks an older host, a missing one only loses what it would add.
 */
export function knownRows(rows: readonly EventRow[], host: Host, found: string | null): EventRow[] {
  return rows.filter((row) => {
    const since = row.since?.[host];
    return since === undefined || (found !== null && compareVersions(found, since) >= 0);
  });
}

/** Orders two `x.y.z` versions numerically (a missing part counts as 0). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map((part) => Number.parseInt(part, 10) || 0));
  for (let i = 0; i < 3; i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}
