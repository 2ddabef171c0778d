import { SessionError, show } from './errors';
import { agentNameProblem, requiredTextProblem } from './input';
import { assertNotAgentShell, type DecisionOrigin } from './origin';
import { DEFAULT_PERMISSION_GRANT_TTL_HOURS, grantPending, refusePending } from './permission';
import { quoted } from './quote';
import { sealNew } from './seal';
import { finalizeState, applyChange } from './session';
import { versionFor, type Decision, type SessionState } from './state';

/** Where a rejection sends a session: back to planning (the default), or ended as abandoned. */
export const REJECT_TARGETS = ['planning', 'abandoned'] as const;
export type RejectTarget = (typeof REJECT_TARGETS)[number];

/**
 * A user's approval: an optional note, and optionally a name to record as the decider (`--by`: claimed, never
 * checked; without it the decision is the OS user's).
 */
export interface ApproveInput {
  readonly by?: string;
  readonly note?: string;
  /** How long the grant of a pending permission request lasts (core/permission.ts); default 24 hours. */
  readonly grantTtlHours?: number;
}

/** A user's rejection: why (required), where the session goes, and optionally a claimed name (as ApproveInput). */
export interface RejectInput {
  readonly by?: string;
  readonly reason: string;
  readonly to?: RejectTarget;
}

/**
 * Approves a session parked in approval: records the decision, with where it came from, grants its pending permission
 * request if it has one (core/permission.ts), and moves the session to executing, in one new state (the caller writes it under the session's lock: decision and phase are one write). With `sign` (this user's MAC, core/seal.ts:
 * a file store's), the decision and the grant are sealed, so they count here.
 * @throws SessionError E_AGENT_SHELL when `origin` is an AI agent's shell; E_ILLEGAL_TRANSITION when the session is
 *   not in approval; E_USAGE for a blank `by` or note
 */
export function approveState(
  state: SessionState,
  input: ApproveInput,
  origin: DecisionOrigin,
  now: Date,
  sign?: (text: string) => string,
): SessionState {
  assertNotAgentShell(origin, 'approve');
  const by = deciderOf(input.by, origin);
  const note = input.note === undefined ? undefined : assertNote(input.note);
  assertInApproval(state, 'approve');
  const moved = applyChange(state, { phase: 'executing' }, now);
  const decided = withDecision(moved, state, { decision: 'approved', ...by, note, to_phase: 'executing' }, now);
  // A sub-agent's pending permission request (issue 33) is granted in the same write: exactly that call, once.
  const granted = grantPending(decided, now, input.grantTtlHours ?? DEFAULT_PERMISSION_GRANT_TTL_HOURS);
  return sign === undefined ? granted : sealNew(state, granted, sign);
}

/**
 * Rejects a session parked in approval: records the decision with its reason and where it came from (its pending
 * permission request, if any, refused with that reason), and sends the
 * session back to planning, or finalizes it abandoned (the reason as summary), in one new state (sealed with `sign`, as
 * approveState's).
 * @throws SessionError E_AGENT_SHELL when `origin` is an AI agent's shell; E_ILLEGAL_TRANSITION when the session is
 *   not in approval; E_USAGE for a blank `by`, a blank reason or another target
 */
export function rejectState(
  state: SessionState,
  input: RejectInput,
  origin: DecisionOrigin,
  now: Date,
  sign?: (text: string) => string,
): SessionState {
  assertNotAgentShell(origin, 'reject');
  const by = deciderOf(input.by, origin);
  const problem = requiredTextProblem(input.reason);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`reason\` to be ${problem}`);
  const reason = input.reason;
  const to = parseRejectTarget(input.to ?? 'planning');
  assertInApproval(state, 'reject');
  const moved =
    to === 'abandoned'
      ? finalizeState(state, 'abandoned', `Rejected by ${by.by}: ${reason}`, now)
      : applyChange(state, { phase: 'planning' }, now);
  const decided = withDecision(moved, state, { decision: 'rejected', ...by, note: reason, to_phase: to }, now);
  const refused = refusePending(decided, reason, now);
  return sign === undefined ? refused : sealNew(state, refused, sign);
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
 * A decision in one sentence for an agent's resume context, every recorded text quoted (JSON-style, so a claimed name
 * or a note cannot pose as our words): `rejected by "alice" (claimed; OS user "bob", at a terminal) at
 * 2026-11-23T14:00:00.000Z (sent to planning); note: "split it in two"`. The time is ISO, as the contexts' history
 * lines give it: the hooks' bundles stay without date-fns' formatter and its locale (start-up cost on every call).
 */
export function decisionSentence(decision: Decision, noteLimit = Infinity): string {
  // Issue 40 item 3: a decision this machine's user did not record is never told as one (what it claims stays unsaid).
  if (decision.unverified === true) return NOT_VERIFIED_SENTENCE;
  const where = decision.to_phase === 'abandoned' ? 'session ended' : `sent to ${decision.to_phase}`;
  const note = decision.note === undefined ? '' : `; note: ${quoted(decision.note, noteLimit)}`;
  return `${decision.decision} by ${deciderText(decision, (text) => quoted(text))} at ${decision.at} (${where})${note}`;
}

