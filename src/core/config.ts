import { assertDatabaseUrl, assertSchemaName, DEFAULT_SCHEMA } from './database';
import { parseDecimal } from './decimal';
import { SessionError, show } from './errors';
import { DEFAULT_LIMITS, LIMIT_VARIABLES, MAX_CLEANUP_HOURS, MAX_RESUME_TIMEOUT_MINUTES, type Limits } from './limits';
import { lazily } from './lazy';
import { parseConfigFileShape } from '../generated/config-parsers';
import { LOG_LEVELS, type LogLevel } from './log-levels';
import {
  DEFAULT_PERMISSION_GRANT_TTL_HOURS,
  MAX_PERMISSION_GRANT_TTL_HOURS,
  PERMISSION_INBOX_MODES,
  type PermissionInboxMode,
} from './permission';
import { assertProjectName, MAX_PROJECT_NAME_LENGTH } from './project';
import { DEFAULT_MAX_TRANSCRIPT_BYTES, type ContinuationSettings } from './claude-transcript';

// Pure: the caller reads the file and passes `process.env`. Hooks load this module too, so it stays small: it parses
// with the function generated from the zod schema (config-schema.ts), which it loads only to word a rejection.
export { LOG_LEVELS, type LogLevel };

// `require`, not `import`: a static import would evaluate zod in every hook call (~20 M instructions).
const schema = lazily(
  // eslint-disable-next-line no-restricted-globals, @typescript-eslint/no-require-imports -- lazy on purpose (above)
  () => require('./config-schema') as typeof import('./config-schema'),
);

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

export const DEFAULT_CONFIG: Config = {
  resume_timeout_minutes: DEFAULT_LIMITS.resumeTimeoutMinutes,
  max_errors: DEFAULT_LIMITS.maxErrors,
  cleanup_hours: 24,
  max_sessions: null,
  history_cap: 200,
  log_level: 'info',
  log_max_bytes: 1024 * 1024,
  database_url: null,
  database_schema: DEFAULT_SCHEMA,
  project: null,
  permission_inbox: 'background',
  permission_grant_ttl_hours: DEFAULT_PERMISSION_GRANT_TTL_HOURS,
  continue_agents: true,
  continue_max_transcript_bytes: DEFAULT_MAX_TRANSCRIPT_BYTES,
  notify: null,
};

/** The environment variable that overrides each setting (the first two predate the config file). */
export const CONFIG_VARIABLES: Readonly<Record<ConfigKey, string>> = {
  resume_timeout_minutes: LIMIT_VARIABLES.resumeTimeoutMinutes,
  max_errors: LIMIT_VARIABLES.maxErrors,
  cleanup_hours: 'AGENT_SESSION_CLEANUP_HOURS',
  max_sessions: 'AGENT_SESSION_MAX_SESSIONS',
  history_cap: 'AGENT_SESSION_HISTORY_CAP',
  log_level: 'AGENT_SESSION_LOG_LEVEL',
  log_max_bytes: 'AGENT_SESSION_LOG_MAX_BYTES',
  database_url: 'AGENT_SESSION_DATABASE_URL',
  database_schema: 'AGENT_SESSION_DATABASE_SCHEMA',
  project: 'AGENT_SESSION_PROJECT',
  permission_inbox: 'AGENT_SESSION_PERMISSION_INBOX',
  permission_grant_ttl_hours: 'AGENT_SESSION_PERMISSION_GRANT_TTL_HOURS',
  continue_agents: 'AGENT_SESSION_CONTINUE_AGENTS',
  continue_max_transcript_bytes: 'AGENT_SESSION_CONTINUE_MAX_TRANSCRIPT_BYTES',
  notify: 'AGENT_SESSION_NOTIFY',
};

/** The variable that points at another config file than `<project>/.claude/agent-session.json`. */
export const CONFIG_PATH_VARIABLE = 'AGENT_SESSION_CONFIG';

