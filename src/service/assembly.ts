import { dirname, join } from 'node:path';
import { limitsOf, type Config, type EffectiveConfig } from '../core/config';
import { loadConfig } from './config-file';
import { Sessions } from './sessions';
import { FileStore } from '../store/file-store';
import { resolveRoot } from '../store/root';

/**
 * The one place that opens a concrete store: the CLI, the hooks and the library come here for the store root, the
 * settings and the service, so no adapter imports src/store.
 */

/** Where a process found its store and limits. */
export interface Environment {
  readonly dir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The settings in force for an environment: defaults ← config file ← environment variables.
 * @throws SessionError E_USAGE for an invalid config file or variable, E_IO when the file cannot be read
 */
export function configFor(environment: Environment): EffectiveConfig {
  return loadConfig(resolveRoot(environment), environment.env, environment.cwd);
}

/**
 * Opens the file store the environment points at (see resolveRoot) with the limits and history cap of
 * its configuration (see configFor), unless `config` is given; `now` is the store's clock (tests). The caller
 * closes it (`Sessions.close`).
 * @throws SessionError E_USAGE when the configuration is malformed
 */
export function openSessions(
  environment: Environment,
  config: Config = configFor(environment).values,
  now?: () => Date,
): Sessions {
  return new Sessions({
    store: new FileStore(resolveRoot(environment), now === undefined ? {} : { now }),
    limits: limitsOf(config),
    historyCap: config.history_cap,
  });
}

/**
 * The store root the environment points at (--dir, AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR, the project above cwd).
 * @throws SessionError E_IO when a folder on the way cannot be inspected
 */
export function storeRoot(environment: Environment): string {
  return resolveRoot(environment);
}

/**
 * The hook log folder: `AGENT_SESSION_LOG_DIR`, else the `logs` folder beside the store root
 * (`<project>/.claude/logs` for the default root `<project>/.claude/session`).
 */
export function logDirFor(root: string, env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.AGENT_SESSION_LOG_DIR;
  return explicit !== undefined && explicit.trim() !== '' ? explicit : join(dirname(root), 'logs');
}
