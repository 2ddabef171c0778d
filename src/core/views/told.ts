import { escapeControl } from '../control';
import type { Limits } from '../limits';
import { counted } from '../plural';
import type { SessionState } from '../state';
import { cutText } from '../text';
import { inboxOf, type InboxEntry } from './inbox';
import { pageLink } from './notification';

// What the person is told of the decisions that wait for them, in one line (pure): at the end of a main agent's turn
// (Claude Code's Stop hook, `systemMessage`: src/hooks/handlers/told.ts) and in the status line (`agent-session
// statusline`). Every recorded text is escaped by the one rule of core/control.ts: the line reaches a terminal.

/** Characters of what one decision would allow, in the line (`show` has it whole). */
export const WHAT_LIMIT = 100;

/** Decisions named in one line; the rest are counted. */
export const NAMED_LIMIT = 3;

/** One decision waiting for the person: a plan to approve, or a sub-agent's permission request (issue 33). */
export interface WaitingDecision {
  readonly id: string;
  readonly agent: string;
  readonly kind: 'approval' | 'permission';
  /**
   * What deciding allows, one escaped line cut at WHAT_LIMIT: the call asked for (`Bash {"command":"…"}`), or the
   * plan (`its plan: …`, else `its findings: …`); null: nothing recorded.
   */
  readonly what: string | null;
  /** Since when it waits: with the id, the item a person is told of once (a new plan later is a new item). */
  readonly waiting_since: string;
}

/**
 * The decisions waiting among `states` (sessions parked in approval that a delegation would still take up), oldest
 * first: what `approve` or `reject` decides.
 */
export function waitingDecisions(states: readonly SessionState[], now: Date, limits: Limits): WaitingDecision[] {
  return inboxOf(states, now, limits, ['approval'])
    .filter((entry) => entry.resumable)
    .map(decisionOf);
}

/** The key that makes a decision told once: the session and since when it waits (as `notify`'s notificationKey). */
export function toldKey(decision: Pick<WaitingDecision, 'id' | 'waiting_since'>): string {
  return `${decision.id}@${decision.waiting_since}`;
}

/**
 * The line that tells the person of `decisions` (at least one): what waits, and how to decide it: the command, and the
 * page of the `serve` running for this store (`page`, its address; null: how to start it).
 */
export function toldLine(decisions: readonly WaitingDecision[], page: string | null): string {
  const named = decisions.slice(0, NAMED_LIMIT).map(describe);
  const more = decisions.length - named.length;
  const head = `agent-session: ${counted(decisions.length, 'decision')} ${decisions.length === 1 ? 'waits' : 'wait'}`;
  const list = `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  const only = decisions.length === 1 ? decisions[0]! : null;
  const command =
    only === null
      ? 'decide each with `agent-session approve ID` or `reject ID` (`agent-session pending` lists them)'
      : `decide with \`agent-session approve ${only.id}\` or \`reject ${only.id}\``;
  const where =
    page === null
      ? 'or on the page (`agent-session serve`)'
      : `or on the page ${only === null ? page : pageLink(page, only.id)}`;
  return `${head} — ${list} · ${command} ${where}`;
}

/**
 * The status line's text: how many sessions are parked and how many decisions wait for the person
 * (`2 parked · 1 waits for you`); empty when nothing is parked.
 */
export function statusText(parked: number, waiting: number): string {
  if (parked === 0 && waiting === 0) return '';
  const head = `${parked} parked`;
  return waiting === 0 ? head : `${head} · ${waiting} ${waiting === 1 ? 'waits' : 'wait'} for you`;
}

// --- internal ---

function decisionOf(entry: InboxEntry): WaitingDecision {
  const permission = entry.permission;
  const said = entry.waits_on;
  const raw =
    permission !== null
      ? `${permission.tool} ${JSON.stringify(permission.input ?? null)}`
      : said === null || (said.source !== 'plan' && said.source !== 'findings')
        ? null
        : said.text;
  const what = raw === null ? null : escapeControl(cutText(raw.replace(/\s+/g, ' ').trim(), WHAT_LIMIT));
  return {
    id: entry.agent_id,
    agent: escapeControl(cutText(entry.agent_name, WHAT_LIMIT)),
    kind: permission === null ? 'approval' : 'permission',
    what: what === null || permission !== null ? what : `its ${said!.source}: ${what}`,
    waiting_since: entry.waiting_since,
  };
}

function describe(decision: WaitingDecision): string {
  const who = `${decision.agent} (${decision.id.slice(-8)})`;
  if (decision.kind === 'permission') return `${who} asks to run ${decision.what ?? 'a call'}`;
  return decision.what === null ? `${who} waits for approval` : `${who} waits for approval of ${decision.what}`;
}
