import { join } from 'node:path';
import { spawnDetached } from '../platform/detached';
import type { Call } from './call';

// Apart from notify.ts so that a hook, which only starts the notifier, bundles this much and not the inbox's views.

/** The file the detached notifiers append their lines to (in the log folder). */
export function notifyLog(logDir: string): string {
  return join(logDir, 'notify.log');
}

/**
 * Starts `agent-session notify` detached (the CLI bin beside `binDir`), its lines appended to the log folder's
 * notify.log: what a hook or `update` does after its own answer when `notify` is set, so no notifier ever holds it.
 */
export function notifyDetached(call: Call, binDir: string, storeArgs: readonly string[] = []): void {
  spawnDetached(process.execPath, [join(binDir, 'agent-session.cjs'), ...storeArgs, 'notify', '--quiet'], {
    cwd: call.cwd,
    env: call.env,
    logFile: notifyLog(call.logDir),
  });
}
