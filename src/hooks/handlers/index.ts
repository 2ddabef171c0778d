// The handler of each event, by the event's name: one per row of src/core/events.ts (the compiler demands it), one
// module per family: overview.ts (SessionStart, UserPromptSubmit), offer.ts (PreToolUse), attach.ts (SubagentStart,
// PostToolUse, SubagentStop, StopFailure), interrupt.ts (Interrupt), permission.ts (PermissionRequest), told.ts
// (Stop). Handlers know no host: the host's adapter (src/hooks/hosts/) reads its payload as Claude Code's before, and
// gives its words; src/hooks/answer.ts handleEvent dispatches.
import type { EventName } from '../../core/events';
import { postToolUse, stopFailure, subagentStart, subagentStop } from './attach';
import { skip, type ContextAnswer, type Handler, type HandlerOutcome } from './handler';
import { interrupt } from './interrupt';
import { offer } from './offer';
import { overview } from './overview';
import { permissionRequest } from './permission';
import type { SystemMessageAnswer } from './told';

/**
 * An event no handler answers as it arrives: Codex's PostModelRequest, whose failed request of a sub-agent the Codex
 * adapter reads as the StopFailure it is (src/hooks/hosts/codex.ts); from any other host it is left alone.
 */
async function readByItsAdapter(): Promise<HandlerOutcome<never>> {
  return skip('other_event');
}

/**
 * Stop: told.ts, required on first use: the main agent's every turn end runs it, and no other event needs the inbox's
 * view of the decisions it reads.
 */
const told: Handler<SystemMessageAnswer> = (sessions, payload, context) =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the Stop hook loads it
  (require('./told') as typeof import('./told')).told(sessions, payload, context);

/** The handler of each event answered. */
export const HANDLERS = {
  PreToolUse: offer,
  PermissionRequest: permissionRequest,
  SubagentStart: subagentStart,
  SubagentStop: subagentStop,
  StopFailure: stopFailure,
  Interrupt: interrupt,
  PostToolUse: postToolUse,
  SessionStart: overview,
  UserPromptSubmit: overview,
  PostModelRequest: readByItsAdapter,
  Stop: told,
} satisfies Record<EventName, Handler>;

/** Every answer a handler gives (never a block; a denial only of a call nobody can answer: handlers/permission.ts). */
export type HookAnswer = NonNullable<Awaited<ReturnType<(typeof HANDLERS)[EventName]>>['answer']>;

/** The events whose answers carry context for the agent (`additionalContext`): read off the handlers' answers. */
export type AnsweredEvent = HookAnswer extends infer Answer
  ? Answer extends ContextAnswer<infer Event>
    ? Event
    : never
  : never;

/** An answer that carries context for the agent (`additionalContext`), of any event that gives one. */
export type ClaudeCodeAnswer = ContextAnswer<AnsweredEvent>;
