// The scripted model of the continuation plays (issue 34): a main agent that follows a plan of steps per run
// (delegate, load SendMessage with ToolSearch, SendMessage to an agent id), and a sub-agent that runs the commands it
// is given and then reports how many tool results it can see, so that a continued sub-agent's answer (and its
// request) tells whether its earlier context reached it. Nothing of agent-session is involved.
import { stringsIn } from './claude-host';
import type { MessagesBody, RecordedRequest, Reply, Script } from './model-server';

/** Written into the test sub-agent's definition; its requests carry it in their system prompt. */
export const CONTINUE_MARKER = 'HOST-TEST-CONTINUE-SUBAGENT';

/** In a `CMD:`, replaced by the recording command of the agent's SubagentStart context (agent-session's). */
export const UPDATE_PLACEHOLDER = '@UPDATE@';

/** What a `WRITE:` step writes. */
export const WRITTEN_CONTENT = 'written by the scripted sub-agent\n';

/** A command whose output carries this makes the sub-agent's next request fail with HTTP 400 (Claude Code's StopFailure). */
export const FAIL_MARKER = 'FAIL400';

/** What the API answers the request after a FAIL400 output (Claude Code does not retry a 400). */
export const INJECTED_400 = {
  status: 400,
  type: 'invalid_request_error',
  message: 'Injected by the continuation play: this request is refused',
} as const;

/** One step of the main agent's plan in a run; `to: 'spawned'` sends to the agent the run's own Agent call started. */
export type MainStep =
  | {
      readonly kind: 'agent';
      readonly prompt: string;
      readonly subagentType?: string;
      readonly background?: boolean;
    }
  | { readonly kind: 'tool-search' }
  | { readonly kind: 'bash'; readonly command: string }
  | { readonly kind: 'send'; readonly to: string; readonly message: string }
  | { readonly kind: 'text'; readonly text: string };

/** The marker of a run's prompt: the main agent counts its steps from the last user message holding it. */
export function runMarker(label: string): string {
  return `[[PLAY ${label}]]`;
}

const text = (value: string): Reply => ({ blocks: [{ type: 'text', text: value }] });
const toolUse = (name: string, input: Record<string, unknown>): Reply => ({
  blocks: [{ type: 'tool_use', name, input }],
});

type Message = NonNullable<MessagesBody['messages']>[number];
type Block = { type?: string; text?: string; content?: unknown; is_error?: boolean };

/** The index of the last item that passes `test`, or -1 (Array.prototype.findLastIndex is ES2023). */
function lastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) if (test(items[i]!)) return i;
  return -1;
}

function blocksOf(message: Message): Block[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : Array.isArray(message.content)
      ? (message.content as Block[])
      : [];
}

/** The tool results of messages, in order: their text. */
export function toolResultTexts(messages: readonly Message[]): string[] {
  return messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => blocksOf(m).filter((b) => b.type === 'tool_result'))
    .map((b) => stringsIn(b.content).join(' '));
}

/** The Bash commands a conversation's assistant turns ran, in order. */
export function bashCommands(messages: readonly Message[]): string[] {
  return messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => blocksOf(m) as { type?: string; name?: string; input?: { command?: string } }[])
    .filter((b) => b.type === 'tool_use' && b.name === 'Bash')
    .map((b) => String(b.input?.command));
}

/**
 * The SendMessage tool results of the last main request among `requests`: what the model saw of the message sent, as
 * Claude Code made it.
 */
export function sendMessageResults(requests: readonly RecordedRequest[]): string[] {
  const main = requests.filter((r) => r.role === 'main').at(-1);
  const messages = (main?.body as MessagesBody | undefined)?.messages ?? [];
  const sendIds = new Set(
    messages
      .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
      .flatMap((m) => m.content as { type?: string; name?: string; id?: string }[])
      .filter((b) => b.type === 'tool_use' && b.name === 'SendMessage')
      .map((b) => String(b.id)),
  );
  return messages
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => m.content as { type?: string; tool_use_id?: string; content?: unknown }[])
    .filter((b) => b.type === 'tool_result' && sendIds.has(String(b.tool_use_id)))
    .map((b) => stringsIn(b.content).join(' '));
}

/** Whether a request is a sub-agent's: our definition's marker, or Claude Code's billing header says so. */
export function isSubagentRequest(body: MessagesBody): boolean {
  return stringsIn(body.system).some((s) => s.includes(CONTINUE_MARKER) || s.includes('cc_is_subagent=true'));
}

