// The handler of each event, by the event's name: one per row of src/core/events.ts (the compiler demands it), one
// module per family: overview.ts (SessionStart, UserPromptSubmit), offer.ts (PreToolUse), attach.ts (SubagentStart,
// PostToolUse, SubagentStop, StopFailure), permission.ts (PermissionRequest). Handlers know no host: the host's
// adapter (src/hooks/hosts/) reads its payload as Claude Code's before, and gives its words.
import type { EventName } from '../../core/events';
import type { Sessions } from '../../service/sessions';
import { parsePayload } from '../../generated/claude-parsers';
import { postToolUse, stopFailure, subagentStart, subagentStop } from './attach';
import { skip, type ContextAnswer, type Handler, type HandlerContext, type HandlerOutcome } from './handler';
import { offer } from './offer';
import { overview } from './overview';
import { permissionRequest } from './permission';

/**
 * An event no handler answers as it arrives: Codex's PostModelRequest, whose failed request of a sub-agent the Codex
 * adapter reads as the StopFailure it is (src/hooks/hosts/codex.ts); from any other host it is left alone.
 */
async function readByItsAdapter(): Promise<HandlerOutcome<never>> {
  return skip('other_event');
}

/** The handler of each event answered. */
export const HANDLERS = {
  PreToolUse: offer,
  PermissionRequest: permissionRequest,
  SubagentStart: subagentStart,
  SubagentStop: subagentStop,
  StopFailure: stopFailure,
  PostToolUse: postToolUse,
  SessionStart: overview,
  UserPromptSubmit: overview,
  PostModelRequest: readByItsAdapter,
} satisfies Record<EventName, Handler>;

/** Every answer a handler gives (never a denial, never a block). */
export type HookAnswer = NonNullable<Awaited<ReturnType<(typeof HANDLERS)[EventName]>>['answer']>;

/** The answers that carry context for the agent (`additionalContext`), by the events that give them. */
export type ClaudeCodeAnswer = Extract<HookAnswer, ContextAnswer>;

/**
 * Answers one payload (as Claude Code sends it: the host's adapter read it so) by its event's handler: the payload
 * checked by the generated parser (a payload that fails it is left alone), then HANDLERS; the clock-skew bound is the
 * store's unless given. An event that is no row of the table: no answer.
 */
export async function handleEvent(
  sessions: Sessions,
  input: Record<string, unknown>,
  given: HandlerContext,
): Promise<HandlerOutcome<HookAnswer>> {
  const payload = parsePayload(input);
  if (payload === undefined) return skip('invalid_payload');
  const event = payload.hook_event_name;
  if (!isAnswered(event)) return skip('other_event');
  const handler: Handler = HANDLERS[event];
  const context: HandlerContext = { clockSkewMinutes: sessions.limits.clockSkewMinutes, ...given };
  return (await handler(sessions, payload, context)) as HandlerOutcome<HookAnswer>;
}

/** True for an event with a handler (an own key of HANDLERS: never `constructor`, `__proto__` and the like). */
function isAnswered(event: string): event is EventName {
  return Object.hasOwn(HANDLERS, event);
}
