import { CLAUDE_PURPOSE } from '../claude-link';
import { escapeControl, escapeControlInLines, escapeJsonForTerminal, unsafeCharacters } from '../control';
import { deciderText, NOT_VERIFIED, waitingSince } from '../decision';
import { hostOf, type Host } from '../host';
import type { Limits } from '../limits';
import { pendingPermission, permissionStatus } from '../permission';
import { isFinalPhase, PHASES, type Phase } from '../phase-names';
import type { PermissionRequest, SessionState } from '../state';
import { cutText } from '../text';
import { taskLine } from '../task';
import { explainResume } from './explain';
import { inboxOf, type InboxEntry } from './inbox';
import { timelineOf } from './timeline';
import { agentWord, timelineLines, type TimelineLine } from './timeline-lines';

// What the page of `agent-session serve` shows, as data (the server answers it as JSON; the page's script renders it
// with text nodes only). Pure: the states, the clock and the limits in, the model out. Every text in it is escaped by
// the one rule of core/control.ts (what is shown is what is granted), and the poll's model is bounded whatever the
// store holds: at most DECISIONS_LIMIT decision rows and SESSIONS_LIMIT session rows, each text cut, the whole texts
// of one session in its detail (sessionDetail), asked for when the person opens it. Nothing in the poll's model
// changes with the clock alone (times are instants; the page counts from them), so an unchanged store answers the
// same bytes, which the server turns into a 304.

/** Decision rows the poll carries at most (the rest are counted: `decisions_total`). */
export const DECISIONS_LIMIT = 50;

/** Characters of a long text (a plan, a request's input) the poll carries; the detail carries it whole. */
export const PREVIEW_LIMIT = 1_500;

/** Characters of a one-line text (a purpose, a task, a folder) in the poll. */
export const LINE_LIMIT = 160;

/** Characters of the agent's last message and of the task on a decision row (the detail has them whole). */
export const MESSAGE_LIMIT = 400;

/** Sessions listed on the page (the most recently active); the counts per phase cover every one. */
export const SESSIONS_LIMIT = 200;

/**
 * What a decision row is: a session parked in approval (approve / reject on the page), one parked on a sub-agent's
 * permission request (issue 33: approve grants exactly that call, once), an interrupted one, or one waiting in
 * investigating or planning for its next delegation. Every row is made from one inbox item.
 */
export type DecisionKind = 'approval' | 'permission' | 'interrupted' | 'waiting';

/** The kinds a person decides on the page (approve / reject). */
export const DECIDED_KINDS: readonly DecisionKind[] = ['approval', 'permission'];

/**
 * What the session was given to do, where its state says it: `delegation`, the words of the delegation that started
 * or resumed it (its description and the start of its prompt, core/task.ts: the host's own record, first);
 * `purpose`, the words it was created with (`create --purpose`, the seed protocol, the library; not the hooks' generic
 * one); `agent`, what its agent recorded in its metadata (`task`, else `task_id`).
 */
export interface TaskText {
  readonly text: string;
  readonly source: 'delegation' | 'purpose' | 'agent';
}

/**
 * Who parked the session, on which machine, in which folder, and when, as the parking process recorded it; null
 * until the state records it (each field null when not recorded).
 */
export interface ParkedBy {
  readonly by: string | null;
  readonly machine: string | null;
  readonly folder: string | null;
  readonly at: string;
}

/** The call a permission request asks for: the tool, where it would run, when and by which agent it was asked. */
export interface CallAsked {
  readonly tool: string;
  /** The folder the call would run in; null: not recorded with the request. */
  readonly folder: string | null;
  readonly asked_at: string;
  readonly by_agent: string;
}

