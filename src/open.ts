import { limitsFromEnv, type Limits } from './core/limits';
import { Sessions } from './sessions';
import { FileStore } from './store/file-store';
import { resolveRoot } from './store/root';

/** Where a process found its store and limits. */
export interface Environment {
  readonly dir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * Opens the file store the environment points at (see resolveRoot) with the limits it sets.
 * @throws SessionError E_USAGE when a limit variable is malformed
 */
export function openSessions(environment: Environment, limits: Limits = limitsFromEnv(environment.env)): Sessions {
  return new Sessions({ store: new FileStore(resolveRoot(environment)), limits });
}
