import { type FinalPhase, type Phase, type WorkPhase } from './phase-names';
import type { SessionState } from './state';
/** What a stopped Claude agent leaves its session in: kept open to be resumed, or finalized. */
export type StopOutcome = 'kept' | FinalPhase;
/**
 * The stop policy: a session whose Claude agent stopped in a resumable phase (investigating, planning,
 * approval) under the error limit is kept for the next delegation; one still `initializing` recorded nothing
 * and is abandoned; any other (executing, validating, or at the error limit) is completed, or failed at the
 * error limit. A session in executing only because a user approved it (awaitsPickup: the agent stopped after the
 * approval, never having worked in executing) is kept too: its next delegation picks the decision up. So is a
 * session waiting after an interruption (its agent died of a host failure: a stop reported after it does not say
 * the work is done), in any phase.
 */
export declare function stopOutcome(state: SessionState, maxErrors: number): StopOutcome;
/** What the stop policy looks at. */
export interface StopFacts {
    readonly phase: Phase;
    /** The session has reached the error limit. */
    readonly tooManyErrors: boolean;
    /** It waits after an interruption (interruption.ts). */
    readonly interrupted: boolean;
    /** It waits in executing for its agent to pick a user's approval up (rules.ts awaitsPickup). */
    readonly awaitsPickup: boolean;
}
/** The stop policy on its facts (see stopOutcome). */
export declare function stopRule(facts: StopFacts): StopOutcome;
/**
 * The work phases by what a plain stop leaves them in (no error limit reached, no interruption, no approval waiting):
 * what the texts given to an agent say, derived from the rule rather than restating it.
 */
export declare function plainStopOutcomes(): Record<'kept' | 'abandoned' | 'completed', WorkPhase[]>;
/**
 * The seed protocol's stop policy (`subagent-stop`): the agent's exit code decides, 0 completed, any other failed.
 * The seed's caller says the agent is done; an agent that died of a host failure says `interrupted` instead, and its
 * session stays open (see interruption.ts).
 */
export declare function seedStopOutcome(exitCode: number): 'completed' | 'failed';
