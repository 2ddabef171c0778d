import { waitingSince } from '../decision';
import type { Limits } from '../limits';
import { isInterrupted } from '../interruption';
import { isFinalPhase, isResumablePhase, WORK_PHASES, type Phase } from '../phase-names';
import { resumeVerdict } from '../phases';
import { allowsResume, type ResumeReason } from '../rules';
import { pendingPermission } from '../permission';
import type { SessionState } from '../state';
import { taskLine } from '../task';
import { cutText } from '../text';

/** Characters of what a session waits on shown in the inbox (the whole text stays in the session). */
export const WAITS_ON_LIMIT = 200;

/**
 * A session waiting for a person: in approval, investigating or planning, not finalized; or interrupted (its agent
 * died of a host failure, in any working phase), waiting for the next delegation to carry it on.
 */
export interface InboxEntry {
  readonly agent_id: string;
  readonly agent_name: string;
  /** The project it belongs to; null: none (unassigned). */
  readonly project: string | null;
  readonly phase: Phase;
  /** When it entered its phase (see waitingSince), or when it was interrupted. */
  readonly waiting_since: string;
  readonly waited_seconds: number;
  readonly last_updated: string;
  /**
   * Seconds until it is idle past the resume timeout; negative: it expired that long ago; null for an interrupted
   * session (no idle limit: it waits until carried on or removed by `cleanup`).
   */
  readonly expires_in_seconds: number | null;
  readonly resumable: boolean;
  readonly reason: ResumeReason;
  /**
   * What it waits on: for an interrupted session the interruption (its kind and the host's message), else the `plan`
   * metadata, else `findings`, else the Claude agent's last message; null: nothing said.
   */
  readonly waits_on: {
    readonly source: 'interruption' | 'permission' | 'plan' | 'findings' | 'last_message';
    readonly text: string;
  } | null;
  /** The interruption it waits after (its kind and time), or null. */
  readonly interrupted: { readonly at: string; readonly error: string } | null;
  /**
   * The sub-agent's permission request it waits on (issue 33, core/permission.ts): the tool, its exact input, when and
   * by which Claude agent it was asked; `approve <id>` grants exactly that call once, `reject <id>` refuses it. Null:
   * none pending.
   */
  readonly permission: {
    readonly tool: string;
    readonly input: unknown;
    readonly at: string;
    readonly claude_agent_id: string;
    /** The folder the call would run in (issue 40 item 7): the grant holds there only; null: not recorded. */
    readonly cwd: string | null;
  } | null;
}

/**
 * The approval inbox (pure): the sessions parked in a resumable phase, and the interrupted ones in any working phase,
 * oldest waiting first (then by id), each with what it waits on, how long it has waited and how long until it stops
 * being resumable.
 * @param phases which phases to keep (default: every working phase, where only interrupted sessions wait besides
 *   approval, investigating and planning)
 */
export function inboxOf(
  states: readonly SessionState[],
  now: Date,
  limits: Limits,
  phases: readonly Phase[] = WORK_PHASES,
): InboxEntry[] {
  const entries: InboxEntry[] = [];
  for (const state of states) {
    const interruption = isInterrupted(state) ? state.interruption : undefined;
    if (isFinalPhase(state.phase) || !phases.includes(state.phase)) continue;
    if (!isResumablePhase(state.phase) && interruption === undefined) continue;
    const since = interruption?.at ?? waitingSince(state);
    const reason = resumeVerdict(state, now, limits);
    const expiresAt = Date.parse(state.last_updated) + limits.resumeTimeoutMinutes * 60_000;
    entries.push({
      agent_id: state.agent_id,
      agent_name: state.agent_name,
      project: state.project ?? null,
      phase: state.phase,
      waiting_since: since,
      waited_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000)),
      last_updated: state.last_updated,
      expires_in_seconds: interruption === undefined ? Math.floor((expiresAt - now.getTime()) / 1000) : null,
      resumable: allowsResume(reason),
      reason,
      waits_on: waitsOn(state),
      interrupted: interruption === undefined ? null : { at: interruption.at, error: interruption.error },
      permission: permissionOf(state),
    });
  }
  return entries.sort(
    (a, b) =>
      Date.parse(a.waiting_since) - Date.parse(b.waiting_since) ||
      (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0),
  );
}

// --- internal ---

function permissionOf(state: SessionState): InboxEntry['permission'] {
  const pending = state.phase === 'approval' ? pendingPermission(state) : null;
  if (pending === null) return null;
  return {
    tool: pending.tool,
    input: pending.input,
    at: pending.at,
    claude_agent_id: pending.claude_agent_id,
    cwd: pending.cwd ?? null,
  };
}

