import { DEFAULT_CONFIG, type Config } from '../core/config';
import { SessionError, isSessionError } from '../core/errors';
import { configFor } from './assembly';
import { meansDatabase } from './config-file';

/**
 * The settings a hook runs with (defaults ← config file ← environment). A malformed config file or
 * variable must not break the host: the hook decides with the defaults and says so in its log. Unless a database is
 * meant (see meansDatabase): the defaults would select the file store, so the hook fails open instead.
 * @throws SessionError E_USAGE when the configuration is invalid and names a database
 * @param root the store root the hook already resolved
 */
export function hookConfig(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  root: string,
): { config: Config; warning?: string } {
  try {
    // The root is resolved once by the caller; passed as the explicit folder, it is not looked up again.
    return { config: configFor({ dir: root, env, cwd }).values };
  } catch (error) {
    if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
    if (meansDatabase(root, env, cwd)) {
      throw new SessionError(
        'E_USAGE',
        `${error.message}; a database is configured: not falling back to the file store`,
      );
    }
    return { config: DEFAULT_CONFIG, warning: `${error.message}; using defaults` };
  }
}
