import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { decisionRowsOf } from '../core/views/live';
import {
  isNotified,
  notificationKey,
  notificationOf,
  notifyTargets,
  targetLabel,
  type Notification,
  type NotifyTarget,
} from '../core/views/notification';
import { claimOnce } from '../platform/detached';
import type { Sessions } from '../service/sessions';
import { runningPageOf } from './told';
export { notifyDetached, notifyLog } from './notify-spawn';

/** How long one notifier may take (a command, a POST) before it counts as failed. */
export const NOTIFY_TIMEOUT_MS = 10_000;

/** The folder (in the log folder) of the markers that make each notification once per item on this machine. */
export function notifiedDir(logDir: string): string {
  return join(logDir, 'notified');
}

/** What became of one new inbox item's notification. */
export interface NotifyOutcome {
  readonly id: string;
  readonly agent: string;
  /** Which of the setting's targets (targetLabel: a URL without its path, a command cut short). */
  readonly target: string;
  readonly ok: boolean;
  /** `sent`, or why it failed (a status, an exit code, a timeout). */
  readonly detail: string;
}

/**
 * Tells the `notify` setting of each inbox item that waits for a person (approval, interruption: NOTIFIED_KINDS) and
 * was not told yet: each one is claimed first (a marker per session and wait, core/views/notification.ts
 * notificationKey), so two sweeps at once on one machine tell it once; then each target of the setting (one, or a
 * list) is told in turn, one outcome each; a failed notifier is reported, not retried.
 */
export async function notifyNew(
  sessions: Sessions,
  options: {
    readonly setting: string | readonly string[];
    readonly allProjects: boolean;
    readonly logDir: string;
    /** The page to link to; absent: the page of a `serve` of this store root running now (runningPageOf), if any. */
    readonly page?: string | null;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
): Promise<NotifyOutcome[]> {
  const entries = await sessions.list({ activeOnly: true, allProjects: options.allProjects });
  const states = entries.flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  const rows = decisionRowsOf(
    states,
    await sessions.now(),
    sessions.limits,
    options.allProjects ? null : sessions.project,
  );
  const targets = notifyTargets(options.setting);
  const page = options.page !== undefined ? options.page : runningPageOf(options.logDir, options.env);
  const outcomes: NotifyOutcome[] = [];
  for (const row of rows) {
    if (!isNotified(row)) continue;
    if (!claimOnce(notifiedDir(options.logDir), notificationKey(row))) continue;
    const notification = notificationOf(row, page);
    for (const target of targets) {
      const detail = await send(target, notification, options.env);
      outcomes.push({ id: row.id, agent: row.agent, target: targetLabel(target), ok: detail === 'sent', detail });
    }
  }
  return outcomes;
}

// --- internal ---

/** Sends one notification: `sent`, or why not. Never throws. */
async function send(
  target: NotifyTarget,
  notification: Notification,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const body = JSON.stringify(notification);
  if (target.kind === 'url') {
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
        redirect: 'error',
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? 'sent' : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : String(error);
    }
  }
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', target.command], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {
        ...(env as NodeJS.ProcessEnv),
        AGENT_SESSION_NOTIFY_TEXT: notification.text,
        AGENT_SESSION_NOTIFY_ID: notification.id,
      },
      timeout: NOTIFY_TIMEOUT_MS,
    });
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code, signal) =>
      resolve(code === 0 ? 'sent' : signal !== null ? `killed by ${signal}` : `exit ${String(code)}`),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(body);
  });
}
