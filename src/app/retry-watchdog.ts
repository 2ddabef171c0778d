import { basename, dirname, join } from 'node:path';
import { nonEmpty } from '../platform/env';
import { textOrNull } from '../platform/files';
import { projectFolderFor } from './call';

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's switch for its unattended retry (2.1.336: sub-agents sleep through usage limits instead of dying). */
export const RETRY_WATCHDOG = 'CLAUDE_CODE_RETRY_WATCHDOG';

/** The values Claude Code reads as on for a switch of its environment. */
const ON = new Set(['1', 'true', 'yes', 'on']);

/**
 * Whether Claude Code's unattended retry is on for the sub-agents of a store's project, as far as a program outside
 * Claude Code can tell (`cleanup` from a cron line has none of its environment): `CLAUDE_CODE_RETRY_WATCHDOG` on in
 * this environment, or in the `env` of Claude Code's settings: the project's `.claude/settings.local.json` and
 * `.claude/settings.json` (the project of a store root `<project>/.claude/session`, else the working directory's),
 * the user's `settings.json` in `CLAUDE_CONFIG_DIR` or `~/.claude`. A settings file absent or not JSON says nothing.
 * @throws SessionError E_IO when a settings file cannot be read for another reason than its absence
 */
export function retryWatchdogOn(env: Env, root: string, cwd: string | undefined): boolean {
  if (isOn(env[RETRY_WATCHDOG])) return true;
  const files: string[] = [];
  const project =
    basename(root) === 'session' && basename(dirname(root)) === '.claude'
      ? dirname(dirname(root))
      : cwd === undefined
        ? null
        : safeProject(cwd, env);
  if (project !== null)
    files.push(join(project, '.claude', 'settings.local.json'), join(project, '.claude', 'settings.json'));
  const config =
    nonEmpty(env.CLAUDE_CONFIG_DIR) ?? (nonEmpty(env.HOME) === undefined ? undefined : join(env.HOME!, '.claude'));
  if (config !== undefined) files.push(join(config, 'settings.json'));
  return files.some((file) => isOn(settingsEnv(textOrNull(file))?.[RETRY_WATCHDOG]));
}

function isOn(value: unknown): boolean {
  return typeof value === 'string' && ON.has(value.trim().toLowerCase());
}

function settingsEnv(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const settings: unknown = JSON.parse(text);
    const env = (settings as { env?: unknown } | null)?.env;
    return typeof env === 'object' && env !== null && !Array.isArray(env) ? (env as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The working directory's project folder, or null where it has none (cleanup of a store named by `--dir`). */
function safeProject(cwd: string, env: Env): string | null {
  try {
    return projectFolderFor(cwd, env);
  } catch {
    return null;
  }
}
