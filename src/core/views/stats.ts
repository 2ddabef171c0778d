import { SessionError, show } from '../errors';
import type { Limits } from '../limits';
import { isFinalPhase, isResumablePhase } from '../phase-names';
import { resumeVerdict } from '../phases';
import { allowsResume } from '../rules';
import type { SessionState } from '../state';
import { statsFactsOf, tallyFacts, type StatsTally, type TallyGroup } from './stats-facts';

export {
  emptySums,
  mergeSums,
  rawMedian,
  statsFactsOf,
  tallyFacts,
  type StatsFacts,
  type StatsSums,
  type StatsTally,
  type TallyGroup,
} from './stats-facts';

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

/** What `stats` shows besides the overall and per-agent figures: each project's overall ones (null: of none). */
export interface ProjectStats {
  readonly project: string | null;
  readonly overall: StatsGroup;
}

/**
 * The figures of a tally, with `active` and `resumable_now` judged now on `live`: the states of the sessions those can
 * count (not final, and active within the resume timeout or interrupted; more do no harm). Projects in name order,
 * those of none last.
 */
export function statsOfTally(
  tally: StatsTally,
  live: readonly SessionState[],
  options: { now: Date; limits: Limits; since?: Date },
): { stats: Stats; projects: ProjectStats[] } {
  const { now, limits, since } = options;
  const counted = live.filter((state) => since === undefined || Date.parse(state.created_at) >= since.getTime());
  const judged = counted.map((state) => {
    const resumable = allowsResume(resumeVerdict(state, now, limits));
    return { state, resumable, active: canProgress(state, resumable, now, limits) };
  });
  const finish = (group: TallyGroup, mine: (state: SessionState) => boolean): StatsGroup => {
    let active = 0;
    let resumable = 0;
    for (const one of judged) {
      if (!mine(one.state)) continue;
      if (one.active) active += 1;
      if (one.resumable) resumable += 1;
    }
    return groupOf(group, active, resumable);
  };
  const agents: Record<string, StatsGroup> = Object.create(null) as Record<string, StatsGroup>;
  for (const name of Object.keys(tally.agents).sort())
    agents[name] = finish(tally.agents[name]!, (state) => state.agent_name === name);
  const projects = [...tally.projects]
    .sort((a, b) =>
      a.project === b.project ? 0 : a.project === null ? 1 : b.project === null ? -1 : a.project < b.project ? -1 : 1,
    )
    .map(({ project, group }) => ({
      project,
      overall: finish(group, (state) => (state.project ?? null) === project),
    }));
  return {
    stats: {
      generated_at: now.toISOString(),
      since: since === undefined ? null : since.toISOString(),
      overall: finish(tally.overall, () => true),
      agents,
    },
    projects,
  };
}

/**
 * Computes per-agent and overall figures over `states` (pure: the clock and limits are passed in).
 * `since` keeps sessions created at or after it.
 */
export function computeStats(
  states: readonly SessionState[],
  options: { now: Date; limits: Limits; since?: Date },
): Stats {
  return statsOfTally(tallyFacts(states.map(statsFactsOf), options.since), states, options).stats;
}

// --- internal ---

function groupOf(tally: TallyGroup, active: number, resumableNow: number): StatsGroup {
  const { sums } = tally;
  const finalized = sums.completed + sums.failed + sums.abandoned;
  const byErrors: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const key of Object.keys(sums.by_error_count).sort((a, b) => Number(a) - Number(b)))
    byErrors[key] = sums.by_error_count[key]!;
  return {
    sessions: sums.sessions,
    active,
    resumable_now: resumableNow,
    completed: sums.completed,
    failed: sums.failed,
    abandoned: sums.abandoned,
    success_rate: ratio(sums.completed, finalized),
    resumes: sums.resumes,
    resume_rate: ratio(sums.resumed, sums.sessions),
    mean_duration_seconds: sums.durations === 0 ? null : round(sums.duration_total / sums.durations),
    median_duration_seconds: tally.median_duration === null ? null : round(tally.median_duration),
    by_error_count: byErrors,
    approvals: sums.approvals,
    rejections: sums.rejections,
    median_decision_seconds: tally.median_decision === null ? null : round(tally.median_decision),
    interruptions: sums.interruptions,
    carried_on: sums.carried_on,
    interrupted_now: sums.interrupted_now,
    permission_requests: sums.permission_requests,
    permissions_granted: sums.permissions_granted,
    permissions_refused: sums.permissions_refused,
    permissions_spent: sums.permissions_spent,
    continued: sums.continued,
    primed: sums.primed,
    last_activity: sums.last_activity === null ? null : new Date(sums.last_activity).toISOString(),
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
