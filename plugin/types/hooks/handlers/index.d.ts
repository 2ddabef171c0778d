import type { EventName } from '../../core/events';
import { postToolUse, stopFailure, subagentStart, subagentStop } from './attach';
import { type ContextAnswer, type Handler, type HandlerOutcome } from './handler';
import { interrupt } from './interrupt';
import { offer } from './offer';
import { overview } from './overview';
import { permissionRequest } from './permission';
import type { SystemMessageAnswer } from './told';
/**
 * An event no handler answers as it arrives: Codex's PostModelRequest, whose failed request of a sub-agent the Codex
 * adapter reads as the StopFailure it is (src/hooks/hosts/codex.ts); from any other host it is left alone.
 */
declare function readByItsAdapter(): Promise<HandlerOutcome<never>>;
/** The handler of each event answered. */
export declare const HANDLERS: {
    PreToolUse: typeof offer;
    PermissionRequest: typeof permissionRequest;
    SubagentStart: typeof subagentStart;
    SubagentStop: typeof subagentStop;
    StopFailure: typeof stopFailure;
    Interrupt: typeof interrupt;
    PostToolUse: typeof postToolUse;
    SessionStart: typeof overview;
    UserPromptSubmit: typeof overview;
    PostModelRequest: typeof readByItsAdapter;
    Stop: Handler<SystemMessageAnswer>;
};
/** Every answer a handler gives (never a block; a denial only of a call nobody can answer: handlers/permission.ts). */
export type HookAnswer = NonNullable<Awaited<ReturnType<(typeof HANDLERS)[EventName]>>['answer']>;
/** The events whose answers carry context for the agent (`additionalContext`): read off the handlers' answers. */
export type AnsweredEvent = HookAnswer extends infer Answer ? Answer extends ContextAnswer<infer Event> ? Event : never : never;
/** An answer that carries context for the agent (`additionalContext`), of any event that gives one. */
export type ClaudeCodeAnswer = ContextAnswer<AnsweredEvent>;
export {};
