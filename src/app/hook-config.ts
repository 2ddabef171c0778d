import { DEFAULT_CONFIG, type Config } from '../core/config';
import { SessionError, isSessionError } from '../core/errors';
import { configFor } from './assembly';
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
 * @param root the store root the hook already resolved
 */
export function hookSettings(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  root: string,
): HookSettings {
  try {
    // The root is resolved once by the caller; passed as the explicit folder, it is not looked up again.
    return { kind: 'valid', config: configFor({ dir: root, env, cwd }).values };
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
 * The settings a hook runs with (see hookSettings). A malformed config file or variable must not break the host: the
 * hook decides with the defaults and says so in its log, unless a database is meant: then it fails open.
 * @throws SessionError E_USAGE when the configuration is invalid and names a database (E_IO when it cannot be read)
 * @param root the store root the hook already resolved
 */
export function hookConfig(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  root: string,
): { config: Config; warning?: string } {
  const settings = hookSettings(env, cwd, root);
  if (settings.kind === 'fail_open') throw settings.error;
  return settings.kind === 'valid'
    ? { config: settings.config }
    : { config: settings.config, warning: settings.warning };
}