/** One row of the page's decisions. */
export interface DecisionRow {
  readonly kind: DecisionKind;
  readonly id: string;
  readonly agent: string;
  readonly project: string | null;
  readonly host: Host;
  readonly phase: Phase;
  readonly waiting_since: string;
  readonly resumable: boolean;
  /** When it is idle past the resume timeout (deciding an approval still revives it); null: no limit (interrupted). */
  readonly expires_at: string | null;
  /** What it waits on, one clipped line (as `pending` shows it). */
  readonly waits_on: InboxEntry['waits_on'];
  /**
   * What deciding would allow: for an approval its `plan` (else `findings`) as the agent recorded it (text as it is,
   * any other value as JSON), for a permission request the tool and its exact input (JSON); null: nothing recorded.
   * Cut in the poll (`allows_cut`), whole in the detail.
   */
  readonly allows: string | null;
  readonly allows_cut: boolean;
  /** The call of a permission request; null for the other kinds. */
  readonly call: CallAsked | null;
  readonly task: TaskText | null;
  /** The agent's last message (an excerpt the hooks keep); null: none. */
  readonly last_message: string | null;
  readonly parked: ParkedBy | null;
  /**
   * The characters of its texts that would hide or reorder what is shown (bidirectional controls, zero-width
   * characters, separators…: `U+202E`), each once; the texts show them as `\uXXXX`. Empty: none.
   */
  readonly hidden: readonly string[];
  /**
   * Its last decision is not verified here (issue 40 item 3, core/seal.ts: recorded elsewhere, by a copy or by hand):
   * it counts for nothing, and the session waits for the person to decide again. The card says so.
   */
  readonly unverified: boolean;
  /** The commands that decide it from a terminal (to copy), first the one the page's button does. */
  readonly commands: readonly string[];
}

/** A decision row as the page has it: plus the fingerprint of what deciding it allows, sent back with the decision. */
export type PageDecision = DecisionRow & { readonly subject: string };

/** One row of the page's sessions. */
export interface SessionRow {
  readonly id: string;
  readonly agent: string;
  readonly project: string | null;
  readonly host: Host;
  readonly phase: Phase;
  readonly purpose: string;
  readonly task: TaskText | null;
  readonly created_at: string;
  readonly last_updated: string;
  readonly final: boolean;
}

/** The page's data: nothing in it changes with the clock alone. */
export interface LiveModel {
  /** The project shown; null: every project's sessions. */
  readonly project: string | null;
  /** Who a decision on this page is recorded as (`bob (OS user, in the browser)`). */
  readonly recorded_as: string;
  /** The first DECISIONS_LIMIT decision rows: those a person decides first, then interrupted, then waiting. */
  readonly decisions: readonly PageDecision[];
  /** Every decision row, and how many of each kind (the rows above are the first of them). */
  readonly decisions_total: number;
  readonly decisions_by_kind: Readonly<Record<DecisionKind, number>>;
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
  /** Who a decision here is recorded as (recordedAsText of the server's origin). */
  readonly recordedAs: string;
  /** A collision-resistant digest of a text (the server's SHA-256): the fingerprint of what a decision allows. */
  readonly digest: (text: string) => string;
}

/**
 * The page's model: the decisions (DECISIONS_LIMIT of every inbox item, those a person decides first, each group
 * oldest waiting first), then the sessions, most recently active first, with their counts per phase.
 */
export function liveModel(input: LiveInput): LiveModel {
  const byId = new Map(input.states.map((state) => [state.agent_id, state]));
  const entries = inboxOf(input.states, input.now, input.limits);
  const rows = entries.map((entry) => ({ entry, kind: kindOf(entry) }));
  // Stable: within a group, the inbox's order (oldest waiting first).
  const ordered = [...rows].sort((a, b) => groupOf(a.kind) - groupOf(b.kind));
  const decisions_by_kind = { approval: 0, permission: 0, interrupted: 0, waiting: 0 };
  for (const row of rows) decisions_by_kind[row.kind] += 1;
  const decisions = ordered.slice(0, DECISIONS_LIMIT).map(({ entry }) => {
    const state = byId.get(entry.agent_id)!;
    return pageDecision(decisionRowOf(entry, state, input.project, input.limits), state, input.digest);
  });
  const sorted = [...input.states].sort(
    (a, b) => Date.parse(b.last_updated) - Date.parse(a.last_updated) || (a.agent_id < b.agent_id ? -1 : 1),
  );
  const by_phase = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  for (const state of input.states) by_phase[state.phase] += 1;
  return {
    project: input.project,
    recorded_as: escapeControl(input.recordedAs),
    decisions,
    decisions_total: rows.length,
    decisions_by_kind,
    sessions: sorted.slice(0, SESSIONS_LIMIT).map((state) => sessionRowOf(state, LINE_LIMIT)),
    total: input.states.length,
    sessions_left_out: Math.max(0, sorted.length - SESSIONS_LIMIT),
    by_phase,
    corrupt: input.corrupt ?? 0,
  };
}