/** What each setting must be, for messages. */
const EXPECTED: Readonly<Record<ConfigKey, string>> = {
  resume_timeout_minutes: `a positive number of minutes, at most ${MAX_RESUME_TIMEOUT_MINUTES} (ten years)`,
  max_errors: 'a positive whole number',
  cleanup_hours: `a number of hours from 0 to ${MAX_CLEANUP_HOURS} (ten years)`,
  max_sessions: 'a positive whole number of sessions',
  history_cap: 'a positive whole number',
  log_level: `one of ${LOG_LEVELS.join(', ')}`,
  log_max_bytes: 'a positive whole number of bytes',
  database_url: 'a postgres://user@host/database URL',
  database_schema: 'a schema name (lower-case letters, digits and _)',
  project: `a project name (non-blank text without control characters or blanks at its ends, at most ${MAX_PROJECT_NAME_LENGTH} characters)`,
  permission_inbox: `one of ${PERMISSION_INBOX_MODES.join(', ')}`,
  permission_grant_ttl_hours: `a positive number of hours, at most ${MAX_PERMISSION_GRANT_TTL_HOURS} (ten years)`,
  continue_agents: 'true or false (a variable: true, false, 1 or 0)',
  continue_max_transcript_bytes: 'a positive whole number of bytes',
  notify:
    'a command, or an http(s):// URL to POST JSON to (non-blank text), or a list of them (a variable: a JSON array)',
};

/**
 * Where an effective value came from: the user's own file (`~/.config/agent-session/config.json`), the workspace's
 * (`trusted` when it took effect only because the user trusted that exact content), a variable, an option.
 */
export type ConfigSource =
  | { readonly kind: 'default' }
  | { readonly kind: 'user'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string; readonly trusted?: true }
  | { readonly kind: 'env'; readonly variable: string }
  | { readonly kind: 'option'; readonly option: string };

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
  readonly file: { readonly path: string; readonly found: boolean };
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
export const WORKSPACE_TRUST: Readonly<Record<ConfigKey, 'free' | 'trusted' | 'raise' | 'database'>> = {
  resume_timeout_minutes: 'raise',
  max_errors: 'raise',
  cleanup_hours: 'free',
  // Only narrows what is kept, as cleanup_hours: it never loosens a policy, runs or connects anything.
  max_sessions: 'free',
  history_cap: 'free',
  log_level: 'free',
  log_max_bytes: 'free',
  database_url: 'trusted',
  database_schema: 'trusted',
  project: 'database',
  permission_inbox: 'free',
  permission_grant_ttl_hours: 'raise',
  continue_agents: 'raise',
  continue_max_transcript_bytes: 'raise',
  notify: 'trusted',
};

/** The command that trusts the workspace file's content, named wherever an untrusted setting is ignored. */
export const TRUST_COMMAND = 'agent-session trust';

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
export function keysNeedingTrust(fromFile: Partial<Config>, below: Config, database: boolean): ConfigKey[] {
  return CONFIG_KEYS.filter((key) => {
    const value = fromFile[key];
    if (value === undefined) return false;
    const rule = WORKSPACE_TRUST[key];
    if (rule === 'trusted') return true;
    if (rule === 'database') return database;
    // Numbers, and a switch as 0/1 (on is the wider).
    if (rule === 'raise') return Number(value) > Number(below[key]);
    return false;
  });
}