/** What an agent is told of a decision not verified here (core/seal.ts), in place of what it claims. */
export const NOT_VERIFIED_SENTENCE =
  "a decision not verified here (recorded elsewhere, by a copy or by hand, not by this machine's user): it counts for " +
  'nothing, and the session waits for the user to decide';

/** How every view marks a decision or grant not verified here. */
export const NOT_VERIFIED = 'not verified here';

/**
 * Who decided and where the decision came from, as `show` and the CLI say it: `alice (claimed; OS user bob, at a
 * terminal)`, `bob (OS user, recorded without a terminal)`, `bob (OS user, in the browser)` (the page of a `serve`
 * started at a terminal; else `in the browser, page of a server started without a terminal`), or `alice (origin not
 * recorded)` for a decision of an older version; `…; not verified here: it counts for nothing` when its MAC does not
 * check out here (core/seal.ts). `quote` renders the recorded names (the hooks' contexts quote them; a terminal escapes them).
 */
export function deciderText(decision: Decision, quote: (text: string) => string = (text) => text): string {
  const text = claimedDecider(decision, quote);
  // Issue 40 item 3: its MAC does not check out under this user's key (core/seal.ts).
  return decision.unverified === true ? `${text}; ${NOT_VERIFIED}: it counts for nothing` : text;
}

function claimedDecider(decision: Decision, quote: (text: string) => string): string {
  const imported = decision.imported;
  // Recorded elsewhere: its origin is that store's word, never shown as a decision taken here.
  if (imported !== undefined)
    return `${quote(decision.by)} (imported by OS user ${quote(imported.by)} at ${imported.at} from ${quote(imported.from)}; origin not verified here)`;
  const origin = decision.origin;
  if (origin === undefined) return `${quote(decision.by)} (origin not recorded)`;
  const where = whereRecorded(origin);
  if (!origin.claimed) return `${quote(decision.by)} (OS user, ${where})`;
  return `${quote(decision.by)} (claimed; OS user ${quote(origin.os_user)}, ${where})`;
}

/**
 * Who a decision recorded with `origin` is by, as deciderText says it: `bob (OS user, in the browser)` (the live page
 * says so beside its buttons).
 */
export function recordedAsText(origin: DecisionOrigin): string {
  return `${origin.os_user} (OS user, ${whereRecorded(origin)})`;
}

/**
 * A session as it comes into a store by `import` or `copy`: each of its decisions marked imported (by the importing
 * OS user, at the target's clock, from the file or store), its version stamped. A session without decisions is
 * returned as it is. Refused from a detected AI agent's shell (its decisions would pass for the user's, as `approve`
 * from there would).
 * @throws SessionError E_AGENT_SHELL when `origin` is an agent's shell and the session holds a decision
 */
export function importedState(
  state: SessionState,
  origin: DecisionOrigin,
  at: Date,
  from: string,
  verb: 'import' | 'copy',
): SessionState {
  if ((state.decisions ?? []).length === 0) return state;
  assertNotAgentShell(origin, verb, ` of a session holding decisions (\`${state.agent_id}\`)`);
  const imported = { by: origin.os_user, at: at.toISOString(), from };
  const decisions = state.decisions!.map((decision) => ({ ...decision, imported }));
  return { ...state, decisions, schema_version: versionFor({ ...state, decisions }) };
}

/** The newest decision on a session, or null when none was recorded. */
export function lastDecision(state: SessionState): Decision | null {
  return state.decisions?.at(-1) ?? null;
}

// --- internal ---

/** Where a decision was recorded: at a terminal, without one, or in the browser (of a server started at a terminal). */
function whereRecorded(origin: Pick<DecisionOrigin, 'terminal' | 'via'>): string {
  if (origin.via === 'browser')
    // `terminal` is then whether the server's stdin was one: a server an agent started detached says so.
    return origin.terminal ? 'in the browser' : 'in the browser, page of a server started without a terminal';
  return origin.terminal ? 'at a terminal' : 'recorded without a terminal';
}

/**
 * Who decided: the claimed name (`--by`), which must be a name as `create` takes one (non-blank, no control
 * characters), else the OS user of `origin`.
 */
function deciderOf(claimed: unknown, origin: DecisionOrigin): Pick<Decision, 'by' | 'origin'> {
  const recorded = (isClaimed: boolean) => ({
    os_user: origin.os_user,
    terminal: origin.terminal,
    claimed: isClaimed,
    ...(origin.via === undefined ? {} : { via: origin.via }),
  });
  if (claimed === undefined) return { by: origin.os_user, origin: recorded(false) };
  const problem = agentNameProblem(claimed);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`by\` to be ${problem}`);
  return { by: claimed as string, origin: recorded(true) };
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
  facts: Pick<Decision, 'decision' | 'by' | 'to_phase' | 'origin'> & { readonly note: string | undefined },
  now: Date,
): SessionState {
  const decision: Decision = {
    decision: facts.decision,
    by: facts.by,
    at: now.toISOString(),
    ...(facts.note === undefined ? {} : { note: facts.note }),
    to_phase: facts.to_phase,
    waiting_since: waitingSince(before),
    ...(facts.origin === undefined ? {} : { origin: facts.origin }),
  };
  const decisions = [...(before.decisions ?? []), decision];
  const decided = { ...moved, decisions };
  return { ...decided, schema_version: versionFor(decided) };
}
