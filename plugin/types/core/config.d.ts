import { type Limits } from './limits';
import { LOG_LEVELS, type LogLevel } from './log-levels';
import { type PermissionInboxMode } from './permission';
import { type ContinuationSettings } from './claude-transcript';
export { LOG_LEVELS, type LogLevel };
/** Every setting of `.claude/agent-session.json`. */
export interface Config {
    /** A session idle longer than this is no longer resumed. */
    readonly resume_timeout_minutes: number;
    /** A session with this many errors or more is no longer resumed. */
    readonly max_errors: number;
    /** Default of `cleanup --hours`: sessions idle longer are removed. */
    readonly cleanup_hours: number;
    /**
     * The most sessions a project keeps: `cleanup` removes its oldest finished ones above it (core/retention.ts); null:
     * no cap.
     */
    readonly max_sessions: number | null;
    /** How many history entries a session keeps (the newest); older ones are dropped and counted. */
    readonly history_cap: number;
    /** The least severe hook log line that is written. */
    readonly log_level: LogLevel;
    /** A hook log past this size is rotated to `<log>.1` (one old file is kept). */
    readonly log_max_bytes: number;
    /** A `postgres://` URL: the PostgreSQL store instead of the file store (README "Shared store"); null: files. */
    readonly database_url: string | null;
    /** The PostgreSQL schema holding the store's tables. */
    readonly database_schema: string;
    /**
     * The project's name (core/project.ts), shared by every clone that configures it; null: the git remote `origin`, else
     * the folder.
     */
    readonly project: string | null;
    /**
     * Which sub-agents' permission requests become inbox items (docs/permissions.md): `background` (those nobody can
     * answer: a background sub-agent, a headless run), `always` (every sub-agent's), `off` (none).
     */
    readonly permission_inbox: PermissionInboxMode;
    /** How long an approved permission request stays usable (hours). */
    readonly permission_grant_ttl_hours: number;
    /**
     * Continue a parked Claude agent itself with its context (SendMessage, its transcript brought from an earlier
     * session of the project) rather than prime a fresh one (docs/continuing.md).
     */
    readonly continue_agents: boolean;
    /** Above this transcript size a fresh agent is primed instead (the continuation would re-send it all). */
    readonly continue_max_transcript_bytes: number;
    /**
     * Told of each new inbox item (core/views/notification.ts): an `http(s)://` URL to POST JSON to (Slack-compatible
     * `text`), else a command run by the shell with the JSON on stdin; or a list of them, each told; null: no one is told.
     */
    readonly notify: string | readonly string[] | null;
}
export type ConfigKey = keyof Config;
export declare const DEFAULT_CONFIG: Config;
/** The environment variable that overrides each setting (the first two predate the config file). */
export declare const CONFIG_VARIABLES: Readonly<Record<ConfigKey, string>>;
/** The variable that points at another config file than `<project>/.claude/agent-session.json`. */
export declare const CONFIG_PATH_VARIABLE = "AGENT_SESSION_CONFIG";
/**
 * Where an effective value came from: the user's own file (`~/.config/agent-session/config.json`), the workspace's
 * (`trusted` when it took effect only because the user trusted that exact content), a variable, an option.
 */
export type ConfigSource = {
    readonly kind: 'default';
} | {
    readonly kind: 'user';
    readonly path: string;
} | {
    readonly kind: 'file';
    readonly path: string;
    readonly trusted?: true;
} | {
    readonly kind: 'env';
    readonly variable: string;
} | {
    readonly kind: 'option';
    readonly option: string;
};
/**
 * The settings of the workspace file that were ignored because the user has not trusted its content (docs/security.md):
 * never trusted, or `changed` since it was.
 */
