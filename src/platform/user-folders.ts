import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

// This user's own folders, outside every workspace (the XDG base directories): what only the user may write lives
// here (the trust records, the user-level settings, the key that signs this machine's decisions), never in a
// project, which agents and other people's commits write (docs/security.md).

/** `$XDG_DATA_HOME/agent-session`, else `~/.local/share/agent-session`; null when no absolute home is known. */
export function userDataFolder(env: Env): string | null {
  return xdgFolder(env, 'XDG_DATA_HOME', ['.local', 'share']);
}

/** `$XDG_CONFIG_HOME/agent-session`, else `~/.config/agent-session`; null when no absolute home is known. */
export function userConfigFolder(env: Env): string | null {
  return xdgFolder(env, 'XDG_CONFIG_HOME', ['.config']);
}

function xdgFolder(env: Env, variable: string, underHome: readonly string[]): string | null {
  // The XDG rule: a relative value is invalid and ignored.
  const base = env[variable];
  if (base !== undefined && isAbsolute(base)) return join(base, 'agent-session');
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return isAbsolute(home) ? join(home, ...underHome, 'agent-session') : null;
}

/**
 * The bins' code-cache folder, as their loader finds it (scripts/loader/loader-body.cjs cacheFolder):
 * `$AGENT_SESSION_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-session`, else `~/.cache/agent-session`; null without a home.
 */
export function userCacheFolder(env: Env): string | null {
  if (env.AGENT_SESSION_CACHE_DIR) return env.AGENT_SESSION_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'agent-session');
  return env.HOME ? join(env.HOME, '.cache', 'agent-session') : null;
}
