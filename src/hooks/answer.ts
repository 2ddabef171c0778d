// The one answer of a host's hook payload, for every host and both runners (the process hooks: run.ts; the Agent SDK's
// in-process callbacks: hosts/agent-sdk.ts): the host's adapter (hosts/) reads it, the event's handler (handlers/)
// answers it; with the one fail-open step and the one log write the runners share.
import { continuationSettingsOf, logs } from '../core/config';
import type { EventName } from '../core/events';
import { DEFAULT_HOST, type Host } from '../core/host';
import type { AgentLaunchFacts } from '../core/permission';
import type { HookCall } from '../app/hook-call';
import type { PersonChannel } from '../app/told';
import type { Sessions } from '../service/sessions';
import { parsePayload } from '../generated/claude-parsers';
import { nonEmpty } from '../platform/env';
import { isDirectory } from '../platform/files';
import { resolveFrom } from '../platform/working-directory';
import { HANDLERS, type HookAnswer } from './handlers';
import { skip, type Handler, type HandlerContext, type HandlerOutcome } from './handlers/handler';
import { ADAPTERS, type HostPayload } from './hosts';
import { appendLog, logValue } from './log';
import { cutText } from '../core/text';

/** What answering one input came to: what to print (null: nothing), its log line, and how loud that line is. */
export interface Outcome {
  readonly answer: object | null;
  readonly line: string;
  readonly level: 'info' | 'warn' | 'error';
}

/** A protocol's fail-open answer (null: nothing) and the head of its log line, for when answering failed. */
export interface Fallback {
  readonly answer: object | null;
  readonly line: string;
}

/** How a host's payload is answered. */
export interface AnswerOptions {
  /** The host asking (core/host.ts): its adapter reads the payload and gives its words. */
  readonly host: Host;
  /** The words that run the CLI on the call's store (its adapter's cliWords). */
  readonly cli: readonly string[];
  /** The words before a session id in its recording command, when not `cli` and `update` (TextContext `record`). */
  readonly record?: () => readonly string[];
  /** The tool the sub-agents record with instead of the CLI (the Agent SDK's: src/hooks/texts.ts TextContext). */
  readonly recordingTool?: string;
  /** A failure's stack goes to stderr (a process hook's AGENT_SESSION_DEBUG=1). */
  readonly debug?: boolean;
  /** How the asking sub-agent was launched, when the host says so itself (see HandlerContext `launch`). */
  readonly launch?: AgentLaunchFacts;
}

/**
 * The answer of one host payload: its host's adapter reads it as Claude Code's (or leaves it alone), its event's
 * handler answers it in that host's words (src/hooks/handlers/). A mistyped CLAUDE_PROJECT_DIR is not a project: no
 * folder tree is made for it (no answer). Never rejects: whatever breaks is no answer and an error line (failOpen).
 */
export function answerPayload(
  received: HostPayload,
  call: HookCall,
  env: Readonly<Record<string, string | undefined>>,
  options: AnswerOptions,
): Promise<Outcome> {
  return failOpen(
    () => answerHost(received, call, env, options),
    () => payloadFailed(received, options.host),
    options.debug,
  );
}

/** A host payload's fail-open answer: nothing, and the error on its line. */
export function payloadFailed(received: HostPayload, host: Host): Fallback {
  return { answer: null, line: `${eventHead(received, host)} error` };
}

/**
 * The one fail-open step: the outcome of `work`, or, whatever it throws, the protocol's `fallback` with the error on
 * its log line. Never rejects.
 */
export async function failOpen(
  work: () => Promise<Outcome>,
  fallback: () => Fallback,
  debug = false,
): Promise<Outcome> {
  try {
    return await work();
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    const failed = fallback();
    return { answer: failed.answer, line: `${failed.line} error=${logValue(problem)}`, level: 'error' };
  }
}

/** The one log write: the line in `<log folder>/<file>` when the call's log level lets it through. */
export function writeLog(call: HookCall, file: string, line: string, level: Outcome['level']): void {
  if (logs(call.config.log_level, level)) appendLog(call.logDir, file, line, { maxBytes: call.config.log_max_bytes });
}

/** The head of a host payload's log line: `<host> event=<event>` (`claude-code event=SubagentStart`). */
export function eventHead(payload: { hook_event_name: string }, host: Host = DEFAULT_HOST): string {
  return `${host} event=${logValue(cutText(payload.hook_event_name, 60, ''))}`;
}

async function answerHost(
  received: HostPayload,
  call: HookCall,
  env: Readonly<Record<string, string | undefined>>,
  { host, cli, record, recordingTool, launch }: AnswerOptions,
): Promise<Outcome> {
  const head = `${eventHead(received, host)} `;
  const adapter = ADAPTERS[host];
  const read = adapter.normalize(received);
  if ('skip' in read) return { answer: null, line: `${head}${read.skip}`, level: 'info' };
  const warned = call.warning === null ? '' : ` warning=${logValue(call.warning)}`;
  const project = nonEmpty(env.CLAUDE_PROJECT_DIR);
  if (
    nonEmpty(env.AGENT_SESSION_DIR) === undefined &&
    project !== undefined &&
    !isDirectory(resolveFrom(call.cwd, project, '`CLAUDE_PROJECT_DIR`'))
  ) {
    return { answer: null, line: `${head}project_missing project=${logValue(project)}${warned}`, level: 'info' };
  }
  const told = launch ?? adapter.launchFacts?.(env);
  const sessions = call.sessions();
  // The store's clock: "last active 5 minutes ago" is said by the clock that dated it.
  const now = await sessions.now();
  const outcome = await handleEvent(sessions, read.payload, {
    cli,
    ...(record === undefined ? {} : { record }),
    now,
    words: adapter.words,
    continuation: continuationSettingsOf(call.config),
    ...(recordingTool === undefined ? {} : { recordingTool }),
    ...(told === undefined ? {} : { launch: told }),
    person: () => personOf(call, env),
  });
  return { answer: outcome.answer, line: `${head}${outcome.note}${warned}`, level: warned === '' ? 'info' : 'warn' };
}

/** The person's channel of a call (app/told.ts), loaded only by the handler that tells the person (Stop). */
function personOf(call: HookCall, env: Readonly<Record<string, string | undefined>>): PersonChannel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the Stop hook loads it
  return (require('../app/told') as typeof import('../app/told')).personChannel(call.logDir, env);
}

/**
 * Answers one payload (as Claude Code sends it: the host's adapter read it so) by its event's handler (HANDLERS): the
 * payload checked by the generated parser (one that fails it is left alone), an event that is no row of the table (no
 * own key of HANDLERS: never `constructor` and the like) left alone; the clock-skew bound is the store's unless given.
 */
export async function handleEvent(
  sessions: Sessions,
  input: Record<string, unknown>,
  given: HandlerContext,
): Promise<HandlerOutcome<HookAnswer>> {
  const payload = parsePayload(input);
  if (payload === undefined) return skip('invalid_payload');
  const event = payload.hook_event_name;
  if (!Object.hasOwn(HANDLERS, event)) return skip('other_event');
  const handler: Handler = HANDLERS[event as EventName];
  const context: HandlerContext = { clockSkewMinutes: sessions.limits.clockSkewMinutes, ...given };
  return (await handler(sessions, payload, context)) as HandlerOutcome<HookAnswer>;
}
