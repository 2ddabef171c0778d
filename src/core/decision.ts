import { SessionError, show } from './errors';
import { agentNameProblem, requiredTextProblem } from './input';
import { finalizeState, applyChange } from './session';
import { DECISIONS_SCHEMA_VERSION, type Decision, type SessionState } from './state';

/** Where a rejection sends a session: back to planning (the default), or ended as abandoned. */
export const REJECT_TARGETS = ['planning', 'abandoned'] as const;
export type RejectTarget = (typeof REJECT_TARGETS)[number];

/** A user's approval: who, and an optional note. */
export interface ApproveInput {
  readonly by: string;
  readonly note?: string;
}

/** A user's rejection: who, why (required), and where the session goes. */
export interface RejectInput {
  readonly by: string;
  readonly reason: string;
  readonly to?: RejectTarget;
}

/**
 * Approves a session parked in approval: records the decision and moves it to executing, in one new state (the
 * caller writes it under the session's lock, so the decision and the phase change are one write).
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is not in approval; E_USAGE for a blank `by` or note
 */
export function approveState(state: SessionState, input: ApproveInput, now: Date): SessionState {
  const by = assertName(input.by);
  const note = input.note === undefined ? undefined : assertNote(input.note);
  assertInApproval(state, 'approve');
  const moved = applyChange(state, { phase: 'executing' }, now);
  return withDecision(moved, state, { decision: 'approved', by, note, to_phase: 'executing' }, now);
}

/**
 * Rejects a session parked in approval: records the decision with its reason and sends the session back to planning,
 * or finalizes it abandoned (the reason as summary), in one new state.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is not in approval; E_USAGE for a blank `by`, a blank
 *   reason or another target
 */
export function rejectState(state: SessionState, input: RejectInput, now: Date): SessionState {
  const by = assertName(input.by);
  const problem = requiredTextProblem(input.reason);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`reason\` to be ${problem}`);
  const reason = input.reason;
  const to = parseRejectTarget(input.to ?? 'planning');
  assertInApproval(state, 'reject');
  const moved =
    to === 'abandoned'
      ? finalizeState(state, 'abandoned', `Rejected by ${by}: ${reason}`, now)
      : applyChange(state, { phase: 'planning' }, now);
  return withDecision(moved, state, { decision: 'rejected', by, note: reason, to_phase: to }, now);
}

/**
 * Checks `--to` of a rejection.
 * @throws SessionError E_USAGE naming the value and the targets
 */
export function parseRejectTarget(value: unknown): RejectTarget {
  if (!(REJECT_TARGETS as readonly unknown[]).includes(value)) {
    throw new SessionError('E_USAGE', `Expected \`to\` to be one of ${REJECT_TARGETS.join(', ')}, got ${show(value)}`);
  }
  return value as RejectTarget;
}

/**
 * Since when a session has waited in its current phase: the time of the last history entry that moved it there
 * (a resume does not restart the wait), else its creation (an uncapped history without such an entry), else the
 * oldest kept entry (the history cap dropped the move).
 */
export function waitingSince(state: SessionState): string {
  for (let index = state.history.length - 1; index >= 0; index--) {
    const entry = state.history[index]!;
    if (entry.to_phase === state.phase && entry.from_phase !== state.phase) return entry.timestamp;
    if (entry.to_phase !== state.phase) break;
  }
  if ((state.history_dropped ?? 0) === 0 || state.history.length === 0) return state.created_at;
  return state.history[0]!.timestamp;
}

/**
 * A decision in one sentence for an agent's resume context: `rejected by alice at 2026-11-23T14:00:00.000Z (sent to
 * planning): split it in two`. The time is ISO, as the contexts' history lines give it: the hooks' bundles stay
 * without date-fns' formatter and its locale (start-up cost on every delegation).
 */
export function decisionSentence(decision: Decision): string {
  const where = decision.to_phase === 'abandoned' ? 'session ended' : `sent to ${decision.to_phase}`;
  const note = decision.note === undefined ? '' : `: ${decision.note}`;
  return `${decision.decision} by ${decision.by} at ${decision.at} (${where})${note}`;
}

/** The newest decision on a session, or null when none was recorded. */
export function lastDecision(state: SessionState): Decision | null {
  return state.decisions?.at(-1) ?? null;
}

// --- internal ---

/** Who decided: a name as `create` takes an agent name (non-blank, no control characters). */
function assertName(value: unknown): string {
  const problem = agentNameProblem(value);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`by\` to be ${problem}`);
  return value as string;
}

/** A note, when given, says something: a blank one is a slip (`--note ""`), as a blank reason is. */
function assertNote(value: unknown): string {
  const problem = requiredTextProblem(value);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`note\` to be ${problem}`);
  return value as string;
}

function assertInApproval(state: SessionState, verb: string): void {
  if (state.phase !== 'approval') {
    throw new SessionError(
      'E_ILLEGAL_TRANSITION',
      `Cannot ${verb} session \`${state.agent_id}\`: expected it in phase \`approval\`, got \`${state.phase}\``,
    );
  }
}

function withDecision(
  moved: SessionState,
  before: SessionState,
  facts: Pick<Decision, 'decision' | 'by' | 'to_phase'> & { readonly note: string | undefined },
  now: Date,
): SessionState {
  const decision: Decision = {
    decision: facts.decision,
    by: facts.by,
    at: now.toISOString(),
    ...(facts.note === undefined ? {} : { note: facts.note }),
    to_phase: facts.to_phase,
    waiting_since: waitingSince(before),
  };
  return { ...moved, schema_version: DECISIONS_SCHEMA_VERSION, decisions: [...(before.decisions ?? []), decision] };
}
