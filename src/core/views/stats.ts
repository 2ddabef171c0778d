import { SessionError, show } from '../errors';
import { resumeCount } from '../history';
import { isInterrupted } from '../interruption';
import type { Limits } from '../limits';
import { isFinalPhase, isResumablePhase } from '../phase-names';
import { resumeVerdict } from '../phases';
import { allowsResume } from '../rules';
import type { SessionState } from '../state';
import type { Phase } from '../phase-names';

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
 * What `stats` needs of one session, without the rest of it (a store keeps these beside the state: the file store's
 * listing cache, PostgreSQL's `session_facts` table, so a million sessions are counted without being read). Pure: the
 * figures that depend on the clock (`active`, `resumable_now`) are judged on the states of the live sessions.
 */
export interface StatsFacts {
  readonly agent_name: string;
  readonly project: string | null;
  readonly phase: Phase;
  readonly created_at: string;
  readonly last_updated: string;
  readonly error_count: number;
  readonly duration_seconds: number | null;
  readonly resumes: number;
  readonly approvals: number;
  readonly rejections: number;
  /** Seconds from entering approval to each decision. */
  readonly decision_waits: readonly number[];
  readonly interruptions: number;
  readonly carried_on: number;
  readonly interrupted_now: boolean;
  readonly permission_requests: number;
  readonly permissions_granted: number;
  readonly permissions_refused: number;
  readonly permissions_spent: number;
  readonly continued: number;
  readonly primed: boolean;
}

/** The facts of one session (see StatsFacts). */
export function statsFactsOf(state: SessionState): StatsFacts {
  let granted = 0;
  let refused = 0;
  let spent = 0;
  for (const request of state.permission_requests ?? []) {
    if (request.status === 'rejected') refused += 1;
    if (request.status === 'spent') spent += 1;
    // Granted: approved at some point (a spent grant was one; an expired one with a decision and an expiry too).
    if (request.status === 'approved' || request.status === 'spent' || request.expires_at !== undefined) granted += 1;
  }
  let approvals = 0;
  let rejections = 0;
  const waits: number[] = [];
  for (const decision of state.decisions ?? []) {
    if (decision.decision === 'approved') approvals += 1;
    else rejections += 1;
    waits.push(Math.max(0, (Date.parse(decision.at) - Date.parse(decision.waiting_since)) / 1000));
  }
  return {
    agent_name: state.agent_name,
    project: state.project ?? null,
    phase: state.phase,
    created_at: state.created_at,
    last_updated: state.last_updated,
    error_count: state.error_count,
    duration_seconds: isFinalPhase(state.phase) ? (state.duration_seconds ?? null) : null,
    resumes: resumeCount(state),
    approvals,
    rejections,
    decision_waits: waits,
    interruptions: state.interruption?.count ?? 0,
    carried_on: state.interruption?.carried_on ?? 0,
    interrupted_now: isInterrupted(state),
    permission_requests: state.permission_requests?.length ?? 0,
    permissions_granted: granted,
    permissions_refused: refused,
    permissions_spent: spent,
    continued: state.continuation?.count ?? 0,
    primed: state.continuation?.choice === 'prime',
  };
}

/** The figures of a group that add up (a store may count them per part and add the parts: mergeSums). */
export interface StatsSums {
  sessions: number;
  completed: number;
  failed: number;
  abandoned: number;
  resumes: number;
  resumed: number;
  duration_total: number;
  durations: number;
  by_error_count: Record<string, number>;
  approvals: number;
  rejections: number;
  interruptions: number;
  carried_on: number;
  interrupted_now: number;
  permission_requests: number;
  permissions_granted: number;
  permissions_refused: number;
  permissions_spent: number;
  continued: number;
  primed: number;
  /** The latest `last_updated`, ms since the epoch; null without sessions. */
  last_activity: number | null;
}

/** A group's sums and its two medians (which do not add up, so a store computes them per group), unrounded. */
export interface TallyGroup {
  readonly sums: StatsSums;
  readonly median_duration: number | null;
  readonly median_decision: number | null;
}

/**
 * The figures a store counts for `stats` (SessionStore.stats): overall, per agent name and per project (null: of
 * none), every one but those the clock decides.
 */
export interface StatsTally {
  readonly overall: TallyGroup;
  readonly agents: Readonly<Record<string, TallyGroup>>;
  readonly projects: readonly { readonly project: string | null; readonly group: TallyGroup }[];
}

/** Sums of no session. */
export function emptySums(): StatsSums {
  return {
    sessions: 0,
    completed: 0,
    failed: 0,
    abandoned: 0,
    resumes: 0,
    resumed: 0,
    duration_total: 0,
    durations: 0,
    by_error_count: Object.create(null) as Record<string, number>,
    approvals: 0,
    rejections: 0,
    interruptions: 0,
    carried_on: 0,
    interrupted_now: 0,
    permission_requests: 0,
    permissions_granted: 0,
    permissions_refused: 0,
    permissions_spent: 0,
    continued: 0,
    primed: 0,
    last_activity: null,
  };
}

/** Adds `part` into `into` (both sums of disjoint sessions). */
export function mergeSums(into: StatsSums, part: StatsSums): void {
  for (const key of Object.keys(part) as (keyof StatsSums)[]) {
    if (key === 'by_error_count') {
      for (const [count, n] of Object.entries(part.by_error_count))
        into.by_error_count[count] = (into.by_error_count[count] ?? 0) + n;
    } else if (key === 'last_activity') {
      const at = part.last_activity;
      if (at !== null && (into.last_activity === null || at > into.last_activity)) into.last_activity = at;
    } else into[key] += part[key];
  }
}

/** The sums of one session's facts. */
function sumsOf(facts: StatsFacts): StatsSums {
  const sums = emptySums();
  sums.sessions = 1;
  if (isFinalPhase(facts.phase)) {
    sums[facts.phase] = 1;
    if (facts.duration_seconds !== null) {
      sums.duration_total = facts.duration_seconds;
      sums.durations = 1;
    }
  }
  sums.resumes = facts.resumes;
  sums.resumed = facts.resumes > 0 ? 1 : 0;
  sums.by_error_count[facts.error_count] = 1;
  sums.approvals = facts.approvals;
  sums.rejections = facts.rejections;
  sums.interruptions = facts.interruptions;
  sums.carried_on = facts.carried_on;
  sums.interrupted_now = facts.interrupted_now ? 1 : 0;
  sums.permission_requests = facts.permission_requests;
  sums.permissions_granted = facts.permissions_granted;
  sums.permissions_refused = facts.permissions_refused;
  sums.permissions_spent = facts.permissions_spent;
  sums.continued = facts.continued;
  sums.primed = facts.primed ? 1 : 0;
  sums.last_activity = Date.parse(facts.last_updated);
  return sums;
}

/**
 * The tally of sessions' facts, those created at or after `since` when given (what a store without SQL answers
 * SessionStore.stats with). Projects and agents without a session kept are not in it.
 */
export function tallyFacts(facts: readonly StatsFacts[], since?: Date): StatsTally {
  const kept = since === undefined ? facts : facts.filter((one) => Date.parse(one.created_at) >= since.getTime());
  const groups = (key: (one: StatsFacts) => string | null): Map<string | null, StatsFacts[]> => {
    const map = new Map<string | null, StatsFacts[]>();
    for (const one of kept) {
      const name = key(one);
      const list = map.get(name);
      if (list === undefined) map.set(name, [one]);
      else list.push(one);
    }
    return map;
  };
  const agents: Record<string, TallyGroup> = Object.create(null) as Record<string, TallyGroup>;
  for (const [name, own] of groups((one) => one.agent_name)) agents[name!] = tallyGroup(own);
  return {
    overall: tallyGroup(kept),
    agents,
    projects: [...groups((one) => one.project)].map(([project, own]) => ({ project, group: tallyGroup(own) })),
  };
}

function tallyGroup(facts: readonly StatsFacts[]): TallyGroup {
  const sums = emptySums();
  const durations: number[] = [];
  const waits: number[] = [];
  for (const one of facts) {
    mergeSums(sums, sumsOf(one));
    if (isFinalPhase(one.phase) && one.duration_seconds !== null) durations.push(one.duration_seconds);
    waits.push(...one.decision_waits);
  }
  return { sums, median_duration: rawMedian(durations), median_decision: rawMedian(waits) };
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

/** The median of `values`, unrounded; null for none. */
export function rawMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
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
