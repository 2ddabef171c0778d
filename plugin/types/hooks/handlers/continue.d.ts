import { type ContinuationChoice, type ContinuationSettings } from '../../core/claude-transcript';
import type { SessionState } from '../../core/state';
import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';
/** The tool that continues a stopped sub-agent (Claude Code 2.1.330 on; deferred behind ToolSearch in `-p`). */
export declare const CONTINUE_TOOL = "SendMessage";
/** A PreToolUse answer that changes the tool's input (SendMessage's message), with no permission decision. */
export interface UpdatedInputAnswer {
    readonly hookSpecificOutput: {
        readonly hookEventName: 'PreToolUse';
        readonly updatedInput: {
            readonly to: string;
            readonly summary?: string;
            readonly message: string;
        };
    };
}
/** What our record says of a Claude agent, for the choice (core ContinuationFacts `recorded`). */
export declare function recordedOf(state: SessionState, parked: boolean): 'stopped' | 'running' | 'ended';
/**
 * Whether the stopped Claude agent of a parked session can be continued from the session of `payload`, without
 * changing anything (the parked list and the resume offer say so). Null when the session has no Claude agent or the
 * host cannot continue one, or its transcripts cannot be read (the feature steps aside).
 */
export declare function continuationChoiceOf(state: SessionState, payload: Payload, context: HandlerContext): ContinuationChoice | null;
/** The continuation settings in force (the configuration's, else the defaults). */
export declare function settingsOf(context: HandlerContext): ContinuationSettings;
/**
 * PreToolUse(SendMessage): continues a parked session's agent with its context where it can (bringing its transcript
 * from an earlier session of the project), and records the choice and its reason on the session.
 */
export declare function continueAgent(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<UpdatedInputAnswer | ContextAnswer<'PreToolUse'>>>;