function waitsOn(state: SessionState): InboxEntry['waits_on'] {
  const interruption = isInterrupted(state) ? state.interruption : undefined;
  if (interruption !== undefined) {
    const said = interruption.message === undefined ? '' : `: ${interruption.message}`;
    return { source: 'interruption', text: clip(`${interruption.error}${said}`) };
  }
  const permission = permissionOf(state);
  if (permission !== null)
    return { source: 'permission', text: clip(`${permission.tool} ${JSON.stringify(permission.input ?? null)}`) };
  for (const source of ['plan', 'findings'] as const) {
    const value = state.metadata[source];
    if (value !== undefined && value !== null && value !== '') return { source, text: clip(value) };
  }
  const message = state.claude?.last_message;
  return message === undefined || message === '' ? null : { source: 'last_message', text: clip(message) };
}

/** One line of at most WAITS_ON_LIMIT characters: JSON for a value that is not text, whitespace runs as one space. */
function clip(value: unknown): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)))
    .replace(/\s+/g, ' ')
    .trim();
  return cutText(text, WAITS_ON_LIMIT);
}

/**
 * One thing waiting for the user's decision, as `pending` lists it: a session parked in approval (kind `approval`).
 * Each kind is one more member of this union and one more source in `pending`'s list; the table and the JSON are
 * built from the items alone.
 */
export interface DecisionItem {
  readonly kind: 'approval';
  readonly agent_id: string;
  readonly agent_name: string;
  /** The project it belongs to; null: none (unassigned). */
  readonly project: string | null;
  readonly waiting_since: string;
  readonly waited_seconds: number;
  /** Seconds until it is idle past the resume timeout; negative: it expired that long ago. */
  readonly expires_in_seconds: number;
  /** Idle past the resume timeout: no delegation takes it up until it is decided (see EXPIRED_APPROVAL). */
  readonly expired: boolean;
  readonly waits_on: InboxEntry['waits_on'];
  /**
   * The task it was delegated (core/task.ts: its delegation's description and the start of its prompt, in one line,
   * raw: each view escapes it); null: not recorded (a host that gives none, an older session).
   */
  readonly task: string | null;
  /** The sub-agent's permission request it waits on, whole (issue 33); null: an approval of its plan. */
  readonly permission: InboxEntry['permission'];
  /** The commands that decide it, as the user types them (the id in the short form a listing shows). */
  readonly decide: readonly string[];
  /**
   * Its last decision is not verified here (issue 40 item 3, core/seal.ts: recorded elsewhere, by a copy or by hand):
   * it counts for nothing, and the session waits for the user to decide again.
   */
  readonly unverified: boolean;
}

/** What approving an expired session does, for `pending` (checked by tests/e2e/cli-daily.test.ts). */
export const EXPIRED_APPROVAL =
  'idle past the resume timeout, so no delegation takes them up; approving one revives it: ' +
  'the next delegation to its agent carries it on in executing';

/**
 * The sessions waiting in approval (pure): what only the user can decide now, newest first (then by id); expired
 * ones marked, for the caller to list apart. Sessions in investigating or planning, and interrupted ones, wait for
 * an agent, not for the user: `list` shows them.
 * @param idText how an id is written in a command (the short form of the listing)
 */
export function approvalsWaiting(
  states: readonly SessionState[],
  now: Date,
  limits: Limits,
  idText: (id: string) => string = (id) => id,
): DecisionItem[] {
  const items: DecisionItem[] = [];
  for (const state of states) {
    if (state.phase !== 'approval') continue;
    const since = waitingSince(state);
    const expiresAt = Date.parse(state.last_updated) + limits.resumeTimeoutMinutes * 60_000;
    const expiresIn = Math.floor((expiresAt - now.getTime()) / 1000);
    const id = idText(state.agent_id);
    items.push({
      kind: 'approval',
      agent_id: state.agent_id,
      agent_name: state.agent_name,
      project: state.project ?? null,
      waiting_since: since,
      waited_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000)),
      expires_in_seconds: expiresIn,
      expired: expiresIn <= 0,
      waits_on: waitsOn(state),
      task: taskLine(state.task),
      permission: permissionOf(state),
      decide: [`agent-session approve ${id}`, `agent-session reject ${id} --reason …`],
      unverified: state.decisions?.at(-1)?.unverified === true,
    });
  }
  return items.sort(
    (a, b) =>
      Date.parse(b.waiting_since) - Date.parse(a.waiting_since) ||
      (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0),
  );
}
