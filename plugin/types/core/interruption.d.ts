import { type ResumedFrom, type SessionState } from './state';
export { INTERRUPTION_KIND_PATTERN, INTERRUPTION_KINDS } from './interruption-kinds';
/** Characters of the host's failure message a session keeps: enough to say what happened, never a transcript. */
export declare const INTERRUPTION_MESSAGE_LIMIT = 300;
/** The kind of a foreground sub-agent cut off when the user stopped the main turn (Esc, Ctrl+C: Interrupt `stop`). */
export declare const USER_STOPPED = "user_stopped";
/** The kind of one cut off when a denied permission request ended the main turn (Interrupt `permission_denied`). */
export declare const PERMISSION_DENIED = "permission_denied";
/** The kind of one cut off by any other interrupt of the main turn (another session, a rewind, the host itself). */
export declare const TURN_INTERRUPTED = "turn_interrupted";
/**
 * The kind of a sub-agent whose Claude Code process ended before it finished (killed, closed), found unfinished when
 * that session is resumed (Claude Code 2.1.335+ closes it then: task notification `reason: "unfinished_at_resume"`).
 * Under the unattended retry watchdog, a sub-agent that slept through a usage limit in a process that is gone is one.
 */
export declare const UNFINISHED_AT_RESUME = "unfinished_at_resume";
/** The message of an agent found unfinished at resume (what Claude Code's own notification says of it). */
export declare const UNFINISHED_AT_RESUME_MESSAGE = "Claude Code closed it when its session was resumed: it didn't finish before the previous session ended";
/** What Claude Code's Interrupt event (2.1.335+) says of the interrupt that ended the main conversation's turn. */
export interface TurnInterrupt {
    /** Who stopped it: `user`, `session` (another session's Claude), `system` (a hook, a plugin, a permission check). */
    readonly source?: string;
    /** What ended it: `stop`, `permission_denied`, `rewind`, `other`. */
    readonly reason?: string;
    /** How it arrived, where known: `terminal`, `client`. */
    readonly via?: string;
}
/**
 * The interruption a foreground sub-agent cut off by the main turn's interrupt records: `permission_denied` for a
 * denied permission request (whoever denied it), `user_stopped` for the user's stop, `turn_interrupted` for anything
 * else; the message says what Claude Code reported, each field as a word of its form or left out.
 */
export declare function turnInterruption(event: TurnInterrupt): {
    readonly error: string;
    readonly message: string;
};
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
