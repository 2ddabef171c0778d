import type { Host } from '../core/host';
import { dirname, join } from 'node:path';
import { CONFIG_VARIABLES, limitsOf, type Config, type EffectiveConfig } from '../core/config';
import { configPathFor, loadConfig } from './config-file';
import { copySessions, type CopyResult } from '../service/copy';
import { Sessions } from '../service/sessions';
import { FileStore } from '../store/file-store';
import { projectFolderOf, resolveRoot, storeFolderOf } from '../store/root';
import { projectIdentityOf } from './project';
import type { ProjectIdentity } from '../core/project';
import type { PgStore } from '../store/postgres/pg-store';
import type { MigrationResult } from '../store/postgres/schema';
import type { RelayPlace } from '../store/relay/relay-folder';
import type { RelayReply } from '../store/relay/relay-admin';
import type { RelayStatus } from '../store/relay/relay-server';
import type { SessionStore } from '../service/store';
import { assertDatabaseUrl, assertSchemaName, WAIT_LIMITS, type WaitLimits } from '../core/database';
import { maskDatabaseUrl } from '../core/database-url';
import { SessionError } from '../core/errors';
import { positiveNumber } from '../platform/env';
import { noteDatabaseUse } from '../platform/code-cache-hint';
import { isDirectory, lstatOrNull } from '../platform/files';
import { resolveFrom } from '../platform/working-directory';

/**
 * The one place that opens a concrete store: the CLI, the hooks and the library come here for the store root, the
 * settings and the service, so no adapter imports src/store.
 */

/** Where a process found its store and limits. */
export interface Environment {
  readonly dir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working directory; undefined when it cannot be named (removed): only absolute paths then resolve. */
  readonly cwd: string | undefined;
  /** `--database-url`: wins over AGENT_SESSION_DATABASE_URL and the config file's `database_url`. */
  readonly databaseUrl?: string | undefined;
  /** A hook's process: the PostgreSQL store's waits get the hooks' bounds (WAIT_LIMITS.hook), else the commands'. */
  readonly hook?: boolean;
  /** The host whose hooks the call answers (core/host.ts): the service's new sessions name it, its resumes stay in it. */
  readonly host?: Host;
}

/**
 * Where one call works, its store root resolved once (placeOf): everything else of the call (settings, project, the
 * store, the log folder) is found from it, never by resolving the root again.
 */
export interface Place extends Environment {
  readonly root: string;
}

/**
 * The place of an environment: its store root (--dir, AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR, the project above cwd).
 * @throws SessionError E_IO when a folder on the way cannot be inspected, or there is nothing to resolve it from
 */
export function placeOf(environment: Environment): Place {
  return 'root' in environment ? (environment as Place) : { ...environment, root: resolveRoot(environment) };
}

