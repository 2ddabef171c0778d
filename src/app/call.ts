import { readFileSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import {
  CONFIG_KEYS,
  CONFIG_PATH_VARIABLE,
  CONFIG_VARIABLES,
  DEFAULT_CONFIG,
  parseConfigFile,
  resolveConfig,
  type Config,
  type ConfigFileInput,
  type ConfigKey,
  type EffectiveConfig,
  type TrustVerdict,
} from '../core/config';
import { assertDatabaseUrl } from '../core/database';
import { SessionError, isSessionError, show } from '../core/errors';
import { remoteUrlOf } from '../core/git-config';
import type { Host } from '../core/host';
import { describeJsonError } from '../core/json-error';
import { lazily } from '../core/lazy';
import { normalizeRemoteUrl, pathProjectName, remoteProjectName, type ProjectIdentity } from '../core/project';
import { nonEmpty } from '../platform/env';
import { errnoCode, ioError } from '../platform/errno';
import { isDirectory } from '../platform/files';
import { gitRepositoryOf, realFolder, type GitRepository } from '../platform/git';
import { userConfigFolder } from '../platform/user-folders';
import { NO_WORKING_DIRECTORY, resolveFrom } from '../platform/working-directory';
import { readStamped, trustVerdictOf, type StampedFile } from './trust';

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
export type Settings =
  | { readonly kind: 'valid' }
  | { readonly kind: 'defaults'; readonly problem: SessionError; readonly warning: string }
  | { readonly kind: 'fail_open'; readonly problem: SessionError; readonly error: SessionError };

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
export function resolveCall(inputs: CallInputs): Call {
  const { env, cwd } = inputs;
  // The working directory's project folder (and its repository), looked for at most once per call: by the root and
  // by the project, whichever needs it first.
  const found = new ProjectSearch(cwd, env);
  const root = rootOf(inputs, found);
  const use = inputs.use ?? 'command';
  const judged = judgeSettings(root, env, cwd, nonEmpty(inputs.databaseUrl) !== undefined);
  // A command (and the library) refuses to run on invalid settings: only hooks fall back to the defaults or fail open.
  if (judged.settings.kind !== 'valid' && use === 'command') throw judged.settings.problem;
  const config = judged.config === null ? defaultsAt(judged.path) : onTop(judged.config, inputs);
  const project = lazily(() => identityAt(folderOfProject(root, inputs, found), config.values.project, found));
  return {
    root,
    cwd,
    env,
    use,
    host: inputs.host,
    settings: judged.settings,
    config,
    logDir: logDirFor(root, env),
    project,
    home: lazily(() => {
      const folder = storeFolderOf(root);
      if (folder === null) return null;
      // No name configured: the call's project is the folder's own (its remote or path).
      if (config.values.project === null) return project().name;
      // Named: by the folder's own file, or otherwise (then the file's own name, from the one read).
      return identityAt(folder, fileProject(judged.file), found).name;
    }),
    clock: lazily(() => inputs.now ?? testClock(env)),
  };
}

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
export function resolveRoot(inputs: RootInputs): string {
  const { cwd, env } = inputs;
  return rootOf(inputs, new ProjectSearch(cwd, env));
}

/** resolveRoot, with the project folder looked for by `found` (resolveCall's, shared with the project). */
function rootOf(inputs: RootInputs, found: ProjectSearch): string {
  const dir = nonEmpty(inputs.dir);
  const explicit = dir ?? nonEmpty(inputs.env.AGENT_SESSION_DIR);
  if (explicit) return resolveFrom(inputs.cwd, explicit, dir === undefined ? '`AGENT_SESSION_DIR`' : '`--dir`');
  // A database named: no store folder is made here, so a folder in no project still serves (config, logs, its name).
  const database = nonEmpty(inputs.databaseUrl) ?? nonEmpty(inputs.env[CONFIG_VARIABLES.database_url]);
  return join(defaultFolder(inputs, found, database !== undefined), '.claude', 'session');
}

/**
 * The nearest ancestor of `start` (itself included, `stop` the last one looked at) that has a `.claude/` folder and
 * is not `home`, or null.
 */
export function findProjectDir(start: string, stop?: string, home?: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (dir !== home && isDirectory(join(dir, '.claude'))) return dir;
    const parent = dirname(dir);
    if (parent === dir || dir === stop) return null;
    dir = parent;
  }
}

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
export function projectFolderFor(cwd: string, env: Env): string | null {
  return projectFound(cwd, env)?.folder ?? null;
}

