import { SessionError, isSessionError } from './errors';
import { agentNameProblem, metadataProblem, requiredTextProblem } from './input';
import { isFinalPhase, isResumablePhase } from './phase-names';
import { movePhase } from './phases';
import type { Limits } from './limits';
import { isAheadOfClock, latestSane } from './rules';
import type { SessionState } from './state';

/**
 * Checks the rules that hold across a state's fields for every session the machine produces: `resume_ready`
 * matches the phase, `finalized_at` is there exactly when the phase is final, and the history is a chain of
 * legal moves (from `initializing` unless the cap dropped its start, each `from_phase` the previous `to_phase`,
 * the last `to_phase` the phase; a resume stays in its resumable phase, or picks up an approval or an interruption; an
 * interruption stays in its phase and comes with the `interruption` record, whose counts agree); times in order (created ≤ last updated,
 * created ≤ finalized, history entries from created on and in order, `duration_seconds` their difference), a
 * purpose `create` takes, `resumes_dropped` ≤ `history_dropped`, `last_error`
 * exactly when `error_count` > 0, an agent name `create` takes, and metadata `create` takes (depth and size). The schema checks each field; this is
 * for states made elsewhere (imports), which must not bring in a session the machine could never reach.
 * @throws SessionError E_CORRUPT naming the first rule broken, what was expected and what was found
 */
export function assertCoherent(state: SessionState): void {
  const problem = firstProblem(state);
  if (problem !== null) throw new SessionError('E_CORRUPT', problem);
}

/**
 * Checks that no timestamp of `state` lies ahead of `now` beyond the clock-skew bound: such a session would be the
 * "newest" of its agent and never expire (imports; the machine itself writes only its own clock's times).
 * @throws SessionError E_CORRUPT naming the field, its value and the latest time accepted
 */
export function assertNotAhead(state: SessionState, now: Date, limits: Pick<Limits, 'clockSkewMinutes'>): void {
  const times: [string, string | undefined][] = [
    ['created_at', state.created_at],
    ['last_updated', state.last_updated],
    ['finalized_at', state.finalized_at],
    ['last_error.timestamp', state.last_error?.timestamp],
    ['interruption.at', state.interruption?.at],
    ...state.history.map((entry, index): [string, string] => [`history.${index}.timestamp`, entry.timestamp]),
    ...(state.decisions ?? []).map((entry, index): [string, string] => [`decisions.${index}.at`, entry.at]),
  ];
  for (const [field, value] of times) {
    if (value !== undefined && isAheadOfClock(value, now, limits)) {
      const latest = new Date(latestSane(now, limits)).toISOString();
      const message = `Expected \`${field}\` to be no later than ${latest} (this clock plus the skew bound), got ${value}`;
      throw new SessionError('E_CORRUPT', message);
    }
  }
}

// --- internal ---

/** Seconds of disagreement allowed between `duration_seconds` and `finalized_at − created_at` (other writers round). */
const DURATION_TOLERANCE_S = 1;

