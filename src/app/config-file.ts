import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_PATH_VARIABLE, resolveConfig, type EffectiveConfig } from '../core/config';
import { SessionError, show } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { nonEmpty } from '../platform/env';
import { errnoCode, ioError } from '../platform/errno';
import { resolveFrom } from '../platform/working-directory';

/** The config file's name, beside the store folder (`<project>/.claude/agent-session.json` by default). */
export const CONFIG_FILE = 'agent-session.json';

/**
 * Where the config file is: `AGENT_SESSION_CONFIG` (relative to `cwd`), else `agent-session.json` in the
 * folder that holds the store root, i.e. `<project>/.claude/` for the default root `<project>/.claude/session`.
 * @throws SessionError E_IO when `AGENT_SESSION_CONFIG` is relative and there is no working directory
 */
export function configPathFor(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): string {
  const explicit = nonEmpty(env[CONFIG_PATH_VARIABLE]);
  return explicit !== undefined
    ? resolveFrom(cwd, explicit, `\`${CONFIG_PATH_VARIABLE}\``)
    : join(dirname(root), CONFIG_FILE);
}

/**
 * Reads the config file (absent is fine: defaults) and merges it with the environment.
 * @throws SessionError E_USAGE for invalid JSON or values, E_IO when the file exists but cannot be read
 */
export function loadConfig(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): EffectiveConfig {
  const path = configPathFor(root, env, cwd);
  const read = readConfigJson(path);
  // The default file is optional; a file the user named must be there, or their settings would silently not apply.
  if (!read.found && nonEmpty(env[CONFIG_PATH_VARIABLE]) !== undefined) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`${CONFIG_PATH_VARIABLE}\` to name an existing config file, got ${show(env[CONFIG_PATH_VARIABLE])} (${path} does not exist)`,
    );
  }
  return resolveConfig({ path, ...read }, env);
}

/**
 * Whether the environment or the config file means a PostgreSQL store, even when the configuration is invalid:
 * `AGENT_SESSION_DATABASE_URL` set, or a config file that mentions `database_url` (read as text: a file that is not
 * valid JSON may still name one). A hook that cannot read its settings must not then fall back to the file store,
 * or the team's parked sessions would be missed and new ones written on this disk only.
 */
export function meansDatabase(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): boolean {
  if (nonEmpty(env.AGENT_SESSION_DATABASE_URL) !== undefined) return true;
  const path = configPathFor(root, env, cwd);
  try {
    return readFileSync(path, 'utf8').includes('database_url');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(error, 'read the config file', path);
  }
}

// --- internal ---

function readConfigJson(path: string): { found: boolean; raw?: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { found: false };
    throw ioError(error, 'read the config file', path);
  }
  try {
    // A byte order mark (some Windows editors write one) is not JSON, but it is not the user's mistake either.
    return { found: true, raw: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown };
  } catch {
    // Where and what, never the text itself (JSON.parse's message quotes it).
    throw new SessionError(
      'E_USAGE',
      `Expected the config file ${path} to be valid JSON, got a syntax error (${describeJsonError(text)})`,
    );
  }
}
