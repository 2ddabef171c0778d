import { type ResumedFrom, type SessionState } from './state';
export { INTERRUPTION_KIND_PATTERN, INTERRUPTION_KINDS } from './interruption-kinds';
/** Characters of the host's failure message a session keeps: enough to say what happened, never a transcript. */
export declare const INTERRUPTION_MESSAGE_LIMIT = 300;
/** What a host says about an agent that died of its failure (Claude Code's StopFailure, the seed protocol's field). */
export interface InterruptionFacts {
    /** The host's failure kind (`rate_limit`, `server_error`, `unknown`, …): see interruptionKind. */
    readonly error: string;
    /** The host's message as it came (cleaned and cut here, see interruptionMessage). */
    readonly message?: string;
    /** The Claude Code agent that died (absent in the seed protocol). */
    readonly agent_id?: string;
}
/** The kind as stored: a word of the host's form (`rate_limit`), anything else (or nothing) `unknown`. */
export declare function interruptionKind(value: unknown): string;
/**
 * The host's failure message as a session keeps it: whitespace runs as one space, anything that looks like a key
 * masked, cut to INTERRUPTION_MESSAGE_LIMIT characters; undefined for no text.
 */
export declare function interruptionMessage(text: unknown): string | undefined;
/** True while a session waits after an interruption: not final, interrupted, and no delegation has picked it up. */
export declare function isInterrupted(state: Pick<SessionState, 'phase' | 'interruption'>): boolean;
/**
 * Records that the session's agent died of a host failure: the session stays open in its phase and waits for the next
 * delegation (it is not finished, whatever its phase), `count` goes up by one (never `error_count`: the error limit is
 * about the agent's own errors), and an `interrupted` history entry keeps the moment. A session already waiting after
 * an interruption is returned unchanged: two reports of one failure (parallel hooks, a host that sends it twice)
 * record one interruption.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is final (an ended session is not interrupted)
 */
export declare function withInterruption(state: SessionState, facts: InterruptionFacts, now: Date): SessionState;
/**
 * The session as a delegation that picks it up leaves it: no longer waiting, one more interruption carried on. A
 * session that is not waiting is returned as it is. (history.ts `withResume` applies it with the resume entry.)
 */
export declare function carriedOn(state: SessionState): SessionState;
/** What a resume records of the interruption it carries on from (ClaudeLink `resumed_from.interruption`). */
export declare function interruptionOf(state: SessionState): NonNullable<ResumedFrom['interruption']> | undefined;
/**
 * The failure in words, for the hooks' contexts and `show`: `a rate or usage limit (rate_limit)`. The kind is one word
 * of letters, digits and `_` (the schema's pattern), so it is shown as it is.
 */
export declare function interruptionCause(kind: string): string;
