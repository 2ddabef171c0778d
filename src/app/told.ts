import { join } from 'node:path';
import { claimMarker, markerName } from '../platform/once-marker';
import { userDataFolder } from '../platform/user-folders';

// What telling the person needs from this machine (the line at a main turn's end: src/hooks/handlers/told.ts), apart
// from notify.ts so that a hook bundles this much and not the inbox's page views.

/**
 * The folder (in the log folder) of the markers that make the line at a turn's end name each decision once on this
 * machine: one empty file per item, named by its key, claimed atomically (platform/once-marker.ts), as `notify`'s. A
 * marker, not a field of the session: telling writes nothing into the agent's record (no lock, no write on a shared
 * PostgreSQL store, where each machine's person is told on their own), two hooks at once (two Claude Code sessions in
 * one project) still tell it once, and `.claude/logs` is never committed.
 */
export function toldDir(logDir: string): string {
  return join(logDir, 'told');
}

/** What a line for the person needs: the record of what was told, and the page to decide on. */
export interface PersonChannel {
  /** Claims `key` as told on this machine: true the first time, false ever after. @throws SessionError E_IO */
  claim(key: string): boolean;
  /** The page of the `serve` running for this store root, or null when none runs (runningPageOf). */
  page(): string | null;
}

/** The person's channel of a call whose log folder is `logDir`. */
export function personChannel(logDir: string, env: Readonly<Record<string, string | undefined>>): PersonChannel {
  return {
    claim: (key) => claimMarker(toldDir(logDir), markerName(key)),
    page: () => runningPageOf(logDir, env),
  };
}

/**
 * The address of the page of the `serve` running for the store root whose log folder is `logDir` (as it recorded it
 * in this user's data folder: platform/running-page.ts), or null when none runs.
 */
export function runningPageOf(logDir: string, env: Readonly<Record<string, string | undefined>>): string | null {
  const folder = userDataFolder(env);
  // Required here: the Stop hook asks only when it has something new to tell (running-page.ts loads node:crypto).
  const running =
    folder === null
      ? null
      : // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy (above)
        (require('../platform/running-page') as typeof import('../platform/running-page')).runningPage(folder, logDir);
  return running === null ? null : `http://127.0.0.1:${running.port}/`;
}