/** The store a configuration selects, as it may be shown (the URL masked). */
export type StoreChoice =
  | { readonly kind: 'files'; readonly root: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

/**
 * The settings in force for an environment: defaults ← config file ← environment variables ← `--database-url`.
 * @throws SessionError E_USAGE for an invalid config file, variable or option, E_IO when the file cannot be read
 */
export function configFor(environment: Environment): EffectiveConfig {
  const place = placeOf(environment);
  const config = loadConfig(place.root, place.env, place.cwd);
  if (environment.databaseUrl === undefined) return config;
  return {
    ...config,
    values: { ...config.values, database_url: assertDatabaseUrl(environment.databaseUrl, '`--database-url`') },
    sources: { ...config.sources, database_url: { kind: 'option', option: '--database-url' } },
  };
}

/** Which store `config` selects: PostgreSQL when it names a database URL, else the file store at the root. */
export function storeChoice(environment: Environment, config: Config): StoreChoice {
  return config.database_url === null
    ? { kind: 'files', root: resolveRoot(environment) }
    : { kind: 'postgres', url: maskDatabaseUrl(config.database_url), schema: config.database_schema };
}

/**
 * Creates or upgrades the PostgreSQL store's tables (`agent-session migrate`, `init --database-url`).
 * @throws SessionError E_USAGE when no database is configured; E_REFUSED for a schema a newer version made; E_IO
 */
export async function migrateStore(config: Config): Promise<MigrationResult> {
  if (config.database_url === null)
    throw new SessionError(
      'E_USAGE',
      'Expected a database to migrate: set AGENT_SESSION_DATABASE_URL, `database_url` in the config file, or pass --database-url',
    );
  const store = openPgStore(config.database_url, config.database_schema, WAIT_LIMITS.command);
  try {
    return await store.migrate();
  } finally {
    await store.close();
  }
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
  const clock = now ?? testClock(environment.env);
  const { root } = placeOf(environment);
  const project = projectAt(root, environment, config).name;
  const store =
    config.database_url === null
      ? new FileStore(root, {
          home: homeProject(root, environment, config, project),
          ...(clock === undefined ? {} : { now: clock }),
        })
      : environment.hook === true
        ? openHookStore(config.database_url, config.database_schema, environment.env)
        : openPgStore(config.database_url, config.database_schema, WAIT_LIMITS.command);
  return new Sessions({
    store,
    project,
    ...(environment.host === undefined ? {} : { host: environment.host }),
    limits: limitsOf(config),
    historyCap: config.history_cap,
  });
}

/**
 * The project of a call (core/project.ts): the project folder's (store/root.ts projectFolderOf: the folder the store
 * is in, else the one the default store would come from) as `config` names it, from its git remote, or its folder.
 * Resolved once per call, where the store root is.
 * @throws SessionError E_IO when the folder's `.git` or git config cannot be read
 */
export function projectOf(environment: Environment, config: Config): ProjectIdentity {
  return projectAt(placeOf(environment).root, environment, config);
}

/**
 * The store root the environment points at (--dir, AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR, the project above cwd).
 * @throws SessionError E_IO when a folder on the way cannot be inspected
 */
export function storeRoot(environment: Environment): string {
  return placeOf(environment).root;
}

/** Where an invocation's files are: the store root, the config file looked for, and the hooks' log folder. */
export interface Locations {
  readonly root: string;
  readonly configFile: string;
  readonly logDir: string;
}

/**
 * The store root, config file and hook log folder of an environment, resolved as the commands and hooks resolve
 * them, without reading the config file (so `config` can show them when that file is broken).
 * @throws SessionError E_IO when a folder on the way cannot be inspected
 */
export function locationsOf(environment: Environment): Locations {
  const { root } = placeOf(environment);
  return {
    root,
    configFile: configPathFor(root, environment.env, environment.cwd),
    logDir: logDirFor(root, environment.env),
  };
}

/**
 * The hook log folder: `AGENT_SESSION_LOG_DIR`, else the `logs` folder beside the store root
 * (`<project>/.claude/logs` for the default root `<project>/.claude/session`).
 */
export function logDirFor(root: string, env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.AGENT_SESSION_LOG_DIR;
  return explicit !== undefined && explicit.trim() !== '' ? explicit : join(dirname(root), 'logs');
}

/**
 * The ids of the store the environment points at, without reading a session (shell completion).
 * @throws SessionError E_IO when the store cannot be listed
 */
export function sessionIdsOf(environment: Environment): string[] {
  return new FileStore(resolveRoot(environment)).ids();
}

/**
 * Copies every session between two stores (`agent-session copy`): each of `fromSpec` and `toSpec` is a folder (the
 * file store, relative to cwd) or a `postgres://` URL (the PostgreSQL store, in the configured schema). The stores
 * are closed afterwards.
 * @throws SessionError E_USAGE for the same store twice, a bad URL or a source folder that does not exist; E_DUPLICATE (see copySessions); E_IO
 */
export async function copyStores(
  fromSpec: string,
  toSpec: string,
  environment: Environment,
  config: Config,
): Promise<CopyResult & { readonly from: string; readonly to: string }> {
  const from = storeAt(fromSpec, '`--from`', environment, config);
  // A mistyped source is not an empty store: "Copied 0 sessions" would hide the typo.
  if (from instanceof FileStore && !isDirectory(from.location)) {
    await from.close();
    throw new SessionError('E_USAGE', `Expected \`--from\` to be an existing store folder, got ${from.location}`);
  }
  const to = storeAt(toSpec, '`--to`', environment, config);
  try {
    if (from.location === to.location)
      throw new SessionError(
        'E_USAGE',
        `Expected \`--from\` and \`--to\` to be two stores, got ${from.location} twice`,
      );
    return { ...(await copySessions(from, to)), from: from.location, to: to.location };
  } finally {
    await Promise.all([from.close(), to.close()]);
  }
}

/** The relay of the configured database (README "Shared store"): its socket, and what it says or why it is absent. */
export interface RelayReport {
  readonly location: string;
  readonly socket: string;
  readonly reply: RelayReply;
}

/**
 * Asks the relay of the configured database for its status (`relay status`) or to stop (`relay stop`).
 * @throws SessionError E_USAGE when no database is configured
 */
export async function askRelayOf(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  question: 'status' | 'stop',
): Promise<RelayReport> {
  const { url, schema } = databaseOf(config, 'a relay');
  const place = relayPlaceOf(url, schema, env);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const admin = require('../store/relay/relay-admin') as typeof import('../store/relay/relay-admin');
  const reply = await admin.askRelay(place, { url, schema }, question === 'status' ? '$status' : '$stop');
  return { location: pgLocation(url, schema), socket: place.socket, reply };
}

/** What `relay status` shows of a running relay. */
export type { RelayStatus };

/**
 * Runs the relay (`relay serve`, which a hook starts detached) until it stops: for the store a starting hook named
 * (AGENT_SESSION_RELAY_STORE), else the configured database.
 * @throws SessionError E_USAGE when no database is configured or the variable is malformed; E_REFUSED, E_BUSY, E_IO
 */
export async function serveRelay(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<'stopped' | 'already_running'> {
  const { url, schema } = env[RELAY_STORE_VARIABLE] === undefined ? databaseOf(config, 'a relay') : relayStoreOf(env);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const server = require('../store/relay/relay-server') as typeof import('../store/relay/relay-server');
  const idleSeconds = positiveNumber(env.AGENT_SESSION_RELAY_IDLE_SECONDS) ?? RELAY_IDLE_SECONDS;
  return server.runRelay({
    place: relayPlaceOf(url, schema, env),
    url,
    schema,
    location: pgLocation(url, schema),
    open: (options) => {
      const loaded = loadPgStore();
      return new loaded.PgStore({ ...options, url, schema, limits: WAIT_LIMITS.relay, recheckMs: RELAY_RECHECK_MS });
    },
    idleMs: idleSeconds * 1000,
    log,
    ...relayPause(env),
  });
}

// --- internal ---

/** How long a relay waits for its next client before it stops (AGENT_SESSION_RELAY_IDLE_SECONDS changes it). */
const RELAY_IDLE_SECONDS = 300;
/** How often a relay's stores check the schema again (a newer version's migration is noticed within this). */
const RELAY_RECHECK_MS = 60_000;
/** The store a hook starts its relay for: `{"url", "schema"}`, in the relay's environment (never on its command line). */
const RELAY_STORE_VARIABLE = 'AGENT_SESSION_RELAY_STORE';

/**
 * The PostgreSQL store of a hook: through the local relay (src/store/relay/), which holds the connection, unless
 * AGENT_SESSION_RELAY=off; the relay's client falls back to a direct connection when no relay answers.
 */
function openHookStore(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): SessionStore {
  noteDatabaseUse();
  if (!relayWanted(env)) return openPgStore(url, schema, WAIT_LIMITS.hook);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const client = require('../store/relay/relay-store') as typeof import('../store/relay/relay-store');
  const limits = WAIT_LIMITS.hook;
  return client.openRelayStore({
    place: relayPlaceOf(url, schema, env),
    store: { url, schema },
    location: pgLocation(url, schema),
    totalMs: limits.totalMs,
    // What is left of the hook's budget, for a direct connection after the relay did not serve.
    direct: (timeLeftMs) =>
      openPgStore(url, schema, {
        connectMs: Math.min(limits.connectMs, Math.max(timeLeftMs, 1)),
        statementMs: Math.min(limits.statementMs, Math.max(timeLeftMs, 1)),
        totalMs: Math.max(timeLeftMs, 1),
      }),
    start: relayStarter(url, schema, env),
  });
}

/** Whether hooks use the relay: yes unless AGENT_SESSION_RELAY is `off` (or `0`, `false`, `no`). */
function relayWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.AGENT_SESSION_RELAY?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}

/**
 * How a hook starts a relay: `agent-session relay serve` from the bin's own folder (the bins are siblings, in dist/ and
 * in the plugin), by the node running the hook, with the store in its environment; null when that bin is not there
 * (run from the sources).
 */
function relayStarter(
  url: string,
  schema: string,
  env: Readonly<Record<string, string | undefined>>,
): (() => void) | null {
  return () => {
    const cli = join(__dirname, 'agent-session.cjs');
    if (lstatOrNull(cli) === null) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
    const starter = require('../store/relay/relay-start') as typeof import('../store/relay/relay-start');
    starter.startDetached([process.execPath, cli, 'relay', 'serve'], {
      ...env,
      [RELAY_STORE_VARIABLE]: JSON.stringify({ url, schema }),
    });
  };
}

function relayPlaceOf(url: string, schema: string, env: Readonly<Record<string, string | undefined>>): RelayPlace {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const folder = require('../store/relay/relay-folder') as typeof import('../store/relay/relay-folder');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the relay's modules load on its path only
  const protocol = require('../store/relay/relay-protocol') as typeof import('../store/relay/relay-protocol');
  return folder.relayPlace(folder.relayFolder(env), url, schema, protocol.RELAY_BUILD);
}

/** The store a starting hook gave its relay (AGENT_SESSION_RELAY_STORE), checked as a configured one is. */
function relayStoreOf(env: Readonly<Record<string, string | undefined>>): { url: string; schema: string } {
  let value: unknown;
  try {
    value = JSON.parse(env[RELAY_STORE_VARIABLE] ?? '');
  } catch {
    value = null;
  }
  const { url, schema } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    url: assertDatabaseUrl(url, `\`url\` in ${RELAY_STORE_VARIABLE}`),
    schema: assertSchemaName(schema, `\`schema\` in ${RELAY_STORE_VARIABLE}`),
  };
}