/** The line that says what of the workspace file was ignored, and the command that trusts it. */
export function untrustedLine(untrusted: UntrustedSettings): string {
  // No backticks: the hooks' log escapes them (hooks/log.ts logValue), and this line is read there most.
  const why = untrusted.changed ? 'changed since you trusted it' : 'not trusted';
  return `ignored ${untrusted.keys.join(', ')} of ${untrusted.path} (${why}); run '${TRUST_COMMAND}' to apply them (docs/security.md)`;
}

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
export function resolveConfig(
  file: ConfigFileInput,
  env: Readonly<Record<string, string | undefined>>,
  options: ResolveOptions = {},
): EffectiveConfig {
  const values: Record<string, unknown> = { ...DEFAULT_CONFIG };
  const sources: Record<string, ConfigSource> = {};
  for (const key of CONFIG_KEYS) sources[key] = { kind: 'default' };
  const user = options.user;
  if (user?.found === true) {
    const fromUser = parseSettings(user.raw, `your config file ${user.path}`);
    for (const key of CONFIG_KEYS) {
      if (fromUser[key] === undefined) continue;
      values[key] = fromUser[key];
      sources[key] = { kind: 'user', path: user.path };
    }
  }
  const set = (key: ConfigKey) => {
    const raw = env[CONFIG_VARIABLES[key]];
    return raw !== undefined && raw.trim() !== '';
  };
  let untrusted: UntrustedSettings | undefined;
  if (file.found) {
    const fromFile = parseConfigFile(file.raw, file.path);
    const database =
      options.databaseOption === true ||
      set('database_url') ||
      values.database_url !== null ||
      fromFile.database_url !== undefined;
    const needing = keysNeedingTrust(fromFile, values as unknown as Config, database);
    // Asked only when it matters: the hooks read the trust record only for a file that holds such a setting.
    const verdict = needing.length === 0 ? 'trusted' : (options.trust?.() ?? 'untrusted');
    for (const key of CONFIG_KEYS) {
      if (fromFile[key] === undefined) continue;
      const needs = needing.includes(key);
      if (needs && verdict !== 'trusted') continue;
      values[key] = fromFile[key];
      sources[key] = needs ? { kind: 'file', path: file.path, trusted: true } : { kind: 'file', path: file.path };
    }
    const ignored = verdict === 'trusted' ? [] : needing.filter((key) => !set(key));
    if (ignored.length > 0) untrusted = { path: file.path, keys: ignored, changed: verdict === 'changed' };
  }
  for (const key of CONFIG_KEYS) {
    if (!set(key)) continue;
    const variable = CONFIG_VARIABLES[key];
    values[key] = parseVariable(key, variable, env[variable]!);
    sources[key] = { kind: 'env', variable };
  }
  return {
    values: values as unknown as Config,
    sources: sources as Record<ConfigKey, ConfigSource>,
    file: { path: file.path, found: file.found },
    ...(untrusted === undefined ? {} : { untrusted }),
  };
}

/**
 * Validates a config file's parsed JSON.
 * @throws SessionError E_USAGE naming the file, the key and the expectation
 */
export function parseConfigFile(raw: unknown, path: string): Partial<Config> {
  return parseSettings(raw, `the config file ${path}`);
}

/**
 * Validates settings given in code (the library's `openStore({ config })`) with the config file's own schema, so
 * no way in accepts a value the file would refuse.
 * @throws SessionError E_USAGE naming `where`, the key and the expectation
 */
export function parseSettings(raw: unknown, where: string): Partial<Config> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SessionError('E_USAGE', `Expected ${where} to hold a JSON object, got ${show(raw)}`);
  }
  // zod decides (and words) what the generated parser refused, so the two can never disagree here.
  const verdict = parseVerdict(raw);
  if (verdict.ok) {
    const data = verdict.data;
    // Only the settings given: a key present as undefined (possible in code) must not hide a lower layer's value.
    const given: Record<string, unknown> = {};
    for (const key of CONFIG_KEYS) if (data[key] !== undefined) given[key] = data[key];
    // Texts the schema cannot judge alone; the URL is shown masked in the message, never whole.
    if (given.database_url !== undefined)
      given.database_url = assertDatabaseUrl(given.database_url, `\`database_url\` in ${where}`);
    if (given.database_schema !== undefined) assertSchemaName(given.database_schema, `\`database_schema\` in ${where}`);
    if (given.project !== undefined) assertProjectName(given.project, `\`project\` in ${where}`);
    if (given.notify !== undefined && !notifySettingSound(given.notify as string | readonly string[]))
      throw new SessionError(
        'E_USAGE',
        `Expected \`notify\` in ${where} to be ${EXPECTED.notify}, got ${show(JSON.stringify(given.notify))}`,
      );
    return given as Partial<Config>;
  }
  if ('unknownKeys' in verdict) {
    throw new SessionError(
      'E_USAGE',
      `Expected ${where} to have only the keys ${CONFIG_KEYS.join(', ')}, got ${show(verdict.unknownKeys.join(', '))}`,
    );
  }
  const key = verdict.key as ConfigKey;
  const expected = EXPECTED[key] ?? 'a string';
  const found = (raw as Record<string, unknown>)[key];
  // A quoted number must not read as the number it spells: show strings as JSON here. A number past what a double
  // holds (`1e309`) parses as Infinity, which JSON would render as `null`.
  const shown = typeof found === 'string' ? JSON.stringify(found) : typeof found === 'number' ? String(found) : found;
  throw new SessionError('E_USAGE', `Expected \`${key}\` in ${where} to be ${expected}, got ${show(shown)}`);
}

