import { hostOf, type Host } from '../host';
import type { Limits } from '../limits';
import { isFinalPhase, PHASES, type Phase } from '../phase-names';
import type { SessionState } from '../state';
import { inboxOf, type InboxEntry } from './inbox';

// What the page of `agent-session serve` shows, as data (the server answers it as JSON each second; the page's script
// renders it with text nodes only). Pure: the states, the clock and the limits in, the model out.

/** Characters of what an approval would allow shown on the page (the plan, verbatim up to this). */
export const ALLOWS_LIMIT = 20_000;

/** Sessions listed on the page (the most recently active); the counts per phase cover every one. */
export const SESSIONS_LIMIT = 500;

/**
 * What a decision row is: a session parked in approval (approve / reject on the page), one parked on a sub-agent's
 * permission request (issue 33: approve grants exactly that call, once), an interrupted one, or one waiting in
 * investigating or planning for its next delegation. Every row is made from one inbox item.
 */
export type DecisionKind = 'approval' | 'permission' | 'interrupted' | 'waiting';

/** The kinds a person decides on the page (approve / reject). */
export const DECIDED_KINDS: readonly DecisionKind[] = ['approval', 'permission'];

/** One row of the page's decisions. */
export interface DecisionRow {
  readonly kind: DecisionKind;
  readonly id: string;
  readonly agent: string;
  readonly project: string | null;
  readonly host: Host;
  readonly phase: Phase;
  readonly waiting_since: string;
  readonly waited_seconds: number;
  readonly resumable: boolean;
  /** What it waits on, one clipped line (as `pending` shows it). */
  readonly waits_on: InboxEntry['waits_on'];
  /**
   * What deciding would allow, verbatim: for an approval its `plan` (else `findings`) as the agent recorded it (text
   * as it is, any other value as JSON), cut at ALLOWS_LIMIT characters; null: nothing recorded.
   */
  readonly allows: string | null;
  /** The commands that decide it from a terminal (to copy), first the one the page's button does. */
  readonly commands: readonly string[];
}

/** One row of the page's sessions. */
export interface SessionRow {
  readonly id: string;
  readonly agent: string;
  readonly project: string | null;
  readonly host: Host;
  readonly phase: Phase;
  readonly purpose: string;
  readonly created_at: string;
  readonly last_updated: string;
  readonly final: boolean;
}

/** The page's data at one instant. */
export interface LiveModel {
  readonly now: string;
  /** The project shown; null: every project's sessions. */
  readonly project: string | null;
  readonly decisions: readonly DecisionRow[];
  readonly sessions: readonly SessionRow[];
  /** Sessions in the store shown, and how many of them the list leaves out (SESSIONS_LIMIT). */
  readonly total: number;
  readonly sessions_left_out: number;
  readonly by_phase: Readonly<Record<Phase, number>>;
  readonly corrupt: number;
}

/** The inputs of the model: the sessions shown, the store's clock, the limits, the project (null: all), corrupt count. */
export interface LiveInput {
  readonly states: readonly SessionState[];
  readonly now: Date;
  readonly limits: Limits;
  readonly project: string | null;
  readonly corrupt?: number;
}

/**
 * The page's model: the decisions (every inbox item, oldest waiting first, see inboxOf), then the sessions, most
 * recently active first, with their counts per phase.
 */
export function liveModel(input: LiveInput): LiveModel {
  const byId = new Map(input.states.map((state) => [state.agent_id, state]));
  const decisions = inboxOf(input.states, input.now, input.limits).map((entry) =>
    decisionRowOf(entry, byId.get(entry.agent_id)!, input.project),
  );
  const sorted = [...input.states].sort(
    (a, b) => Date.parse(b.last_updated) - Date.parse(a.last_updated) || (a.agent_id < b.agent_id ? -1 : 1),
  );
  const by_phase = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  for (const state of input.states) by_phase[state.phase] += 1;
  return {
    now: input.now.toISOString(),
    project: input.project,
    decisions,
    sessions: sorted.slice(0, SESSIONS_LIMIT).map(sessionRowOf),
    total: input.states.length,
    sessions_left_out: Math.max(0, sorted.length - SESSIONS_LIMIT),
    by_phase,
    corrupt: input.corrupt ?? 0,
  };
}

/**
 * The decision row of one inbox item, with the session it names: its kind, what deciding allows, verbatim, and the
 * commands that decide it (with `--all-projects` when the session is not the shown project's).
 */
export function decisionRowOf(entry: InboxEntry, state: SessionState, project: string | null): DecisionRow {
  const kind: DecisionKind =
    entry.interrupted !== null
      ? 'interrupted'
      : entry.phase !== 'approval'
        ? 'waiting'
        : entry.permission !== null
          ? 'permission'
          : 'approval';
  const across = project === null || entry.project !== project ? ' --all-projects' : '';
  const commands = DECIDED_KINDS.includes(kind)
    ? [
        `agent-session approve ${entry.agent_id}${across}`,
        `agent-session reject ${entry.agent_id}${across} --reason '…'`,
      ]
    : [`agent-session show ${entry.agent_id}`];
  return {
    kind,
    id: entry.agent_id,
    agent: entry.agent_name,
    project: entry.project,
    host: hostOf(state),
    phase: entry.phase,
    waiting_since: entry.waiting_since,
    waited_seconds: entry.waited_seconds,
    resumable: entry.resumable,
    waits_on: entry.waits_on,
    allows: kind === 'approval' ? allowsOf(state) : kind === 'permission' ? permissionAllows(entry) : null,
    commands,
  };
}

// --- internal ---

function sessionRowOf(state: SessionState): SessionRow {
  return {
    id: state.agent_id,
    agent: state.agent_name,
    project: state.project ?? null,
    host: hostOf(state),
    phase: state.phase,
    purpose: state.purpose,
    created_at: state.created_at,
    last_updated: state.last_updated,
    final: isFinalPhase(state.phase),
  };
}

/** A permission request's call, verbatim: the tool and its exact input (JSON), as approving it grants it once. */
function permissionAllows(entry: InboxEntry): string | null {
  const asked = entry.permission;
  if (asked === null) return null;
  const text = `${asked.tool} ${JSON.stringify(asked.input ?? null, null, 2)}`;
  return text.length <= ALLOWS_LIMIT ? text : `${text.slice(0, ALLOWS_LIMIT)}… (cut at ${ALLOWS_LIMIT} characters)`;
}

/** The plan an approval would let run (else the findings), verbatim: text as it is, another value as JSON. */
function allowsOf(state: SessionState): string | null {
  for (const key of ['plan', 'findings'] as const) {
    const value = state.metadata[key];
    if (value === undefined || value === null || value === '') continue;
    const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
    return text.length <= ALLOWS_LIMIT ? text : `${text.slice(0, ALLOWS_LIMIT)}… (cut at ${ALLOWS_LIMIT} characters)`;
  }
  return null;
}