/** The rules between times, counters and the name that every session this machine writes keeps. */
function factProblem(state: SessionState): string | null {
  const name = agentNameProblem(state.agent_name);
  if (name !== null) return `Expected \`agent_name\` to be ${name} (as \`create\` requires)`;
  const purpose = requiredTextProblem(state.purpose);
  if (purpose !== null) return `Expected \`purpose\` to be ${purpose} (as \`create\` requires)`;
  const metadata = metadataProblem(state.metadata);
  if (metadata !== null) return `${metadata} (as \`create\` requires)`;
  const created = Date.parse(state.created_at);
  // The machine stamps history entries with its clock as it goes: none before the session began, none out of order.
  for (const [index, entry] of state.history.entries()) {
    const before = state.history[index - 1];
    const previous =
      before === undefined
        ? { field: '`created_at`', at: state.created_at }
        : { field: `\`history.${index - 1}.timestamp\``, at: before.timestamp };
    if (Date.parse(entry.timestamp) < Date.parse(previous.at)) {
      return `Expected \`history.${index}.timestamp\` to be no earlier than ${previous.field} (${previous.at}), got ${entry.timestamp}`;
    }
  }
  if (Date.parse(state.last_updated) < created) {
    return `Expected \`last_updated\` to be no earlier than \`created_at\` (${state.created_at}), got ${state.last_updated}`;
  }
  if (state.finalized_at !== undefined && Date.parse(state.finalized_at) < created) {
    return `Expected \`finalized_at\` to be no earlier than \`created_at\` (${state.created_at}), got ${state.finalized_at}`;
  }
  if (state.duration_seconds !== undefined) {
    if (state.finalized_at === undefined)
      return `Expected no \`duration_seconds\` without \`finalized_at\`, got ${state.duration_seconds}`;
    const expected = (Date.parse(state.finalized_at) - created) / 1000;
    if (!(Math.abs(state.duration_seconds - expected) <= DURATION_TOLERANCE_S)) {
      const rule = `\`finalized_at\` − \`created_at\` (${expected}) within ${DURATION_TOLERANCE_S} s`;
      return `Expected \`duration_seconds\` to be ${rule}, got ${state.duration_seconds}`;
    }
  }
  if ((state.resumes_dropped ?? 0) > (state.history_dropped ?? 0)) {
    return `Expected \`resumes_dropped\` to be at most \`history_dropped\` (${state.history_dropped ?? 0}), got ${state.resumes_dropped}`;
  }
  const decisions = decisionProblem(state);
  if (decisions !== null) return decisions;
  const interruption = interruptionProblem(state);
  if (interruption !== null) return interruption;
  if (state.last_error !== null && state.error_count === 0)
    return 'Expected `error_count` of at least 1 with a `last_error`, got 0';
  if (state.last_error === null && state.error_count > 0) {
    return `Expected a \`last_error\` with \`error_count\` ${state.error_count}, got null`;
  }
  return null;
}

/** Decisions in order, each after the wait it ended and within the session's life (parseState checks the version). */
function decisionProblem(state: SessionState): string | null {
  const decisions = state.decisions ?? [];
  let previous = state.created_at;
  for (const [index, entry] of decisions.entries()) {
    if (
      Date.parse(entry.waiting_since) < Date.parse(state.created_at) ||
      Date.parse(entry.at) < Date.parse(entry.waiting_since)
    )
      return `Expected \`decisions.${index}\` to wait from no earlier than \`created_at\` to its \`at\`, got ${entry.waiting_since} → ${entry.at}`;
    if (Date.parse(entry.at) < Date.parse(previous) || Date.parse(entry.at) > Date.parse(state.last_updated))
      return `Expected \`decisions.${index}.at\` between ${previous} and \`last_updated\` (${state.last_updated}), got ${entry.at}`;
    previous = entry.at;
  }
  return null;
}

/** The interruption record's counts agree with each other and with the history's `interrupted` entries. */
function interruptionProblem(state: SessionState): string | null {
  const entries = state.history.filter((entry) => entry.event === 'interrupted').length;
  const record = state.interruption;
  if (record === undefined) {
    return entries === 0
      ? null
      : `Expected an \`interruption\` record with ${entries} \`interrupted\` history entries, got none`;
  }
  const pending = record.waiting ? 1 : 0;
  if (record.carried_on + pending > record.count) {
    return `Expected \`interruption.carried_on\` (${record.carried_on}) plus the one waiting (${pending}) to be at most \`interruption.count\` (${record.count})`;
  }
  if (entries > record.count || ((state.history_dropped ?? 0) === 0 && entries !== record.count)) {
    return `Expected \`interruption.count\` (${record.count}) to be the number of \`interrupted\` history entries (${entries}, or more when the cap dropped some)`;
  }
  if (Date.parse(record.at) < Date.parse(state.created_at) || Date.parse(record.at) > Date.parse(state.last_updated))
    return `Expected \`interruption.at\` between \`created_at\` and \`last_updated\`, got ${record.at}`;
  return null;
}