/** Test hook (AGENT_SESSION_TEST_RELAY_PAUSE=`<call>:before|after`): the relay stops for good at that call. */
function relayPause(env: Readonly<Record<string, string | undefined>>): {
  pause?: { call: string; when: 'before' | 'after' };
} {
  const match = /^([$\w]+):(before|after)$/.exec(env.AGENT_SESSION_TEST_RELAY_PAUSE ?? '');
  return match === null ? {} : { pause: { call: match[1]!, when: match[2] as 'before' | 'after' } };
}

/** The configured database. @throws SessionError E_USAGE when there is none */
function databaseOf(config: Config, what: string): { url: string; schema: string } {
  if (config.database_url === null)
    throw new SessionError(
      'E_USAGE',
      `Expected a database for ${what}: set AGENT_SESSION_DATABASE_URL, \`database_url\` in the config file, or pass --database-url`,
    );
  return { url: config.database_url, schema: config.database_schema };
}

/** How the PostgreSQL store names itself (PgStore's `location`). */
function pgLocation(url: string, schema: string): string {
  return `${maskDatabaseUrl(url)} (schema ${schema})`;
}

/** The test hook that moves this process's clock (README "Shared store"): only the assembly reads it. */
const CLOCK_OFFSET_VARIABLE = 'AGENT_SESSION_TEST_CLOCK_OFFSET_MS';

