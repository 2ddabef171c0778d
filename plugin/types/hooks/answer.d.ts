import { type Host } from '../core/host';
import type { AgentLaunchFacts } from '../core/permission';
import type { HookCall } from '../app/hook-call';
import type { Sessions } from '../service/sessions';
import { type HookAnswer } from './handlers';
import { type HandlerContext, type HandlerOutcome } from './handlers/handler';
import { type HostPayload } from './hosts';
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
export declare function answerPayload(received: HostPayload, call: HookCall, env: Readonly<Record<string, string | undefined>>, options: AnswerOptions): Promise<Outcome>;
/** A host payload's fail-open answer: nothing, and the error on its line. */
export declare function payloadFailed(received: HostPayload, host: Host): Fallback;
/**
 * The one fail-open step: the outcome of `work`, or, whatever it throws, the protocol's `fallback` with the error on
 * its log line. Never rejects.
 */
export declare function failOpen(work: () => Promise<Outcome>, fallback: () => Fallback, debug?: boolean): Promise<Outcome>;
/** The one log write: the line in `<log folder>/<file>` when the call's log level lets it through. */
export declare function writeLog(call: HookCall, file: string, line: string, level: Outcome['level']): void;
/** The head of a host payload's log line: `<host> event=<event>` (`claude-code event=SubagentStart`). */
export declare function eventHead(payload: {
    hook_event_name: string;
}, host?: Host): string;
/**
 * Answers one payload (as Claude Code sends it: the host's adapter read it so) by its event's handler (HANDLERS): the
 * payload checked by the generated parser (one that fails it is left alone), an event that is no row of the table (no
 * own key of HANDLERS: never `constructor` and the like) left alone; the clock-skew bound is the store's unless given.
 */
export declare function handleEvent(sessions: Sessions, input: Record<string, unknown>, given: HandlerContext): Promise<HandlerOutcome<HookAnswer>>;
