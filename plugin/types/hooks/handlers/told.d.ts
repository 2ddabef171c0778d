import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type HandlerContext, type HandlerOutcome } from './handler';
/** An answer that shows the person a line and nothing else (no block, no context for the agent). */
export interface SystemMessageAnswer {
    readonly systemMessage: string;
}
/**
 * The line for the person at the end of a main turn, naming the decisions not told yet (claimed as told here, so a
 * second Stop at once names none of them); nothing when none is new. It reads what the parked overview reads (one
 * listing of the agents' pointers, no scan of the store).
 */
export declare function told(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<SystemMessageAnswer>>;
