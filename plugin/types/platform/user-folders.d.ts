type Env = Readonly<Record<string, string | undefined>>;
/** `$XDG_DATA_HOME/agent-session`, else `~/.local/share/agent-session`; null when no absolute home is known. */
export declare function userDataFolder(env: Env): string | null;
/** `$XDG_CONFIG_HOME/agent-session`, else `~/.config/agent-session`; null when no absolute home is known. */
export declare function userConfigFolder(env: Env): string | null;
/**
 * The bins' code-cache folder, as their loader finds it (scripts/loader/loader-body.cjs cacheFolder):
 * `$AGENT_SESSION_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-session`, else `~/.cache/agent-session`; null without a home.
 */
export declare function userCacheFolder(env: Env): string | null;
export {};
