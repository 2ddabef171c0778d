import { type ContinuationChoice, type ContinuationFacts, type ContinuationSettings, type FoundTranscript, type SessionFolders } from '../core/claude-transcript';
import { type CopyOutcome } from '../platform/file-copy';
/** What the hook knows when it asks: the payload's session fields, the agent id, and our record of that agent. */
export interface ContinuationAsk {
    readonly payload: {
        readonly transcript_path?: unknown;
        readonly session_id?: unknown;
        readonly cwd?: unknown;
    };
    /** SendMessage's `tool_input.to`, or the Claude agent a parked session records. */
    readonly agentId: unknown;
    /** See ContinuationFacts `recorded`. */
    readonly recorded: ContinuationFacts['recorded'];
    /**
     * The Claude session the agent last ran in, as our link records it (`claude.session_id`, updated by every
     * SubagentStart of the agent): looked at first, and when the transcript is there no other session folder is read
     * (a project keeps every session it ever had; the hook then costs a few system calls, not one per session).
     */
    readonly sessionHint?: string;
}
/**
 * The facts chooseContinuation needs, read from the disk: the agent's transcript in the current session's folder, or
 * else in the hinted session's folder, or else in every other session folder of the project (real folders only: a
 * symbolic link in their place is not followed).
 * @throws SessionError E_IO when a folder or file cannot be read (not when it is absent)
 */
export declare function gatherContinuationFacts(ask: ContinuationAsk): ContinuationFacts;
/** What bringing the two files did: the transcript's copy outcome, or `refused` (a folder on the way is a link). */
export type BringOutcome = CopyOutcome | 'refused';
/**
 * Copies the chosen agent's `.meta.json` and then its `.jsonl` from an earlier session folder into the current one's
 * `subagents/` (made 0700 when absent; a symbolic link in the place of either folder is refused), never over an
 * existing file: the meta file first, so that Claude Code, which looks for the `.jsonl`, never finds it without the
 * agent's type. A meta file that cannot be copied leaves the transcript where it is.
 * @param maxBytes the most the transcript may hold now (it may have grown since it was looked at)
 * @throws SessionError E_IO for a failure to read or write that is not one of the outcomes
 */
export declare function bringTranscript(folders: SessionFolders, from: FoundTranscript, agentId: string, maxBytes: number): BringOutcome;
/** The choice for one agent id, and, when its transcript was brought from an earlier session, how that went. */
export interface Continuation {
    readonly choice: ContinuationChoice;
    readonly brought?: BringOutcome;
}
/**
 * PreToolUse(SendMessage)'s use case: gathers the facts, chooses, and brings the transcript over when the choice is
 * to continue it from an earlier session of the project.
 * @throws SessionError E_IO (the hook logs it and answers nothing: SendMessage then goes on as without us)
 */
export declare function continueWithContext(ask: ContinuationAsk, settings: ContinuationSettings): Continuation;
/**
 * Whether a recorded agent can be continued from the current session, without changing anything: what the context
 * before a delegation (the parked list, the PreToolUse(Agent) answer) and `show` say about it.
 * @throws SessionError E_IO
 */
export declare function continuationOf(ask: ContinuationAsk, settings: ContinuationSettings): ContinuationChoice;
