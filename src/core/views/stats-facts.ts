// What `stats` counts of each session, apart from the view (stats.ts): the stores keep these facts beside the states
// (the file store's listing cache, PostgreSQL's session_facts), so every store call loads this small module and only
// the `stats` command loads the view.
import { resumeCount } from '../history';
import { isInterrupted } from '../interruption';
import { isFinalPhase, type Phase } from '../phase-names';
import type { SessionState } from '../state';

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

/**
 * The median of `values`, unrounded; null for none. Of an even count, the lower middle value plus half the gap to the
 * upper one: PostgreSQL's `percentile_cont(0.5)` computes exactly that (the PostgreSQL store's stats), and `(a + b) / 2`
 * differs from it in the last bit for some pairs, which rounding to milliseconds can show (1 ms and 18 ms: 0.0095
 * against 0.009499999999999998). Matching it here costs nothing; a second sort in SQL cost +55 % at 1M rows.
 */
export function rawMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle]!;
  const lower = sorted[middle - 1]!;
  return lower + (sorted[middle]! - lower) * 0.5;
}