/** Every decision row of the states, uncut and unbounded (what `notify` tells of: each item once). */
export function decisionRowsOf(
  states: readonly SessionState[],
  now: Date,
  limits: Limits,
  project: string | null,
): DecisionRow[] {
  const byId = new Map(states.map((state) => [state.agent_id, state]));
  return inboxOf(states, now, limits).map((entry) =>
    decisionRowOf(entry, byId.get(entry.agent_id)!, project, limits, Infinity),
  );
}

/**
 * The decision row of one inbox item, with the session it names: its kind, what deciding allows (escaped, cut at
 * `limit` characters), and the commands that decide it (with `--all-projects` when the session is not the shown
 * project's).
 */
export function decisionRowOf(
  entry: InboxEntry,
  state: SessionState,
  project: string | null,
  limits: Limits,
  limit = PREVIEW_LIMIT,
): DecisionRow {
  const kind = kindOf(entry);
  const across = project === null || entry.project !== project ? ' --all-projects' : '';
  const commands = DECIDED_KINDS.includes(kind)
    ? [
        `agent-session approve ${entry.agent_id}${across}`,
        `agent-session reject ${entry.agent_id}${across} --reason '…'`,
      ]
    : [`agent-session show ${entry.agent_id}`];
  const raw = kind === 'approval' ? allowsOf(state) : kind === 'permission' ? permissionAllows(entry) : null;
  const allows = raw === null ? null : shown(raw, limit, true);
  const pending = kind === 'permission' ? pendingPermission(state) : null;
  const call = pending === null ? null : callOf(pending, limit);
  const task = taskOf(state, Math.min(limit, MESSAGE_LIMIT));
  const message = state.claude?.last_message;
  const last_message = message === undefined || message === '' ? null : shown(message, MESSAGE_LIMIT, true).text;
  const folder = pending === null ? null : folderOf(pending);
  const hidden = unsafeCharacters(
    [entry.agent_name, raw ?? '', message ?? '', task === null ? '' : rawTask(state)!.text, folder ?? ''].join('\n'),
    'lines',
  );
  const expiresAt =
    entry.interrupted !== null
      ? null
      : new Date(Date.parse(state.last_updated) + limits.resumeTimeoutMinutes * 60_000).toISOString();
  return {
    kind,
    id: entry.agent_id,
    agent: escapeControl(entry.agent_name),
    project: entry.project === null ? null : escapeControl(entry.project),
    host: hostOf(state),
    phase: entry.phase,
    waiting_since: entry.waiting_since,
    resumable: entry.resumable,
    expires_at: expiresAt,
    waits_on:
      entry.waits_on === null ? null : { source: entry.waits_on.source, text: escapeControl(entry.waits_on.text) },
    allows: allows?.text ?? null,
    allows_cut: allows?.cut ?? false,
    call,
    task,
    last_message,
    parked: parkedOf(state),
    hidden,
    unverified: state.decisions?.at(-1)?.unverified === true,
    commands,
  };
}

/**
 * What deciding a session allows, as one text: the wait it is in and its whole subject (the pending request's tool,
 * input and time, else the plan and findings). A decision from the page carries the digest of what the person saw;
 * the server refuses it when the session's digest differs (E_CHANGED): a request replaced, a plan rewritten since.
 */
export function decisionSubject(state: SessionState): string {
  const pending = pendingPermission(state);
  return JSON.stringify([
    state.agent_id,
    state.phase,
    waitingSince(state),
    pending === null ? null : [pending.tool, pending.input ?? null, pending.at],
    state.metadata['plan'] ?? null,
    state.metadata['findings'] ?? null,
  ]);
}