/**
 * A project folder as projectFolderFor finds it: a real path, with the repository holding it (null: in none), which
 * is the one its identity is read from (projectIdentityOf), so that a call looks for it once.
 */
interface ProjectFound {
  readonly folder: string;
  readonly repository: GitRepository | null;
}

/** The working directory's project, looked for on first need and kept: resolveCall's root and project share one. */
class ProjectSearch {
  #found: ProjectFound | null | undefined;

  constructor(
    private readonly cwd: string | undefined,
    private readonly env: Env,
  ) {}

  /** The project found (projectFound), or null. @throws SessionError E_IO when a `.git` cannot be read */
  get(): ProjectFound | null {
    if (this.#found === undefined) this.#found = this.cwd === undefined ? null : projectFound(this.cwd, this.env);
    return this.#found;
  }

  /** What get() found, when it was looked for already; else undefined. */
  known(): ProjectFound | null | undefined {
    return this.#found;
  }
}

/** projectFolderFor, with the repository it found. @throws SessionError E_IO when a `.git` cannot be read */
function projectFound(cwd: string, env: Env): ProjectFound | null {
  const start = realFolder(cwd);
  const homeVar = nonEmpty(env.HOME);
  const home = homeVar === undefined ? undefined : realFolder(homeVar);
  const repository = gitRepositoryOf(start);
  // Every folder found lies between `start` and the repository's top (or under no repository at all): the nearest
  // `.git` up from it is the one found from `start`, and, an ancestor of a real path, it is real itself.
  const folder = repository === null ? ownProjectAbove(start, home) : projectInRepository(start, repository.top, home);
  return folder === null ? null : { folder, repository };
}

/** Inside a repository: the nearest folder with a `.claude/` up to its top, else the top (never the home folder). */
function projectInRepository(start: string, top: string, home: string | undefined): string | null {
  const found = findProjectDir(start, top, home);
  if (found !== null) return found;
  return top === home ? null : top;
}

/**
 * Outside any git repository: the nearest folder from `start` up that has its own `.claude/` (or `.codex/`,
 * `.opencode/`: `init --host` made it a project), owned by this user (a stranger's `.claude/` in a shared folder such
 * as /tmp is not ours), never at or above a folder anyone may write (/tmp itself). Never the home folder nor above it
 * when `start` is inside it (every Claude Code user has `~/.claude/`, which holds user settings).
 */
function ownProjectAbove(start: string, home: string | undefined): string | null {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const inHome = home !== undefined && (start + sep).startsWith(home === sep ? home : home + sep);
  for (let dir = start; ; dir = dirname(dir)) {
    // A folder anyone may write (/tmp) is nobody's project, and neither is anything above it.
    if (dir === home || worldWritable(dir)) return null;
    for (const own of ['.claude', '.codex', '.opencode']) {
      const stats = folderStats(join(dir, own));
      if (stats !== null && (uid === undefined || stats.uid === uid)) return dir;
    }
    if (dirname(dir) === dir || (inHome && dirname(dir) === home)) return null;
  }
}

function worldWritable(dir: string): boolean {
  try {
    return (statSync(dir).mode & 0o002) !== 0;
  } catch {
    return false;
  }
}

/** The folder's stats (through links), or null when it is absent, not a folder or not ours to look at. */
function folderStats(path: string): Stats | null {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? stats : null;
  } catch {
    return null;
  }
}

