import { type Config, type ConfigKey, type EffectiveConfig, type TrustVerdict } from '../core/config';
import { SessionError } from '../core/errors';
import type { Host } from '../core/host';
import { type ProjectIdentity } from '../core/project';
/**
 * One call (a hook, a command, the library's `openStore`) resolved once, here, as gh resolves its Factory: its store
 * root, its settings read once with the verdict on them, its log folder; what may cost more I/O (the project, the
 * store's home project, the clock) on first use, then kept. Whatever opens a store takes the Call (stores.ts), never
 * the environment again.
 */
type Env = Readonly<Record<string, string | undefined>>;
/**
 * Who makes the call: a hook process (PostgreSQL through the relay, with the hooks' waits), a command, or hooks that
 * live in a long-running process (the Agent SDK's app: its own connection, no relay, the commands' waits).
 */
export type CallUse = 'hook' | 'command' | 'in-process';
/** What a call is resolved from. Only `env` and `cwd` are needed. */
export interface CallInputs {
    readonly env: Env;
    /** The working directory; undefined when it cannot be named (removed): only absolute paths then resolve. */
    readonly cwd: string | undefined;
    /** The store folder the caller names (`--dir`, the Agent SDK's or the library's `dir`): wins over the rest. */
    readonly dir?: string | undefined;
    /** `--database-url`: wins over AGENT_SESSION_DATABASE_URL and the config file's `database_url`. */
    readonly databaseUrl?: string | undefined;
    /** Settings given in code (the library's `openStore({ config })`, already checked): win over every other source. */
    readonly overrides?: Partial<Config>;
    /** Default `command`. */
    readonly use?: CallUse;
    /** The host whose hooks the call answers (core/host.ts): its new sessions name it, its resumes stay in it. */
    readonly host?: Host;
    /** The file store's clock (the library's `now`); default the system's, moved by the test hook (testClock). */
    readonly now?: () => Date;
}
/**
 * The verdict on the settings of the config file and the environment (never `--database-url`, which hooks never
 * see): in force (`valid`); invalid but naming no database, so the hooks run with the defaults (`defaults`, saying
 * why in their log); or invalid and meaning a database, so the hooks fail open (`fail_open`: the defaults would
 * select the file store, the team's parked sessions would be missed and new ones written on this disk only). A
 * command's call is refused instead (resolveCall); `agent-session config` shows the verdict.
 */
export type Settings = {
    readonly kind: 'valid';
} | {
    readonly kind: 'defaults';
    readonly problem: SessionError;
    readonly warning: string;
} | {
    readonly kind: 'fail_open';
    readonly problem: SessionError;
    readonly error: SessionError;
};
/** One call, resolved once (resolveCall). */
export interface Call {
    readonly root: string;
    readonly cwd: string | undefined;
    readonly env: Env;
    readonly use: CallUse;
    readonly host: Host | undefined;
    readonly settings: Settings;
    /**
     * The settings in force: defaults ← config file ← environment ← `--database-url` ← the library's overrides; the
     * defaults when `settings` is not valid.
     */
    readonly config: EffectiveConfig;
    /** The hooks' log folder (logDirFor). */
    readonly logDir: string;
    /** The call's project (projectIdentityOf), on first use. @throws SessionError E_IO when a `.git` cannot be read */
    project(): ProjectIdentity;
    /**
     * The home project of a file store at the root (FileStoreOptions.home), on first use: when the root is a project's
     * own `<folder>/.claude/session`, the project that folder's own settings name (the config file's `project`, else
     * its git remote, else its path), which AGENT_SESSION_PROJECT or the library's `config` do not change: a call named
     * otherwise writes its sessions there with their project, so the folder's own calls never take them for theirs.
     * Else null. @throws SessionError E_IO when a `.git` cannot be read
     */
    home(): string | null;
    /**
     * The file store's clock, on first use: the library's `now`, else the test hook's (testClock), else undefined (the
     * system's). @throws SessionError E_USAGE for a malformed test variable
     */
    clock(): (() => Date) | undefined;
}
/**
 * Resolves a call in one pass: the store root (resolveRoot), the config file read once and judged (Settings), the
 * option and the overrides on top, the log folder.
 * @throws SessionError E_IO when the store root cannot be resolved (a folder that cannot be inspected; no working
 *   directory and nothing absolute to start from); E_USAGE for a malformed `--database-url`; for a command's call
 *   (and the library's), the settings' problem: E_USAGE for an invalid config file or variable, E_IO when the file
 *   cannot be read. A hook's call is not refused: see `settings`.
 */
export declare function resolveCall(inputs: CallInputs): Call;
/** Where the store root comes from, most specific first. */
export interface RootInputs {
    /** `--dir` on the command line. */
    readonly dir?: string | undefined;
    /** `--database-url` on the command line. */
    readonly databaseUrl?: string | undefined;
    readonly env: Env;
    /** The working directory; undefined when it cannot be named (removed: see workingDirectory). */
    readonly cwd: string | undefined;
}
/**
 * The store root: `--dir`, else `AGENT_SESSION_DIR`, else `$CLAUDE_PROJECT_DIR/.claude/session`, else
 * `<folder>/.claude/session` of the call's project folder (projectFolderFor: inside a git repository, the nearest
 * folder with a `.claude/` up to the repository's top, else the top; outside one, the nearest folder up with its own
 * `.claude/`, below the home folder). Never the home folder's `.claude/` (Claude Code's user settings), never a folder above the
 * repository. Only looks; creates nothing. Without a working directory, the folder given as an absolute path works.
 * @throws SessionError E_IO without a working directory when the folder given is relative or none is given; E_USAGE
 *   when there is no project to find (outside any git repository, no `.claude/` here, or only the home folder's) and
 *   no database is named (`--database-url`, AGENT_SESSION_DATABASE_URL: then the working directory serves, as before)
 */
