import type { DecisionRow } from './live';
/** Where a notification goes: a URL POSTed JSON, or a command run by the shell with the JSON on stdin. */
export type NotifyTarget = {
    readonly kind: 'url';
    readonly url: string;
} | {
    readonly kind: 'command';
    readonly command: string;
};
/** The kinds of inbox items a person is told of: those that wait for a person (not a session between delegations). */
export declare const NOTIFIED_KINDS: readonly DecisionRow['kind'][];
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
export declare function notifyTarget(setting: string): NotifyTarget;
/** The targets a `notify` setting names: one, or each of a list, in its order. */
export declare function notifyTargets(setting: string | readonly string[]): NotifyTarget[];
/**
 * A target as a log line or `notify` names it: a URL without its path and query (a webhook's path is its secret), a
 * command cut to 60 characters.
 */
export declare function targetLabel(target: NotifyTarget): string;
/** Whether a decision row is one a person is told of. */
export declare function isNotified(row: DecisionRow): boolean;
/**
 * The key that makes a notification once per item: the session and since when it waits (a session that waits again
 * later, after a rejection and a new plan, is a new item).
 */
export declare function notificationKey(row: Pick<DecisionRow, 'id' | 'waiting_since'>): string;
/** The notification of one decision row. */
export declare function notificationOf(row: DecisionRow, page?: string | null): Notification;
/** The link to one session's decision on the page served at `page` (its address without a fragment). */
export declare function pageLink(page: string, id: string): string;
/** Text as Slack's `text` takes it literally: `&`, `<` and `>` as entities (https://api.slack.com/reference/surfaces/formatting#escaping). */
export declare function slackEscaped(text: string): string;