/**
 * The folder whose store `root` is when it is `<folder>/.claude/session` (the default root of a project), else null (a
 * store elsewhere: AGENT_SESSION_DIR or --dir naming another folder).
 */
export function storeFolderOf(root: string): string | null {
  const claude = dirname(root);
  return basename(root) === 'session' && basename(claude) === '.claude' ? dirname(claude) : null;
}

/**
 * The project folder of a call (core/project.ts): the folder the store root is in (`<folder>/.claude/session`), else,
 * for a store elsewhere, the folder the default root would be in (defaultFolder), else, without a working directory
 * or CLAUDE_PROJECT_DIR, the store root itself.
 * @throws SessionError E_IO for a relative CLAUDE_PROJECT_DIR without a working directory
 */
export function projectFolderOf(root: string, inputs: Omit<RootInputs, 'dir'>): string {
  return folderOfProject(root, inputs, new ProjectSearch(inputs.cwd, inputs.env));
}

/** projectFolderOf, with the project folder looked for by `found` (resolveCall's, shared with the root). */
function folderOfProject(root: string, inputs: Omit<RootInputs, 'dir'>, found: ProjectSearch): string {
  const own = storeFolderOf(root);
  if (own !== null) return own;
  if (inputs.cwd === undefined && nonEmpty(inputs.env.CLAUDE_PROJECT_DIR) === undefined) return root;
  // The store is named: a working directory in no project still names the sessions made from it (by its path).
  return defaultFolder(inputs, found, true);
}

/**
 * The hook log folder: `AGENT_SESSION_LOG_DIR`, else the `logs` folder beside the store root
 * (`<project>/.claude/logs` for the default root `<project>/.claude/session`).
 */
export function logDirFor(root: string, env: Env): string {
  const explicit = env.AGENT_SESSION_LOG_DIR;
  return explicit !== undefined && explicit.trim() !== '' ? explicit : join(dirname(root), 'logs');
}

/** The config file's name, beside the store folder (`<project>/.claude/agent-session.json` by default). */
export const CONFIG_FILE = 'agent-session.json';

/**
 * Where the config file is: `AGENT_SESSION_CONFIG` (relative to `cwd`), else `agent-session.json` in the
 * folder that holds the store root, i.e. `<project>/.claude/` for the default root `<project>/.claude/session`.
 * @throws SessionError E_IO when `AGENT_SESSION_CONFIG` is relative and there is no working directory
 */
export function configPathFor(root: string, env: Env, cwd: string | undefined): string {
  const explicit = nonEmpty(env[CONFIG_PATH_VARIABLE]);
  return explicit !== undefined
    ? resolveFrom(cwd, explicit, `\`${CONFIG_PATH_VARIABLE}\``)
    : join(dirname(root), CONFIG_FILE);
}

/**
 * Reads the config file (absent is fine: defaults) and merges it with the environment.
 * @throws SessionError E_USAGE for invalid JSON or values, E_IO when the file exists but cannot be read
 */
export function loadConfig(root: string, env: Env, cwd: string | undefined): EffectiveConfig {
  const path = configPathFor(root, env, cwd);
  return readSettings(path, readWorkspaceFile(path), env, false).config;
}

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
export function workspaceTrust(root: string, env: Env, cwd: string | undefined): WorkspaceTrust {
  const path = configPathFor(root, env, cwd);
  const read = readWorkspaceFile(path);
  // As if untrusted: which of its settings would then be left out.
  const { file, config } = readSettings(path, read, env, false, {}, () => 'untrusted');
  return {
    path,
    bytes: read === null ? null : read.bytes,
    keys: config.untrusted?.keys ?? [],
    given: file.found ? parseConfigFile(file.raw, path) : {},
    verdict: read === null ? 'untrusted' : trustVerdictOf(path, read, env),
  };
}

