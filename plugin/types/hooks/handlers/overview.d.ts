import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';
/** The events the overview answers. */
type OverviewEvent = 'SessionStart' | 'UserPromptSubmit';
/**
 * SessionStart / UserPromptSubmit: the parked sessions, so the main agent knows them before it delegates. It runs
 * on every prompt, so it never scans the store: one listing of `<root>/.agents/` and one pointer and one state read
 * per agent name (a scan only for a pointer that does not check out, once). Nothing parked: nothing printed.
 */
export declare function overview(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<ContextAnswer<OverviewEvent>>>;
export {};