/**
 * Test hook: with AGENT_SESSION_TEST_CLOCK_OFFSET_MS set (whole milliseconds, maybe negative), the local clock this
 * process uses is moved by that much, as a machine whose clock is off would be; the e2e two-machine scenario runs two
 * such processes. Unset (every real use), the system clock. The PostgreSQL store's clock is the server's either way.
 * @throws SessionError E_USAGE for a value that is not a whole number
 */
function testClock(env: Readonly<Record<string, string | undefined>>): (() => Date) | undefined {
  const raw = env[CLOCK_OFFSET_VARIABLE];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    throw new SessionError('E_USAGE', `Expected \`${CLOCK_OFFSET_VARIABLE}\` to be whole milliseconds, got \`${raw}\``);
  const offset = Number(raw.trim());
  return () => new Date(Date.now() + offset);
}

/** The project of the call whose store root is `root`. */
function projectAt(root: string, environment: Environment, config: Config): ProjectIdentity {
  return projectIdentityOf(projectFolderOf(root, environment), config.project);
}

/**
 * The home project of a file store at `root` (FileStoreOptions.home): when it is a project's own
 * `<folder>/.claude/session`, the project that folder's own settings name (the config file's `project`, else its git
 * remote, else its path), which AGENT_SESSION_PROJECT or the library's `config` do not change: a call named otherwise
 * writes its sessions there with their project, so the folder's own calls never take them for theirs. Else null.
 * @param project the call's project (that folder's, named by `config`)
 */
