import { SessionError, show } from '../errors';
import { resumeCount } from '../history';
import { isInterrupted } from '../interruption';
import type { Limits } from '../limits';
import { isFinalPhase, isResumablePhase } from '../phase-names';
import { resumeVerdict } from '../phases';
import { allowsResume } from '../rules';
import type { SessionState } from '../state';

/** The figures of one agent, or of all agents together. Rates are 0..1, or null when undefined (0 / 0). */
export interface StatsGroup {
  readonly sessions: number;
  /**
   * Sessions that can still make progress: not final, and either resumable now (every resume rule passes), or in
   * a working phase (initializing, executing, validating) active within the resume timeout and not left by a
   * Claude agent that stopped. A session idle past the timeout, over the error limit, or whose agent stopped
   * outside a resumable phase is open but not active (`sessions - completed - failed - abandoned - active`).
   */
  readonly active: number;
  /** Would be resumed now (every resume rule passes). */
  readonly resumable_now: number;
  readonly completed: number;
  readonly failed: number;
  readonly abandoned: number;
  /** completed / (completed + failed + abandoned). */
  readonly success_rate: number | null;
  /** Resumes recorded in the sessions' (kept) histories. */
  readonly resumes: number;
  /** Sessions resumed at least once / sessions. */
  readonly resume_rate: number | null;
  /** Over finalized sessions (`duration_seconds`). */
  readonly mean_duration_seconds: number | null;
  readonly median_duration_seconds: number | null;
  /** How many sessions have each error_count, keyed by the count. */
  readonly by_error_count: Readonly<Record<string, number>>;
  /** Decisions recorded by `approve` and `reject` (every one of each session, not only its last). */
  readonly approvals: number;
  readonly rejections: number;
  /** Median seconds from entering approval to the decision, over every decision; null without decisions. */
  readonly median_decision_seconds: number | null;
  /**
   * Host failures that killed the sessions' agents (API errors, usage limits: Claude Code's StopFailure, the seed's
   * `interrupted`), counted apart from errors; `carried_on` of them were picked up by a later delegation, and
   * `interrupted_now` sessions wait for one.
   */
  readonly interruptions: number;
  readonly carried_on: number;
  readonly interrupted_now: number;
  /**
   * Sub-agent permission requests parked as inbox items (issue 33), and how many of them the user granted (`approve`),
   * refused (`reject`), and whose grant a resumed agent used (`spent`).
   */
  readonly permission_requests: number;
  readonly permissions_granted: number;
  readonly permissions_refused: number;
  readonly permissions_spent: number;
  /**
   * Issue 34: how many times the sessions' stopped agents were continued with their context (SendMessage), and how
   * many sessions' last choice was a primed fresh agent instead (over the size limit, transcript gone…).
   */
  readonly continued: number;
  readonly primed: number;
  /** The most recent `last_updated`, or null without sessions. */
  readonly last_activity: string | null;
}

/** What `agent-session stats --json` prints. */
export interface Stats {
  readonly generated_at: string;
  /** Only sessions created at or after this instant are counted; null: all. */
  readonly since: string | null;
  readonly overall: StatsGroup;
  /** One group per agent name, in name order. */
  readonly agents: Readonly<Record<string, StatsGroup>>;
}

const UNITS_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses `--since`: a duration back from `now` (`90s`, `30m`, `24h`, `7d`, `2w`, fractions allowed) or an
 * ISO 8601 time. A time without an offset is UTC, like a date alone (which JavaScript reads as UTC midnight):
 * `2026-11-01` and `2026-11-01T00:00:00` are one instant on every machine, whatever its time zone.
 * @throws SessionError E_USAGE naming the value and both accepted forms
 */
export function parseSince(text: string, now: Date, flag = '--since'): Date {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/.exec(text);
  let at = Number.NaN;
  if (match) at = now.getTime() - Number(match[1]) * UNITS_MS[match[2]!]!;
  else if (isCalendarDate(text)) at = Date.parse(asUtc(text));
  // A duration reaching past the earliest time a Date can hold is refused like any other bad value.
  if (Number.isFinite(at) && Number.isFinite(new Date(at).getTime())) return new Date(at);
  throw new SessionError(
    'E_USAGE',
    `Expected \`${flag}\` to be a duration like 30m, 24h or 7d, or an ISO 8601 time, got ${show(text)}`,
  );
}

/**
 * Computes per-agent and overall figures over `states` (pure: the clock and limits are passed in).
 * `since` keeps sessions created at or after it.
 */