/** One session, whole, for the page's detail view: its facts, its verdict, its timeline, decisions and requests. */
export interface SessionDetail {
  readonly session: SessionRow;
  /** Its decision row with every text whole, when it waits; null otherwise. */
  readonly decision: PageDecision | null;
  readonly task: TaskText | null;
  readonly last_message: string | null;
  readonly parked: ParkedBy | null;
  readonly summary: string | null;
  readonly resume: { readonly should_resume: boolean; readonly reason: string; readonly checks: readonly string[] };
  readonly errors: { readonly count: number; readonly max: number; readonly last: string | null };
  /** The metadata as pretty JSON (escaped); null: none recorded. */
  readonly metadata: string | null;
  readonly timeline: readonly TimelineLine[];
  /** History entries the cap dropped (their phases are not in `timeline`). */
  readonly timeline_dropped: number;
  readonly decisions: readonly {
    readonly at: string;
    readonly decision: string;
    readonly by: string;
    readonly to_phase: Phase;
    readonly note: string | null;
  }[];
  readonly requests: readonly {
    readonly at: string;
    readonly tool: string;
    readonly input: string;
    readonly folder: string | null;
    readonly status: string;
    readonly by_agent: string;
    readonly reason: string | null;
    readonly spent_by: string | null;
  }[];
}

/** The detail of one session at `now`: whole texts, escaped; `project` judges the resume verdict as `show` does. */
export function sessionDetail(
  state: SessionState,
  input: Pick<LiveInput, 'now' | 'limits' | 'project' | 'digest'>,
): SessionDetail {
  const entry = inboxOf([state], input.now, input.limits)[0];
  const decision =
    entry === undefined
      ? null
      : pageDecision(decisionRowOf(entry, state, input.project, input.limits, Infinity), state, input.digest);
  const resume = explainResume(state, input.now, input.limits, input.project ?? undefined);
  const timeline = timelineOf(state, input.now);
  const metadata = Object.keys(state.metadata).length === 0 ? null : JSON.stringify(state.metadata, null, 2);
  return {
    session: sessionRowOf(state, Infinity),
    decision,
    task: taskOf(state, Infinity),
    last_message: state.claude?.last_message ? escapeControlInLines(state.claude.last_message) : null,
    parked: parkedOf(state),
    summary: state.summary === undefined ? null : escapeControlInLines(state.summary),
    resume: {
      should_resume: resume.should_resume,
      reason: resume.reason,
      checks: resume.checks.map((check) => escapeControl(`${check.ok ? 'ok' : 'NO'}  ${check.text}`)),
    },
    errors: {
      count: state.error_count,
      max: input.limits.maxErrors,
      last: state.last_error === null ? null : escapeControl(state.last_error.message),
    },
    metadata: metadata === null ? null : escapeJsonForTerminal(metadata),
    timeline: timelineLines(timeline, agentWord(state)).map((line) => ({
      ...line,
      what: escapeControl(line.what),
      detail: escapeControl(line.detail),
    })),
    timeline_dropped: timeline.dropped,
    decisions: (state.decisions ?? []).map((made) => ({
      at: made.at,
      decision: made.decision,
      by: escapeControl(deciderText(made)),
      to_phase: made.to_phase,
      note: made.note === undefined ? null : escapeControl(made.note),
    })),
    requests: (state.permission_requests ?? []).map((request) => ({
      at: request.at,
      tool: escapeControl(request.tool),
      input: escapeJsonForTerminal(JSON.stringify(request.input ?? null, null, 2)),
      folder: oneLine(folderOf(request)),
      status: statusText(request, input.now),
      by_agent: escapeControl(request.claude_agent_id),
      reason: request.reason === undefined ? null : escapeControl(request.reason),
      spent_by: request.spent_by === undefined ? null : escapeControl(request.spent_by),
    })),
  };
}

// --- internal ---

/** A request's status as the detail says it: a grant this machine's user did not make says so (issue 40 item 3). */
function statusText(request: PermissionRequest, now: Date): string {
  const status = permissionStatus(request, now);
  return request.unverified === true && status === 'approved' ? `approved, ${NOT_VERIFIED}` : status;
}

