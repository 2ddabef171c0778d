import type { Host } from '../core/host';
import { DEFAULT_CONFIG, type Config } from '../core/config';
import { SessionError, isSessionError } from '../core/errors';
import type { Sessions } from '../service/sessions';
import { configFor, logDirFor, openSessions, placeOf, type Place } from './assembly';
import { meansDatabase } from './config-file';

/**
 * What a hook does with the settings of its environment: runs with them (`valid`); with the defaults when they are
 * invalid and name no database (`defaults`, saying why in its log); or fails open when they are invalid and a
 * database is meant (`fail_open`: the defaults would select the file store, so the team's parked sessions would be
 * missed and new ones written on this disk only). `agent-session config` shows the same outcome.
 */
export type HookSettings =
  | { readonly kind: 'valid'; readonly config: Config }
  | { readonly kind: 'defaults'; readonly config: Config; readonly warning: string }
  | { readonly kind: 'fail_open'; readonly error: SessionError };

/**
 * The settings a hook runs with (defaults ← config file ← environment; never `--database-url`), or why it fails open.
 * @param place where the hook works (its store root resolved once: placeOf)
 */
export function hookSettings(place: Place): HookSettings {
  const { root, env, cwd } = place;
  try {
    return { kind: 'valid', config: configFor(place).values };
  } catch (error) {
    if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
    let database: boolean;
    try {
      database = meansDatabase(root, env, cwd);
    } catch (unreadable) {
      if (!isSessionError(unreadable)) throw unreadable;
      return { kind: 'fail_open', error: unreadable };
    }
    if (database)
      return {
        kind: 'fail_open',
        error: new SessionError(
          'E_USAGE',
          `${error.message}; a database is configured: not falling back to the file store`,
        ),
      };
    return { kind: 'defaults', config: DEFAULT_CONFIG, warning: `${error.message}; using defaults` };
  }
}

/**
 * Everything one hook call runs with, each resolved once, here: the store root, the settings (hookSettings), the log
 * folder and, on first use, the service on the store the settings select. Both protocols' answers get it from the one
 * hook runner (src/hooks/run.ts), which closes it.
 */
export interface HookCall {
  readonly root: string;
  /** The working folder the call resolved from (a Claude Code payload's `cwd`, else the process's). */
  readonly cwd: string | undefined;
  /** The settings in force: the defaults when the configuration is invalid (see `warning`, `problem`). */
  readonly config: Config;
  /** Why the defaults are in force (an invalid configuration naming no database), for the log; else null. */
  readonly warning: string | null;
  readonly logDir: string;
  /**
   * The service on the selected store, opened on first use. @throws SessionError the configuration's problem when it
   * is invalid and names a database (fail open: no store is right then)
   */
  sessions(): Sessions;
  /** Closes the store when it was opened (a connection, for PostgreSQL). */
  close(): Promise<void>;
}

/**
 * The hook call of an environment (see HookCall).
 * @param options `dir`: the store folder given by the caller (the Agent SDK's hooks object), as `--dir`;
 *   `inProcess`: the hooks live in a long-running process (the Agent SDK's app), which holds its own PostgreSQL
 *   connection (no relay: that serves short hook processes) for as long as the call is open; `host`: the host whose
 *   hooks the call answers (core/host.ts; default Claude Code)
 * @throws SessionError E_IO when the store root cannot be resolved (no working folder and nothing absolute to start
 *   from, a folder that cannot be inspected): there is then nowhere to log either
 */
export function openHookCall(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  options: { readonly dir?: string; readonly inProcess?: boolean; readonly host?: Host } = {},
): HookCall {
  const place = placeOf({
    env,
    cwd,
    hook: options.inProcess !== true,
    dir: options.dir,
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  const { root } = place;
  const settings = hookSettings(place);
  const config = settings.kind === 'fail_open' ? DEFAULT_CONFIG : settings.config;
  let sessions: Sessions | null = null;
  return {
    root,
    cwd,
    config,
    warning: settings.kind === 'defaults' ? settings.warning : null,
    logDir: logDirFor(root, env),
    sessions: () => {
      if (settings.kind === 'fail_open') throw settings.error;
      sessions ??= openSessions(place, config);
      return sessions;
    },
    close: async () => {
      if (sessions !== null) await sessions.close();
    },
  };
}