export function computeStats(
  states: readonly SessionState[],
  options: { now: Date; limits: Limits; since?: Date },
): Stats {
  const { now, limits, since } = options;
  const kept = since === undefined ? states : states.filter((state) => Date.parse(state.created_at) >= since.getTime());
  const byAgent = new Map<string, SessionState[]>();
  for (const state of kept) byAgent.set(state.agent_name, [...(byAgent.get(state.agent_name) ?? []), state]);
  // Null prototype: an agent named `__proto__` (or `constructor`) is a key like any other, not the object's prototype.
  const agents: Record<string, StatsGroup> = Object.create(null) as Record<string, StatsGroup>;
  for (const name of [...byAgent.keys()].sort()) agents[name] = group(byAgent.get(name)!, now, limits);
  return {
    generated_at: now.toISOString(),
    since: since === undefined ? null : since.toISOString(),
    overall: group(kept, now, limits),
    agents,
  };
}

// --- internal ---

function group(states: readonly SessionState[], now: Date, limits: Limits): StatsGroup {
  let active = 0;
  let resumableNow = 0;
  let resumes = 0;
  let resumed = 0;
  let lastActivity: number | null = null;
  const outcomes = { completed: 0, failed: 0, abandoned: 0 };
  const durations: number[] = [];
  const byErrors: Record<string, number> = Object.create(null) as Record<string, number>;
  const decisions = { approvals: 0, rejections: 0 };
  const interrupted = { interruptions: 0, carried_on: 0, interrupted_now: 0 };
  const continuations = { continued: 0, primed: 0 };
  const waits: number[] = [];
  const permissions = { permission_requests: 0, permissions_granted: 0, permissions_refused: 0, permissions_spent: 0 };
  for (const state of states) {
    for (const request of state.permission_requests ?? []) {
      permissions.permission_requests += 1;
      if (request.status === 'rejected') permissions.permissions_refused += 1;
      if (request.status === 'spent') permissions.permissions_spent += 1;
      // Granted: approved at some point (a spent grant was one; an expired one with a decision and an expiry too).
      if (request.status === 'approved' || request.status === 'spent' || request.expires_at !== undefined)
        permissions.permissions_granted += 1;
    }
    if (state.continuation !== undefined) {
      continuations.continued += state.continuation.count;
      if (state.continuation.choice === 'prime') continuations.primed += 1;
    }
    if (state.interruption !== undefined) {
      interrupted.interruptions += state.interruption.count;
      interrupted.carried_on += state.interruption.carried_on;
      if (isInterrupted(state)) interrupted.interrupted_now += 1;
    }
    for (const decision of state.decisions ?? []) {
      if (decision.decision === 'approved') decisions.approvals += 1;
      else decisions.rejections += 1;
      waits.push(Math.max(0, (Date.parse(decision.at) - Date.parse(decision.waiting_since)) / 1000));
    }
    if (isFinalPhase(state.phase)) {
      outcomes[state.phase] += 1;
      if (state.duration_seconds !== undefined) durations.push(state.duration_seconds);
    }
    const resumable = allowsResume(resumeVerdict(state, now, limits));
    if (resumable) resumableNow += 1;
    if (canProgress(state, resumable, now, limits)) active += 1;
    const count = resumeCount(state);
    resumes += count;
    if (count > 0) resumed += 1;
    byErrors[state.error_count] = (byErrors[state.error_count] ?? 0) + 1;
    const at = Date.parse(state.last_updated);
    if (lastActivity === null || at > lastActivity) lastActivity = at;
  }
  const finalized = outcomes.completed + outcomes.failed + outcomes.abandoned;
  return {
    sessions: states.length,
    active,
    resumable_now: resumableNow,
    ...outcomes,
    success_rate: ratio(outcomes.completed, finalized),
    resumes,
    resume_rate: ratio(resumed, states.length),
    mean_duration_seconds:
      durations.length === 0 ? null : round(durations.reduce((a, b) => a + b, 0) / durations.length),
    median_duration_seconds: median(durations),
    by_error_count: byErrors,
    ...decisions,
    median_decision_seconds: median(waits),
    ...interrupted,
    ...permissions,
    ...continuations,
    last_activity: lastActivity === null ? null : new Date(lastActivity).toISOString(),
  };
}

/** See StatsGroup `active`. */
function canProgress(state: SessionState, resumable: boolean, now: Date, limits: Limits): boolean {
  if (isFinalPhase(state.phase)) return false;
  if (resumable) return true;
  if (isResumablePhase(state.phase)) return false;
  const fresh = now.getTime() - Date.parse(state.last_updated) <= limits.resumeTimeoutMinutes * 60_000;
  return fresh && state.claude?.stopped_at === undefined;
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole);
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2);
}

// Three decimals: milliseconds for durations, a tenth of a percent for rates.
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** A date and time without an offset (`T` or a space between), given the `Z` that makes it UTC; else unchanged. */
function asUtc(text: string): string {
  const local = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/.exec(text.trim());
  return local === null ? text : `${local[1]}T${local[2]}Z`;
}

/** An ISO 8601 time whose date exists: `Date.parse` alone rolls 2026-02-30 over to March 2. */
function isCalendarDate(text: string): boolean {
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (date === null) return false;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  // Day 0 of the next month is the last day of this one.
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