/** Those a person decides first (0), then the interrupted ones (1), then those waiting for their next delegation. */
function groupOf(kind: DecisionKind): number {
  return DECIDED_KINDS.includes(kind) ? 0 : kind === 'interrupted' ? 1 : 2;
}

function kindOf(entry: InboxEntry): DecisionKind {
  if (entry.interrupted !== null) return 'interrupted';
  if (entry.phase !== 'approval') return 'waiting';
  return entry.permission !== null ? 'permission' : 'approval';
}

function pageDecision(row: DecisionRow, state: SessionState, digest: (text: string) => string): PageDecision {
  return { ...row, subject: digest(decisionSubject(state)) };
}

function sessionRowOf(state: SessionState, limit: number): SessionRow {
  return {
    id: state.agent_id,
    agent: escapeControl(state.agent_name),
    project: state.project === undefined ? null : escapeControl(state.project),
    host: hostOf(state),
    phase: state.phase,
    purpose: shown(state.purpose, limit, false).text,
    task: taskOf(state, limit),
    created_at: state.created_at,
    last_updated: state.last_updated,
    final: isFinalPhase(state.phase),
  };
}

/** The task as the state has it (TaskText), raw. */
function rawTask(state: SessionState): TaskText | null {
  const delegated = taskLine(state.task);
  if (delegated !== null) return { text: delegated, source: 'delegation' };
  for (const key of ['task', 'task_id'] as const) {
    const value = state.metadata[key];
    if (typeof value === 'string' && value.trim() !== '') return { text: value, source: 'agent' };
  }
  if (state.purpose !== CLAUDE_PURPOSE && state.purpose.trim() !== '')
    return { text: state.purpose, source: 'purpose' };
  return null;
}

function taskOf(state: SessionState, limit: number): TaskText | null {
  const task = rawTask(state);
  return task === null ? null : { text: shown(task.text, limit, true).text, source: task.source };
}

/**
 * Who parked the session, on which machine, in which folder: not recorded by any state yet (a state field of its own,
 * left to the change that records a session's whole record, issue 43); each text escaped here when it is.
 */
function parkedOf(_state: SessionState): ParkedBy | null {
  return null;
}

/**
 * The folder a request's call would run in, raw, as the request recorded it (issue 40 item 7; null: not recorded): the
 * one place to read it, every view of it escaped.
 */
function folderOf(request: PermissionRequest): string | null {
  return request.cwd ?? null;
}

function oneLine(text: string | null): string | null {
  return text === null ? null : escapeControl(text);
}

function callOf(request: PermissionRequest, limit: number): CallAsked {
  const folder = folderOf(request);
  return {
    tool: escapeControl(request.tool),
    folder: folder === null ? null : shown(folder, limit, false).text,
    asked_at: request.at,
    by_agent: escapeControl(request.claude_agent_id),
  };
}

/** A permission request's call, verbatim: the tool and its exact input (JSON), as approving it grants it once. */
function permissionAllows(entry: InboxEntry): string | null {
  const asked = entry.permission;
  if (asked === null) return null;
  return `${asked.tool} ${JSON.stringify(asked.input ?? null, null, 2)}`;
}

/** The plan an approval would let run (else the findings), verbatim: text as it is, another value as JSON. */
function allowsOf(state: SessionState): string | null {
  for (const key of ['plan', 'findings'] as const) {
    const value = state.metadata[key];
    if (value === undefined || value === null || value === '') continue;
    return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  }
  return null;
}

/**
 * A recorded text as the page shows it: escaped by the one rule (`lines`: line breaks and tabs kept), then cut at
 * `limit` characters, never inside an escape, `…` marking the cut.
 */
function shown(raw: string, limit: number, lines: boolean): { text: string; cut: boolean } {
  // Escaping never shortens a text: its first `limit` characters (and one more, to tell a cut) make enough.
  const head = raw.length > limit + 1 ? raw.slice(0, limit + 1) : raw;
  const escaped = lines ? escapeControlInLines(head) : escapeControl(head);
  if (escaped.length <= limit) return { text: escaped, cut: false };
  return { text: `${cutText(escaped, limit, '').replace(/\\(u[0-9a-f]{0,3})?$/, '')}…`, cut: true };
}