export interface UntrustedSettings {
    readonly path: string;
    readonly keys: readonly ConfigKey[];
    readonly changed: boolean;
}
/** The settings in force, and the source of each. */
export interface EffectiveConfig {
    readonly values: Config;
    readonly sources: Readonly<Record<ConfigKey, ConfigSource>>;
    /** The config file that was looked for, and whether it was there. */
    readonly file: {
        readonly path: string;
        readonly found: boolean;
    };
    /** What of that file was ignored for want of the user's trust; absent when nothing was. */
    readonly untrusted?: UntrustedSettings;
}
/**
 * When a setting of the workspace file (`.claude/agent-session.json`, or the file AGENT_SESSION_CONFIG names) takes
 * effect without the user's trust in that exact content (docs/security.md): that file is written by the agents
 * agent-session governs and by every commit of the repository, so what executes, connects or loosens a policy waits
 * for `agent-session trust`. `free`: always. `trusted`: only once trusted (it runs a command, picks the database and
 * so where the findings go and which sessions and grants come back). `raise`: at or below the value it replaces (the
 * user file's, else the default) freely, above it only once trusted (a longer resume window, more errors allowed, a
 * longer-lived grant, a continuation switched on or given a larger transcript). `database`: freely on the file store
 * (the workspace's own), only once trusted when a database is named (the name picks the team's sessions and grants).
 */
export declare const WORKSPACE_TRUST: Readonly<Record<ConfigKey, 'free' | 'trusted' | 'raise' | 'database'>>;
/** The command that trusts the workspace file's content, named wherever an untrusted setting is ignored. */
export declare const TRUST_COMMAND = "agent-session trust";
/** Whether the user trusts the workspace file's exact content: yes, never did, or did but it changed since. */
export type TrustVerdict = 'trusted' | 'untrusted' | 'changed';
/** What besides the workspace file and the environment resolveConfig merges (all optional). */
export interface ResolveOptions {
    /** The user's own config file (outside every workspace): below the workspace file, trusted as the user's word. */
    readonly user?: ConfigFileInput;
    /**
     * Whether the user trusts the workspace file's content; asked only when the file holds a setting that needs it.
     * Absent: not trusted.
     */
    readonly trust?: () => TrustVerdict;
    /** A database is named on the command line (`--database-url`): `project` then needs trust too. */
    readonly databaseOption?: boolean;
}
/**
 * The keys of the workspace file's settings that take effect only once its content is trusted (WORKSPACE_TRUST):
 * `below` is what they would replace (defaults ← user file), `database` whether a database is named anywhere.
 */
export declare function keysNeedingTrust(fromFile: Partial<Config>, below: Config, database: boolean): ConfigKey[];
/** The line that says what of the workspace file was ignored, and the command that trusts it. */
export declare function untrustedLine(untrusted: UntrustedSettings): string;
/** The parsed content of a config file (or null when there is none), as the I/O layer read it. */
export interface ConfigFileInput {
    readonly path: string;
    /** False when the file does not exist. */
    readonly found: boolean;
    /** The parsed JSON, when found. */
    readonly raw?: unknown;
}
/**
 * Merges defaults ← the user's file ← the workspace file ← environment, validating each layer. A workspace setting
 * that needs trust (keysNeedingTrust) takes effect only when `options.trust` says the file's content is trusted; else
 * it is left out and named in `untrusted` (unless a variable sets that key anyway).
 * @throws SessionError E_USAGE naming the file or variable, the key, what was expected and what was found
 */
export declare function resolveConfig(file: ConfigFileInput, env: Readonly<Record<string, string | undefined>>, options?: ResolveOptions): EffectiveConfig;
/**
 * Validates a config file's parsed JSON.
 * @throws SessionError E_USAGE naming the file, the key and the expectation
 */
export declare function parseConfigFile(raw: unknown, path: string): Partial<Config>;
/**
 * Validates settings given in code (the library's `openStore({ config })`) with the config file's own schema, so
 * no way in accepts a value the file would refuse.
 * @throws SessionError E_USAGE naming `where`, the key and the expectation
 */
export declare function parseSettings(raw: unknown, where: string): Partial<Config>;
/** The resume limits of a configuration. */
export declare function limitsOf(config: Config): Limits;
/** The continuation settings of a configuration (core/claude-transcript.ts chooseContinuation). */
export declare function continuationSettingsOf(config: Config): ContinuationSettings;
/** True when a log line of `level` is written under the configured `threshold`. */
export declare function logs(threshold: LogLevel, level: Exclude<LogLevel, 'silent'>): boolean;
/** Every setting, in the order `agent-session config` prints them. */
export declare const CONFIG_KEYS: readonly ConfigKey[];
