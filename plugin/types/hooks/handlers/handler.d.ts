import type { PersonChannel } from '../../app/told';
import type { ContinuationSettings } from '../../core/claude-transcript';
import type { EventName } from '../../core/events';
import type { AgentLaunchFacts } from '../../core/permission';
import type { Sessions } from '../../service/sessions';
import type { TextContext } from '../texts';
import type { Payload } from './claude-schema';
/** An answer that gives the agent context, nothing else (no permission decision, no block). */
export interface ContextAnswer<Event extends EventName = EventName> {
    readonly hookSpecificOutput: {
        readonly hookEventName: Event;
        readonly additionalContext: string;
    };
}
/** What a handler did: the answer (null: print nothing) and a short note for the log. */
export interface HandlerOutcome<Answer extends object = object> {
    readonly answer: Answer | null;
    readonly note: string;
}
/**
 * What a handler is told besides the sessions and the payload: what the texts say (the host's words, CLI, clock), and
 * the settings of continuing agents with their context (absent: the defaults).
 */
export type HandlerContext = TextContext & {
    /**
     * How the asking sub-agent was launched when the host says it otherwise than by its files (the Agent SDK's
     * permission callback: a non-interactive run; Claude Code's hook environment: whether a person attends the session,
     * hosts/claude-code.ts); absent: read from its meta file and transcript (service/agent-launch.ts).
     */
    readonly launch?: AgentLaunchFacts;
    readonly continuation?: ContinuationSettings;
    /**
     * The person's channel on this machine (what was told, the page), made on first use: the line at a main turn's end
     * (told.ts); absent: no line is given (nothing records what was told).
     */
    readonly person?: () => PersonChannel;
};
/**
 * The handler of one event (a row of src/core/events.ts): the payload as Claude Code sends it (the host's adapter
 * read it so, src/hooks/hosts/), checked by the generated parser. It decides nothing itself: it asks the service and
 * words the answer (src/hooks/texts.ts). Never blocks; denies only a permission request nobody can answer (permission.ts).
 */
export type Handler<Answer extends object = object> = (sessions: Sessions, payload: Payload, context: HandlerContext) => Promise<HandlerOutcome<Answer>>;
/** No answer, with the note that says why. */
export declare function skip(note: string): HandlerOutcome<never>;