/** The resume limits of a configuration. */
export function limitsOf(config: Config): Limits {
  return { ...DEFAULT_LIMITS, resumeTimeoutMinutes: config.resume_timeout_minutes, maxErrors: config.max_errors };
}

/** The continuation settings of a configuration (core/claude-transcript.ts chooseContinuation). */
export function continuationSettingsOf(config: Config): ContinuationSettings {
  return { enabled: config.continue_agents, maxTranscriptBytes: config.continue_max_transcript_bytes };
}

/** True when a log line of `level` is written under the configured `threshold`. */
export function logs(threshold: LogLevel, level: Exclude<LogLevel, 'silent'>): boolean {
  return threshold !== 'silent' && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** Every setting, in the order `agent-session config` prints them. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  'resume_timeout_minutes',
  'max_errors',
  'cleanup_hours',
  'max_sessions',
  'history_cap',
  'log_level',
  'log_max_bytes',
  'database_url',
  'database_schema',
  'project',
  'permission_inbox',
  'permission_grant_ttl_hours',
  'continue_agents',
  'continue_max_transcript_bytes',
  'notify',
];

// --- internal ---

function parseVerdict(raw: unknown): ReturnType<typeof import('./config-schema').settingsVerdict> {
  const data = parseConfigFileShape(raw);
  return data === undefined ? schema().settingsVerdict(raw) : { ok: true, data };
}

function parseVariable(key: ConfigKey, variable: string, raw: string): unknown {
  if (key === 'database_url') return assertDatabaseUrl(raw, `\`${variable}\``);
  if (key === 'database_schema') return assertSchemaName(raw.trim(), `\`${variable}\``);
  if (key === 'project') return assertProjectName(raw, `\`${variable}\``);
  if (key === 'notify') {
    const list = notifyList(raw);
    if (list !== undefined && !notifySettingSound(list))
      throw new SessionError('E_USAGE', `Expected \`${variable}\` to be ${EXPECTED[key]}, got ${show(raw)}`);
    return list ?? raw.trim();
  }
  const value =
    key === 'log_level' || key === 'permission_inbox'
      ? raw.trim()
      : key === 'continue_agents'
        ? switchOf(raw)
        : parseDecimal(raw);
  // The variable is checked by the same schema as the file, so both accept exactly the same values.
  if (value === undefined || parseConfigFileShape({ [key]: value }) === undefined)
    throw new SessionError('E_USAGE', `Expected \`${variable}\` to be ${EXPECTED[key]}, got ${show(raw)}`);
  return value;
}

/**
 * A `notify` variable that is a JSON array of texts: its targets, trimmed (undefined for anything else: one target,
 * even one that starts with `[`, as a shell test `[ -x … ]` does).
 */
function notifyList(raw: string): string[] | undefined {
  const text = raw.trim();
  if (!text.startsWith('[')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value.map((item: string) => item.trim())
    : undefined;
}

/** A `notify` setting names someone: a non-blank text, or a non-empty list of them. */
function notifySettingSound(setting: string | readonly string[]): boolean {
  const targets = typeof setting === 'string' ? [setting] : setting;
  return targets.length > 0 && targets.every((target) => target.trim() !== '');
}

/** A yes/no variable's value: `true`/`1` or `false`/`0`; undefined for anything else. */
function switchOf(raw: string): boolean | undefined {
  const word = raw.trim();
  return word === 'true' || word === '1' ? true : word === 'false' || word === '0' ? false : undefined;
}