/**
 * The sub-agent: it runs, one per turn, the `CMD:<command>` (Bash), `READ:<absolute path>` (Read) and
 * `WRITE:<absolute path>` (Write, WRITTEN_CONTENT) of the last user message that gives any, then ends with
 * `SUB-END after <n> tool results; last result: <text>` (n: every tool result of its whole conversation). The turn
 * after a command whose output holds FAIL400 is answered with HTTP 400 instead.
 */
function subagentReply(body: MessagesBody): Reply {
  const messages = body.messages ?? [];
  const at = lastIndex(
    messages,
    (m) => m.role === 'user' && blocksOf(m).some((b) => b.type === 'text' && /(CMD|READ|WRITE):/.test(b.text ?? '')),
  );
  const instruction =
    at < 0
      ? ''
      : blocksOf(messages[at]!)
          .map((b) => (b.type === 'text' ? b.text : ''))
          .join('\n');
  const commands = [...instruction.matchAll(/(CMD|READ|WRITE):(.+?)(?=\s+(?:CMD|READ|WRITE):|\n|$)/g)].map((m) => ({
    tool: m[1] === 'READ' ? 'Read' : m[1] === 'WRITE' ? 'Write' : 'Bash',
    argument: m[2]!.trim(),
  }));
  const since = toolResultTexts(messages.slice(at + 1));
  if (since.at(-1)?.includes(FAIL_MARKER) === true) return { blocks: [], error: INJECTED_400 };
  const next = commands[since.length];
  // `@UPDATE@` stands for the recording command agent-session's SubagentStart context gave this agent (the product's
  // plays: continue-product.ts); a continued agent finds it in its first start's context, in its transcript.
  if (next !== undefined && next.argument.includes(UPDATE_PLACEHOLDER)) {
    const command = stringsIn(messages)
      .map((s) => /^- phase: (.+?) --phase </m.exec(s)?.[1])
      .find((c) => c !== undefined);
    next.argument = next.argument.replace(UPDATE_PLACEHOLDER, command ?? 'echo NO-RECORDING-COMMAND-IN-CONTEXT');
  }
  if (next !== undefined)
    return next.tool === 'Read'
      ? toolUse('Read', { file_path: next.argument })
      : next.tool === 'Write'
        ? toolUse('Write', { file_path: next.argument, content: WRITTEN_CONTENT })
        : toolUse('Bash', { command: next.argument, description: 'scripted command' });
  const all = toolResultTexts(messages);
  return text(`SUB-END after ${all.length} tool results; last result: ${(all.at(-1) ?? 'none').slice(0, 200)}`);
}

/** The agent ids the main agent's tool results name (`agentId: a…` of a foreground result, or an async launch's). */
export function agentIdsIn(messages: readonly Message[]): string[] {
  return toolResultTexts(messages).flatMap((t) => [...t.matchAll(/agentId: (a[0-9a-f]{16})/g)].map((m) => m[1]!));
}

function mainReply(step: MainStep | undefined, messages: readonly Message[]): Reply {
  if (step === undefined) return text('DONE');
  switch (step.kind) {
    case 'agent':
      return toolUse('Agent', {
        description: 'Continue test',
        prompt: step.prompt,
        subagent_type: step.subagentType ?? 'continue-tester',
        ...(step.background === false ? { run_in_background: false } : {}),
      });
    case 'tool-search':
      return toolUse('ToolSearch', { query: 'select:SendMessage' });
    case 'bash':
      return toolUse('Bash', { command: step.command, description: 'scripted command' });
    case 'send': {
      const to = step.to === 'spawned' ? (agentIdsIn(messages).at(-1) ?? 'no-agent-spawned') : step.to;
      return toolUse('SendMessage', { to, message: step.message, summary: 'continue the task' });
    }
    case 'text':
      return text(step.text);
  }
}

/**
 * The model of the continuation plays: a sub-agent's request (see subagentReply); a request with the Agent tool is
 * the main agent's, which plays `plans[run]` one step per assistant turn since the run's marker (so `--resume`, which
 * replays the earlier runs' turns, starts the plan afresh), then answers DONE; anything else (titles, summaries) OK.
 */
export function continueScript(plans: Readonly<Record<string, readonly MainStep[]>>): Script {
  return (body, request) => {
    if (isSubagentRequest(body)) return { role: 'subagent', reply: subagentReply(body) };
    if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return { role: 'other', reply: text('OK.') };
    const messages = body.messages ?? [];
    const marker = runMarker(request.run);
    const start = lastIndex(messages, (m) => m.role === 'user' && stringsIn(m.content).some((s) => s.includes(marker)));
    const turns = messages.slice(start + 1).filter((m) => m.role === 'assistant').length;
    return { role: 'main', reply: mainReply(plans[request.run]?.[turns], messages) };
  };
}
