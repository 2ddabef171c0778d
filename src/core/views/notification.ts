import type { DecisionRow } from './live';

// What the `notify` setting is told of each new inbox item (pure): the target the setting names, and the message.

/** Where a notification goes: a URL POSTed JSON, or a command run by the shell with the JSON on stdin. */
export type NotifyTarget =
  { readonly kind: 'url'; readonly url: string } | { readonly kind: 'command'; readonly command: string };

/** The kinds of inbox items a person is told of: those that wait for a person (not a session between delegations). */
export const NOTIFIED_KINDS: readonly DecisionRow['kind'][] = ['approval', 'permission', 'interrupted'];

/** The JSON a notifier receives: Slack-compatible `text`, and each fact apart. */
export interface Notification {
  /** One line for a chat: who waits, for what, and how to decide. */
  readonly text: string;
  readonly id: string;
  /** The id's random part (its last 8 hex digits), as a person says it. */
  readonly short_id: string;
  readonly agent: string;
  readonly project: string | null;
  readonly kind: DecisionRow['kind'];
  /** What it waits for, one line (as `pending` shows it), or null. */
  readonly waits_for: string | null;
  readonly waiting_since: string;
  /** The command that decides it (or shows it). */
  readonly command: string;
  /**
   * The decision on `serve`'s page, when it runs (`http://127.0.0.1:PORT/#session=ID`): never the token. A browser that
   * opened the URL `serve` printed holds the token for that address and opens the decision; any other is told how to
   * get in.
   */
  readonly page: string | null;
}

/** The target a `notify` setting names: an http(s) URL, else a command. */
export function notifyTarget(setting: string): NotifyTarget {
  const text = setting.trim();
  return /^https?:\/\//i.test(text) ? { kind: 'url', url: text } : { kind: 'command', command: text };
}

/** The targets a `notify` setting names: one, or each of a list, in its order. */
export function notifyTargets(setting: string | readonly string[]): NotifyTarget[] {
  return (typeof setting === 'string' ? [setting] : setting).map(notifyTarget);
}

/**
 * A target as a log line or `notify` names it: a URL without its path and query (a webhook's path is its secret), a
 * command cut to 60 characters.
 */
export function targetLabel(target: NotifyTarget): string {
  if (target.kind === 'command') {
    const line = target.command.replace(/\s+/g, ' ');
    return `command ${line.length > 60 ? `${line.slice(0, 59)}…` : line}`;
  }
  try {
    return `${new URL(target.url).origin}/****`;
  } catch {
    return '****';
  }
}

/** Whether a decision row is one a person is told of. */
export function isNotified(row: DecisionRow): boolean {
  return NOTIFIED_KINDS.includes(row.kind) && (row.kind === 'interrupted' || row.resumable);
}

/**
 * The key that makes a notification once per item: the session and since when it waits (a session that waits again
 * later, after a rejection and a new plan, is a new item).
 */
export function notificationKey(row: Pick<DecisionRow, 'id' | 'waiting_since'>): string {
  return `${row.id}@${row.waiting_since}`;
}

/** The notification of one decision row. */
export function notificationOf(row: DecisionRow, page: string | null = null): Notification {
  const shortId = row.id.slice(-8);
  const waits = row.waits_on === null ? null : `${row.waits_on.source}: ${row.waits_on.text}`;
  const what =
    row.kind === 'approval'
      ? 'waits for approval'
      : row.kind === 'permission'
        ? 'waits for your permission to run a call'
        : `was interrupted in ${row.phase}`;
  const command = row.commands[0]!;
  const link = page === null ? null : pageLink(page, row.id);
  const where = link === null ? `\`${command}\`` : `\`${command}\` or ${link}`;
  // Slack reads `<…>` as links and mentions (`<!channel>`): its three characters are escaped as Slack asks, so an
  // agent's name or plan is text there too. The fields apart stay as recorded.
  const text = slackEscaped(
    `agent-session: ${row.agent} (${shortId}${row.project === null ? '' : `, ${row.project}`}) ${what}` +
      `${waits === null ? '' : ` (${waits})`}. Decide: ${where}`,
  );
  return {
    text,
    id: row.id,
    short_id: shortId,
    agent: row.agent,
    project: row.project,
    kind: row.kind,
    waits_for: waits,
    waiting_since: row.waiting_since,
    command,
    page: link,
  };
}

/** The link to one session's decision on the page served at `page` (its address without a fragment). */
export function pageLink(page: string, id: string): string {
  return `${page.replace(/#.*$/, '')}#session=${encodeURIComponent(id)}`;
}

/** Text as Slack's `text` takes it literally: `&`, `<` and `>` as entities (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function slackEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
