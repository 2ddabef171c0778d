import type { Limits } from './limits';
import { type ResumeReason } from './rules';
import type { SessionState } from './state';
/** True while a Claude Code agent runs the session: linked to one that has not stopped. */
export declare function isRunning(state: SessionState): boolean;
/**
 * The one rule for "may a new delegation to its agent take this session", used by both hook protocols for the
 * newest session of an agent: the resume rules (`resumeVerdict`), then `session_running` when a Claude agent runs
 * it now (resuming it would give one session two agents). A session resumed by its id is the caller's explicit
 * choice and answers `resumeVerdict` alone.
 */
export declare function newestVerdict(state: SessionState, now: Date, limits: Limits): ResumeReason;
/**
 * Resumable by the rules (an interrupted session waiting to be carried on included) and not run by a Claude agent now
 * (never linked, or its agent stopped).
 */
export declare function isParked(state: SessionState, now: Date, limits: Limits): boolean;