/** The user's own config file: `config.json` in the user's config folder (`~/.config/agent-session/`), or null. */
export function userConfigPath(env: Env): string | null {
  const folder = userConfigFolder(env);
  return folder === null ? null : join(folder, USER_CONFIG_FILE);
}

/** The user-level config file's name in the user's config folder. */
export const USER_CONFIG_FILE = 'config.json';

/**
 * The project a folder is (core/project.ts): the configured name when there is one; else the git remote `origin` of
 * the repository holding the folder (its config read directly: no git process on a hook's path), with the folder's
 * place in the repository; else the folder's real path.
 * @param folder the project folder (projectFolderOf)
 * @param configured the `project` setting (config file, AGENT_SESSION_PROJECT), or null
 * @throws SessionError E_IO when a `.git` or its config exists but cannot be read
 */
export function projectIdentityOf(folder: string, configured: string | null): ProjectIdentity {
  if (configured !== null) return { name: configured, source: { kind: 'configured' } };
  const real = realFolder(folder);
  return identityIn(real, gitRepositoryOf(real));
}

/**
 * projectIdentityOf, reading nothing again when `folder` is the one the call already found (resolveCall's `found`,
 * when it was looked for): its real path and repository are known.
 */
function identityAt(folder: string, configured: string | null, found: ProjectSearch): ProjectIdentity {
  if (configured !== null) return { name: configured, source: { kind: 'configured' } };
  const known = found.known();
  return known !== undefined && known !== null && known.folder === folder
    ? identityIn(known.folder, known.repository)
    : projectIdentityOf(folder, null);
}

/** The identity of a real folder held by `repository` (null: by none). */
function identityIn(real: string, repository: GitRepository | null): ProjectIdentity {
  const url = repository === null || repository.config === null ? null : remoteUrlOf(repository.config);
  const remote = url === null ? null : normalizeRemoteUrl(url);
  if (repository !== null && remote !== null)
    return {
      name: remoteProjectName(remote, relative(repository.top, real)),
      source: { kind: 'remote', repository: remote },
    };
  return { name: pathProjectName(real), source: { kind: 'path' } };
}

// --- internal ---

/** The settings of file and environment as the one read of the config file found them, and the verdict on them. */
interface Judged {
  readonly settings: Settings;
  /** The config file looked for; null when it cannot be named (`settings` says why). */
  readonly path: string | null;
  /** The file as read, and the settings of file and environment: null unless `settings` is valid. */
  readonly file: ConfigFileInput | null;
  readonly config: EffectiveConfig | null;
}

/**
 * Reads the config file once and judges the settings of file and environment (see Settings).
 * @throws what is not a SessionError E_USAGE or E_IO (a bug)
 */
function judgeSettings(root: string, env: Env, cwd: string | undefined, databaseOption: boolean): Judged {
  let path: string | null = null;
  const read: { text?: string | null } = {};
  try {
    path = configPathFor(root, env, cwd);
    const { file, config } = readSettings(path, readWorkspaceFile(path), env, databaseOption, read);
    return { settings: { kind: 'valid' }, path, file, config };
  } catch (error) {
    if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
    return { settings: verdictOn(error, read.text, env), path, file: null, config: null };
  }
}

/**
 * Reads the user's config file and takes the workspace file at `path` as read (`bytes`), and merges them with the
 * environment; the trust record is read only when the workspace file holds a setting that needs it (core/config.ts
 * keysNeedingTrust).
 * @param read receives the texts read (undefined: not read), for the verdict on a failure
 * @param trust the verdict on the workspace file's content, when the caller decides it (default: the trust record's)
 * @throws SessionError E_USAGE for invalid JSON or values, E_IO when the user's file exists but cannot be read
 */