export declare function resolveRoot(inputs: RootInputs): string;
/**
 * The nearest ancestor of `start` (itself included, `stop` the last one looked at) that has a `.claude/` folder and
 * is not `home`, or null.
 */
export declare function findProjectDir(start: string, stop?: string, home?: string): string | null;
/**
 * The project folder of a working directory, whose `.claude/session` is the default store: inside a git repository,
 * the nearest folder with its own `.claude/` from `cwd` up to the repository's top, else the top (a project that has
 * not run `init` yet still gets its store there, where Claude Code's CLAUDE_PROJECT_DIR would put it); outside any
 * repository, the nearest folder from `cwd` up with its own `.claude/` (or a `.codex/` or `.opencode/`: `init --host`
 * made it a Codex or opencode project), this user's, below the home folder (ownProjectAbove).
 * Never the home folder (every Claude Code user has `~/.claude/`,
 * holding user settings, not a project) and never a folder above the repository (a stranger's `.claude/` higher up).
 * @returns null when there is none: outside a repository with no `.claude/` here, or only the home folder
 * @throws SessionError E_IO when a `.git` cannot be read
 */
export declare function projectFolderFor(cwd: string, env: Env): string | null;
/**
 * The folder whose store `root` is when it is `<folder>/.claude/session` (the default root of a project), else null (a
 * store elsewhere: AGENT_SESSION_DIR or --dir naming another folder).
 */
export declare function storeFolderOf(root: string): string | null;
/**
 * The project folder of a call (core/project.ts): the folder the store root is in (`<folder>/.claude/session`), else,
 * for a store elsewhere, the folder the default root would be in (defaultFolder), else, without a working directory
 * or CLAUDE_PROJECT_DIR, the store root itself.
 * @throws SessionError E_IO for a relative CLAUDE_PROJECT_DIR without a working directory
 */
export declare function projectFolderOf(root: string, inputs: Omit<RootInputs, 'dir'>): string;
/**
 * The hook log folder: `AGENT_SESSION_LOG_DIR`, else the `logs` folder beside the store root
 * (`<project>/.claude/logs` for the default root `<project>/.claude/session`).
 */
export declare function logDirFor(root: string, env: Env): string;
/** The config file's name, beside the store folder (`<project>/.claude/agent-session.json` by default). */
export declare const CONFIG_FILE = "agent-session.json";
/**
 * Where the config file is: `AGENT_SESSION_CONFIG` (relative to `cwd`), else `agent-session.json` in the
 * folder that holds the store root, i.e. `<project>/.claude/` for the default root `<project>/.claude/session`.
 * @throws SessionError E_IO when `AGENT_SESSION_CONFIG` is relative and there is no working directory
 */
export declare function configPathFor(root: string, env: Env, cwd: string | undefined): string;
/**
 * Reads the config file (absent is fine: defaults) and merges it with the environment.
 * @throws SessionError E_USAGE for invalid JSON or values, E_IO when the file exists but cannot be read
 */
export declare function loadConfig(root: string, env: Env, cwd: string | undefined): EffectiveConfig;
/** The workspace config file as `agent-session trust` judges it (docs/security.md). */
export interface WorkspaceTrust {
    readonly path: string;
    /** Its content as read (null: there is none), which is what a trust records. */
    readonly bytes: Buffer | null;
    /** Its settings that take effect only once trusted (core/config.ts keysNeedingTrust), a variable's aside. */
    readonly keys: readonly ConfigKey[];
    /** Its settings as given. */
    readonly given: Partial<Config>;
    readonly verdict: TrustVerdict;
}
/**
 * The workspace config file of the store at `root`, read once: what of it needs trust and whether it has it.
 * @throws SessionError E_USAGE for an invalid file (or user file, or variable): nothing invalid is trusted; E_IO
 */
export declare function workspaceTrust(root: string, env: Env, cwd: string | undefined): WorkspaceTrust;
/** The user's own config file: `config.json` in the user's config folder (`~/.config/agent-session/`), or null. */
export declare function userConfigPath(env: Env): string | null;
/** The user-level config file's name in the user's config folder. */
export declare const USER_CONFIG_FILE = "config.json";
/**
 * The project a folder is (core/project.ts): the configured name when there is one; else the git remote `origin` of
 * the repository holding the folder (its config read directly: no git process on a hook's path), with the folder's
 * place in the repository; else the folder's real path.
 * @param folder the project folder (projectFolderOf)
 * @param configured the `project` setting (config file, AGENT_SESSION_PROJECT), or null
 * @throws SessionError E_IO when a `.git` or its config exists but cannot be read
 */
export declare function projectIdentityOf(folder: string, configured: string | null): ProjectIdentity;
export {};