function homeProject(root: string, environment: Environment, config: Config, project: string): string | null {
  const folder = storeFolderOf(root);
  if (folder === null) return null;
  // No name configured: the call's project is the folder's own (its remote or path).
  if (config.project === null) return project;
  // Named: by the folder's settings, or by the variable or the library (read again without them; only then).
  const env = { ...environment.env, [CONFIG_VARIABLES.project]: undefined };
  return projectIdentityOf(folder, loadConfig(root, env, environment.cwd).values.project).name;
}

/**
 * The store a `copy` argument names: a `postgres://` URL, or a folder (a project's `<folder>/.claude/session` has that
 * folder's project as its home, named by the settings found beside it).
 */
function storeAt(spec: string, where: string, environment: Environment, config: Config): FileStore | PgStore {
  if (/^postgres(ql)?:/i.test(spec.trim()))
    return openPgStore(assertDatabaseUrl(spec, where), config.database_schema, WAIT_LIMITS.command);
  if (spec.trim() === '')
    throw new SessionError('E_USAGE', `Expected ${where} to be a folder or a postgres:// URL, got nothing`);
  const root = resolveFrom(environment.cwd, spec, where);
  const folder = storeFolderOf(root);
  const home =
    folder === null
      ? null
      : projectIdentityOf(folder, loadConfig(root, environment.env, environment.cwd).values.project).name;
  return new FileStore(root, { home });
}

/**
 * A PostgreSQL store. The driver is required here, on this path only: a process on the file store never loads or
 * evaluates postgres.js (tests/e2e/postgres-cli.test.ts). In the built bins the driver is not even in the bundle:
 * its `postgres` import is required from dist/postgres.cjs (scripts/build.mjs, tests/e2e/pg-driver-file.test.ts).
 */
function openPgStore(url: string, schema: string, limits: WaitLimits): PgStore {
  const loaded = loadPgStore();
  return new loaded.PgStore({ url, schema, limits });
}

/** The PostgreSQL store's module, required on this path only (see openPgStore). */
function loadPgStore(): typeof import('../store/postgres/pg-store') {
  let loaded: typeof import('../store/postgres/pg-store');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
    loaded = require('../store/postgres/pg-store') as typeof import('../store/postgres/pg-store');
  } catch (error) {
    // A bin copied out of dist/ alone: one clear line instead of Node's require stack.
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    const first = (error as Error).message.split('\n')[0];
    throw new SessionError('E_IO', `Expected the PostgreSQL driver (dist/postgres.cjs beside the bin), got: ${first}`);
  }
  return loaded;
}