function readSettings(
  path: string,
  stamped: StampedFile | null,
  env: Env,
  databaseOption: boolean,
  read: { text?: string | null } = {},
  trust?: () => TrustVerdict,
): { file: ConfigFileInput; config: EffectiveConfig } {
  const userPath = userConfigPath(env);
  const userBytes = userPath === null ? null : readBytes(userPath, 'your config file');
  const userText = userBytes === null ? null : userBytes.toString('utf8');
  const text = stamped === null ? null : stamped.bytes.toString('utf8');
  // Either text may name a database: the verdict on an invalid configuration looks at both.
  read.text = userText === null ? text : `${userText}\n${text ?? ''}`;
  const user = userPath === null ? undefined : parsedFile(userPath, userText);
  const file = fileInput(path, text, env);
  const config = resolveConfig(file, env, {
    ...(user === undefined ? {} : { user }),
    trust: trust ?? (() => (stamped === null ? 'untrusted' : trustVerdictOf(path, stamped, env))),
    databaseOption,
  });
  return { file, config };
}

/**
 * What hooks do with invalid settings: fail open when a database is meant (AGENT_SESSION_DATABASE_URL set, or a config
 * file whose text mentions `database_url`: one that is not valid JSON may still name one), or when the file could not
 * be read (whether it names one is unknown); else run with the defaults.
 */
function verdictOn(problem: SessionError, text: string | null | undefined, env: Env): Settings {
  const database =
    nonEmpty(env[CONFIG_VARIABLES.database_url]) !== undefined ||
    (typeof text === 'string' && text.includes('database_url'));
  if (database) {
    const error = new SessionError(
      'E_USAGE',
      `${problem.message}; a database is configured: not falling back to the file store`,
    );
    return { kind: 'fail_open', problem, error };
  }
  if (text === undefined) return { kind: 'fail_open', problem, error: problem };
  return { kind: 'defaults', problem, warning: `${problem.message}; using defaults` };
}

/**
 * The settings of file and environment with `--database-url` and the library's overrides on top.
 * @throws SessionError E_USAGE for a malformed `--database-url`
 */
function onTop(config: EffectiveConfig, inputs: CallInputs): EffectiveConfig {
  let { values, sources } = config;
  if (inputs.databaseUrl !== undefined) {
    values = { ...values, database_url: assertDatabaseUrl(inputs.databaseUrl, '`--database-url`') };
    sources = { ...sources, database_url: { kind: 'option', option: '--database-url' } };
  }
  const overrides = inputs.overrides ?? {};
  values = { ...values, ...overrides };
  for (const key of CONFIG_KEYS)
    if (overrides[key] !== undefined)
      sources = { ...sources, [key]: { kind: 'option', option: "openStore's `config`" } };
  return { ...config, values, sources };
}

/** The defaults, from the file looked for, when the settings are invalid. */
function defaultsAt(path: string | null): EffectiveConfig {
  const sources = Object.fromEntries(CONFIG_KEYS.map((key) => [key, { kind: 'default' }]));
  return {
    values: DEFAULT_CONFIG,
    sources: sources as EffectiveConfig['sources'],
    file: { path: path ?? '', found: false },
  };
}

/** The `project` the config file itself names (the one read: it was valid), or null. */
function fileProject(file: ConfigFileInput | null): string | null {
  return file?.found === true ? (parseConfigFile(file.raw, file.path).project ?? null) : null;
}

/**
 * The workspace config file's bytes with their stamp (app/trust.ts readStamped), or null when it does not exist.
 * @throws SessionError E_IO when it cannot be read
 */
function readWorkspaceFile(path: string): StampedFile | null {
  try {
    // Looked at first, as readBytes does.
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return null;
    return readStamped(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'read the config file', path);
  }
}

/** A config file's bytes, or null when it does not exist. @throws SessionError E_IO when it cannot be read */
function readBytes(path: string, what: string): Buffer | null {
  try {
    // Looked at first: absent is the common case (most users have no file of their own), and a refused read builds an
    // error with its stack on every hook call.
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return null;
    return readFileSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, `read ${what}`, path);
  }
}

