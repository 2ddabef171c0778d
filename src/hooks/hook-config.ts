import { DEFAULT_CONFIG, type Config } from '../core/config';
import { isSessionError } from '../core/errors';
import { configFor } from '../open';

/**
 * The settings a hook runs with (defaults ← config file ← environment). A malformed config file or
 * variable must not break the host: the hook decides with the defaults and says so in its log.
 */
export function hookConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): { config: Config; warning?: string } {
  try {
    return { config: configFor({ env, cwd }).values };
  } catch (error) {
    if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
    return { config: DEFAULT_CONFIG, warning: `${error.message}; using defaults` };
  }
}