function firstProblem(state: SessionState): string | null {
  const { phase, history } = state;
  const facts = factProblem(state);
  if (facts !== null) return facts;
  if (state.resume_ready !== isResumablePhase(phase)) {
    return `Expected \`resume_ready\` to be ${String(isResumablePhase(phase))} in phase \`${phase}\`, got ${String(state.resume_ready)}`;
  }
  if (isFinalPhase(phase) !== (state.finalized_at !== undefined)) {
    return isFinalPhase(phase)
      ? `Expected \`finalized_at\` in final phase \`${phase}\`, got none`
      : `Expected no \`finalized_at\` in phase \`${phase}\`, got ${state.finalized_at}`;
  }
  // An interruption not yet carried on, so that the next resume may carry it on in any working phase (when the cap
  // dropped the start, the one the record says is waiting may be among the dropped entries).
  let interrupted = (state.history_dropped ?? 0) > 0 && state.interruption !== undefined;
  for (const [index, entry] of history.entries()) {
    const previous = history[index - 1];
    if (previous !== undefined && entry.from_phase !== previous.to_phase) {
      return `Expected \`history.${index}.from_phase\` to be \`${previous.to_phase}\` (the previous \`to_phase\`), got \`${entry.from_phase}\``;
    }
    if (entry.event === 'interrupted') {
      if (entry.from_phase !== entry.to_phase || isFinalPhase(entry.to_phase)) {
        return `Expected the interruption at \`history.${index}\` to stay in one working phase, got \`${entry.from_phase}\` → \`${entry.to_phase}\``;
      }
      interrupted = true;
      continue;
    }
    if (entry.event === 'continue') {
      // The stopped agent back with its context (issue 34): in the phase it stopped in, carrying on an interruption.
      if (entry.from_phase !== entry.to_phase || isFinalPhase(entry.to_phase)) {
        return `Expected the continuation at \`history.${index}\` to stay in one working phase, got \`${entry.from_phase}\` → \`${entry.to_phase}\``;
      }
      interrupted = false;
      continue;
    }
    if (entry.event === 'resume') {
      // In executing only the pickup of an approval: right after the approval → executing move.
      const pickup =
        entry.to_phase === 'executing' &&
        previous?.event === undefined &&
        previous?.from_phase === 'approval' &&
        previous.to_phase === 'executing';
      const carryOn = interrupted && !isFinalPhase(entry.to_phase);
      interrupted = false;
      if (entry.from_phase !== entry.to_phase || !(isResumablePhase(entry.to_phase) || pickup || carryOn)) {
        return `Expected the resume at \`history.${index}\` to stay in one resumable phase (or pick up an approval in executing, or an interruption), got \`${entry.from_phase}\` → \`${entry.to_phase}\``;
      }
      continue;
    }
    try {
      movePhase(entry.from_phase, entry.to_phase);
    } catch (error) {
      if (!isSessionError(error, 'E_ILLEGAL_TRANSITION')) throw error;
      return `\`history.${index}\`: ${error.message}`;
    }
  }
  const last = history.at(-1);
  if (last !== undefined && last.to_phase !== phase) {
    return `Expected the last \`history\` entry to end in the phase \`${phase}\`, got \`${last.to_phase}\``;
  }
  // Only the history cap cuts the start off: an uncapped history begins where every session begins.
  if ((state.history_dropped ?? 0) > 0) return null;
  if (last === undefined && phase !== 'initializing') {
    return `Expected a \`history\` leading to phase \`${phase}\` (only \`initializing\` starts without one), got none`;
  }
  const first = history[0];
  if (first !== undefined && first.from_phase !== 'initializing') {
    return `Expected \`history.0.from_phase\` to be \`initializing\` (no entry was dropped), got \`${first.from_phase}\``;
  }
  return null;
}