/**
 * The config file as resolveConfig takes it: absent (when it is the default one), or its parsed JSON.
 * @throws SessionError E_USAGE for a file that is not JSON, or a file the user named that is not there
 */
function fileInput(path: string, text: string | null, env: Env): ConfigFileInput {
  // The default file is optional; a file the user named must be there, or their settings would silently not apply.
  if (text === null && nonEmpty(env[CONFIG_PATH_VARIABLE]) !== undefined)
    throw new SessionError(
      'E_USAGE',
      `Expected \`${CONFIG_PATH_VARIABLE}\` to name an existing config file, got ${show(env[CONFIG_PATH_VARIABLE])} (${path} does not exist)`,
    );
  return parsedFile(path, text);
}

/**
 * A config file as resolveConfig takes it: absent (null text), or its parsed JSON.
 * @throws SessionError E_USAGE for a file that is not JSON
 */
function parsedFile(path: string, text: string | null): ConfigFileInput {
  if (text === null) return { path, found: false };
  try {
    // A byte order mark (some Windows editors write one) is not JSON, but it is not the user's mistake either.
    return { path, found: true, raw: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown };
  } catch {
    // Where and what, never the text itself (JSON.parse's message quotes it).
    throw new SessionError(
      'E_USAGE',
      `Expected the config file ${path} to be valid JSON, got a syntax error (${describeJsonError(text)})`,
    );
  }
}

/**
 * The folder of the default store root: `CLAUDE_PROJECT_DIR`, else the working directory's project (projectFolderFor).
 * @throws SessionError E_IO without a working directory when CLAUDE_PROJECT_DIR is relative or not set; E_USAGE when
 *   the working directory has no project: a store is never made in a folder nobody chose (the home folder, /tmp)
 */
function defaultFolder(inputs: Omit<RootInputs, 'dir'>, found: ProjectSearch, named: boolean): string {
  const project = nonEmpty(inputs.env.CLAUDE_PROJECT_DIR);
  if (project) return resolveFrom(inputs.cwd, project, '`CLAUDE_PROJECT_DIR`');
  if (inputs.cwd === undefined)
    throw new SessionError(
      'E_IO',
      `Expected a working directory to find the project's .claude/ from, got none: ${NO_WORKING_DIRECTORY}; ` +
        'run from the project, or name the store with an absolute --dir, AGENT_SESSION_DIR or CLAUDE_PROJECT_DIR',
    );
  const folder = found.get()?.folder ?? null;
  if (folder !== null) return folder;
  if (named) return resolve(inputs.cwd);
  throw new SessionError(
    'E_USAGE',
    `Expected a project to keep sessions in, got \`${resolve(inputs.cwd)}\`: in no git repository and without its ` +
      'own .claude/ folder; run `agent-session init` in the project folder (or git init), or name the store with ' +
      '--dir or AGENT_SESSION_DIR',
  );
}

/** The test hook that moves this process's clock (README "Shared store"): only the call reads it. */
const CLOCK_OFFSET_VARIABLE = 'AGENT_SESSION_TEST_CLOCK_OFFSET_MS';

/**
 * Test hook: with AGENT_SESSION_TEST_CLOCK_OFFSET_MS set (whole milliseconds, maybe negative), the local clock this
 * process uses is moved by that much, as a machine whose clock is off would be; the e2e two-machine scenario runs two
 * such processes. Unset (every real use), the system clock. The PostgreSQL store's clock is the server's either way.
 * @throws SessionError E_USAGE for a value that is not a whole number
 */
function testClock(env: Env): (() => Date) | undefined {
  const raw = env[CLOCK_OFFSET_VARIABLE];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    throw new SessionError('E_USAGE', `Expected \`${CLOCK_OFFSET_VARIABLE}\` to be whole milliseconds, got \`${raw}\``);
  const offset = Number(raw.trim());
  return () => new Date(Date.now() + offset);
}
