import type { Limits } from './limits';
import { isResumablePhase, type Phase } from './phase-names';

/** Why a session may or may not be resumed. */
export type ResumeReason =
  | 'session_resumable'
  | 'session_not_found'
  | 'invalid_state'
  | 'not_resume_ready'
  | 'phase_not_resumable'
  | 'session_expired'
  | 'too_many_errors'
  | 'clock_skew'
  /** The session belongs to another agent than the one asking (seed hooks given both a name and an id). */
  | 'agent_mismatch'
  /** The agent's newest session is run by a Claude Code agent right now (see core/parking.ts). */
  | 'session_running'
  /** Resumable: its agent died of a host failure and it waits for the next delegation (see awaitsCarryOn). */
  | 'session_interrupted'
  /** The session belongs to another project than the caller's (core/project.ts): never resumed here. */
  | 'other_project'
  /** The session belongs to no project (an older store's): never resumed until `adopt` gives it one. */
  | 'unassigned';

/** True for the reasons that mean "resume": every rule passes, or an interrupted session is carried on. */
export function allowsResume(reason: ResumeReason): boolean {
  return reason === 'session_resumable' || reason === 'session_interrupted';
}

/** What the rules need to know of a session. */
export interface ResumeFacts {
  readonly phase: Phase;
  readonly resume_ready: boolean;
  readonly last_updated: string;
  readonly error_count: number;
  /** The history and decisions, for an approved session awaiting its agent (see awaitsPickup). */
  readonly history?: readonly {
    readonly from_phase: Phase;
    readonly to_phase: Phase;
    readonly timestamp: string;
    readonly event?: string | undefined;
  }[];
  readonly decisions?: readonly {
    readonly decision: string;
    readonly at: string;
    /** Not verified here (core/seal.ts): it counts for nothing. */
    readonly unverified?: true | undefined;
  }[];
  /** Whether the session waits after an interruption (see awaitsCarryOn). */
  readonly interruption?: { readonly waiting: boolean };
}

/**
 * True for a session whose agent died of a host failure (an API error, a usage limit) and that no delegation has
 * picked up since: in whatever working phase it stopped, the next delegation carries it on (the machine's
 * `carryOnAllowed`), by carryOnBlocker's rules.
 */
export function awaitsCarryOn(facts: ResumeFacts): boolean {
  return facts.interruption?.waiting === true;
}

/**
 * True for a session a user approved (`approve`: approval → executing) whose agent has not picked it up yet: its last
 * history entry is that move, made by the last decision, and that decision counts here (not marked `unverified`:
 * core/seal.ts). The next delegation resumes it once (the resume entry that records it ends the wait), so the agent is
 * told the decision instead of a new session starting without it.
 */
export function awaitsPickup(facts: ResumeFacts): boolean {
  return pickupShape(facts) && facts.decisions?.at(-1)?.unverified !== true;
}

/**
 * True when a session is as an approval left it (awaitsPickup), whether or not that approval counts here: in
 * executing, its last history entry the move from approval made at the last decision's time, an approval.
 */
export function pickupShape(facts: ResumeFacts): boolean {
  if (facts.phase !== 'executing') return false;
  const last = facts.history?.at(-1);
  const decision = facts.decisions?.at(-1);
  return (
    last !== undefined &&
    decision !== undefined &&
    last.event === undefined &&
    last.from_phase === 'approval' &&
    last.to_phase === 'executing' &&
    decision.decision === 'approved' &&
    decision.at === last.timestamp
  );
}

const MINUTE_MS = 60_000;

/** The reasons besides the phase: the machine answers the phase question (phases.ts `resumeVerdict`). */
export type StateBlocker = 'not_resume_ready' | 'clock_skew' | 'session_expired' | 'too_many_errors';

/**
 * The latest `last_updated` a sane session can have at `now` (ms since the epoch): later is a clock ahead of ours
 * (an import, a clock that jumped back), which must not win "most recently active" nor stay fresh for ever.
 */
export function latestSane(now: Date, limits: Pick<Limits, 'clockSkewMinutes'>): number {
  return now.getTime() + limits.clockSkewMinutes * MINUTE_MS;
}

/** True when `timestamp` lies further in the future than the clock-skew bound allows (see latestSane). */
export function isAheadOfClock(timestamp: string, now: Date, limits: Pick<Limits, 'clockSkewMinutes'>): boolean {
  return Date.parse(timestamp) > latestSane(now, limits);
}

/**
 * The first rule besides the phase that forbids resuming a valid session, or null when none does. Checked in this
 * order: ready flag, freshness (with a clock-skew bound), errors. The phase is the machine's question: only a
 * resumable phase has a `resume` transition, and its guard is this function.
 * The idle limit is inclusive: a session exactly `resumeTimeoutMinutes` old still resumes.
 */
export function stateBlocker(facts: ResumeFacts, now: Date, limits: Limits): StateBlocker | null {
  if (!facts.resume_ready) return 'not_resume_ready';
  const idleMs = now.getTime() - Date.parse(facts.last_updated);
  // A timestamp ahead of the clock would otherwise keep a session fresh forever.
  if (!(idleMs >= -limits.clockSkewMinutes * MINUTE_MS)) return 'clock_skew';
  if (idleMs > limits.resumeTimeoutMinutes * MINUTE_MS) return 'session_expired';
  if (facts.error_count >= limits.maxErrors) return 'too_many_errors';
  return null;
}

/**
 * The rules an interrupted session is carried on by (awaitsCarryOn): its clock and the error limit. Not the ready flag
 * (it may have stopped in any working phase) and not the idle timeout: a usage limit resets hours later, and the
 * delegation after the reset must still carry the work on; it waits until then or until `cleanup` removes it.
 */
export function carryOnBlocker(facts: ResumeFacts, now: Date, limits: Limits): 'clock_skew' | 'too_many_errors' | null {
  const idleMs = now.getTime() - Date.parse(facts.last_updated);
  if (!(idleMs >= -limits.clockSkewMinutes * MINUTE_MS)) return 'clock_skew';
  if (facts.error_count >= limits.maxErrors) return 'too_many_errors';
  return null;
}

/**
 * The first rule that forbids resuming a valid session, or null when every rule allows it, for callers without
 * the machine: the phase first, because `resume_ready` is derived from it (an executing or finalized session says
 * why in its own words, and `not_resume_ready` is left for a file whose flag disagrees with its phase), then
 * `stateBlocker`. The service asks `resumeVerdict` (phases.ts), which puts the phase question to the machine.
 */
export function resumeBlocker(
  facts: ResumeFacts,
  now: Date,
  limits: Limits,
): 'phase_not_resumable' | StateBlocker | null {
  if (!isResumablePhase(facts.phase)) return 'phase_not_resumable';
  return stateBlocker(facts, now, limits);
}
