import type { CommandModule } from 'yargs';
import {
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  type Config,
  type ConfigKey,
  type ConfigSource,
  type EffectiveConfig,
  TRUST_COMMAND,
  untrustedLine,
} from '../../core/config';
import { maskDatabaseUrl } from '../../core/database-url';
import { isSessionError, type SessionError } from '../../core/errors';
import { configFor, hookSettings, locationsOf, projectOf, storeChoice, type StoreChoice } from '../../app/config-view';
import type { ProjectIdentity } from '../../core/project';
import { colourFor, printJson, withJson, type GlobalArgs } from '../context';
import { renderRows, type Cell } from '../color';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly json: boolean;
}

export const configCommand: CommandModule<GlobalArgs, Args> = {
  command: 'config',
  describe:
    'Print the store in use, the hook log folder, the config file, and the effective settings with where each came from',
  builder: (yargs) => withJson(yargs) as never,
  handler: (argv) => {
    const environment = { dir: argv.dir, env: argv.io.env, cwd: argv.io.cwd, databaseUrl: argv['database-url'] };
    const where = locationsOf(environment);
    // A broken config file or variable is what this command is run to find: it is shown with everything else,
    // then the command fails (exit 2) as every other command would. The hooks run with the defaults meanwhile.
    let config: EffectiveConfig;
    let problem: SessionError | undefined;
    try {
      // The root just resolved, passed as the explicit folder: not looked up again (as contextFor does).
      config = configFor({ ...environment, dir: where.root });
    } catch (error) {
      if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
      problem = error;
      config = defaults(where.configFile);
    }
    // What the hooks do is decided as they decide it (they never see --database-url): with these settings, with the
    // defaults, or failing open when the invalid settings name a database (then no store is in use at all).
    const hooks = hookOutcome(argv.io.env, argv.io.cwd, where.root);
    // Only --database-url is wrong: the settings shown are the ones the hooks run with, not the defaults.
    if (problem !== undefined && hooks === 'as_configured')
      config = configFor({ ...environment, databaseUrl: undefined, dir: where.root });
    const store: StoreChoice | { readonly kind: 'none' } =
      problem !== undefined && hooks === 'fail_open'
        ? { kind: 'none' }
        : storeChoice({ ...environment, dir: where.root }, config.values);
    const ignored = emptyVariables(argv.io.env);
    const project = projectFor({ ...environment, dir: where.root }, config.values);
    if (argv.json) {
      printJson(argv.io, {
        store,
        project,
        store_root: where.root,
        log_dir: where.logDir,
        file: problem === undefined ? config.file : { path: where.configFile },
        ...(problem === undefined ? {} : { error: { code: problem.code, message: problem.message } }),
        hooks,
        ignored_variables: ignored,
        untrusted: config.untrusted === undefined ? null : { ...config.untrusted, trust_with: TRUST_COMMAND },
        settings: Object.fromEntries(
          CONFIG_KEYS.map((key) => [key, { value: shown(config.values, key), source: config.sources[key] }]),
        ),
      });
    } else {
      const rows: Cell[][] = [['SETTING', 'VALUE', 'SOURCE']];
      for (const key of CONFIG_KEYS) {
        const source = config.sources[key];
        const value = shown(config.values, key);
        rows.push([
          key,
          value === null ? '(none)' : escapeControl(Array.isArray(value) ? JSON.stringify(value) : String(value)),
          { text: describeSource(source), style: source.kind === 'default' ? 'dim' : undefined },
        ]);
      }
      const file =
        problem === undefined
          ? `${escapeControl(config.file.path)}${config.file.found ? '' : ' (not found)'}`
          : escapeControl(where.configFile);
      // The problem is on stderr too (one line, as every error); here it stands beside what it affects.
      const note =
        problem === undefined
          ? ''
          : `Invalid:     ${escapeControl(problem.message)}\n${HOOKS_MEANWHILE[hooks]}; ` +
            'every other command refuses to run until this is fixed.\n';
      const empty =
        ignored.length === 0 ? '' : `Ignored:     ${escapeControl(ignored.join(', '))} (empty: counts as unset)\n`;
      const untrusted =
        config.untrusted === undefined ? '' : `Untrusted:   ${escapeControl(untrustedLine(config.untrusted))}\n`;
      argv.io.out(
        `Store:       ${escapeControl(describeStore(store))}\nProject:     ${escapeControl(describeProject(project))}\n` +
          `Store root:  ${escapeControl(where.root)}\n` +
          `Log folder:  ${escapeControl(where.logDir)}\nConfig file: ${file}\n` +
          `${note}${empty}${untrusted}${renderRows(rows, colourFor(argv.io))}\n`,
      );
    }
    if (problem !== undefined) throw problem;
  },
};

// --- internal ---

/** What the hooks do with the settings of this environment (service/hook-config.ts decides). */
type HookOutcome = 'as_configured' | 'defaults' | 'fail_open';

/** The note beside an invalid configuration: what the hooks do meanwhile. */
const HOOKS_MEANWHILE: Readonly<Record<HookOutcome, string>> = {
  as_configured: 'The hooks run with their settings (they never read --database-url)',
  defaults: 'The hooks run with the defaults below meanwhile (the file store)',
  fail_open:
    'The hooks fail open meanwhile (nothing resumed, nothing recorded): a database is configured, so they do not ' +
    'fall back to the file store',
};

function hookOutcome(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  root: string,
): HookOutcome {
  const settings = hookSettings({ env, cwd, root });
  return settings.kind === 'valid' ? 'as_configured' : settings.kind;
}

/** The AGENT_SESSION_* variables set but empty or blank: each counts as unset (docs/configuration.md "The config file"). */
function emptyVariables(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('AGENT_SESSION_') && env[name]?.trim() === '')
    .sort();
}

function defaults(path: string): EffectiveConfig {
  const sources = Object.fromEntries(
    CONFIG_KEYS.map((key) => [key, { kind: 'default' }]),
  ) as EffectiveConfig['sources'];
  return { values: DEFAULT_CONFIG, sources, file: { path, found: false } };
}

/**
 * A setting as it may be printed: the database URL with its password masked, a notify URL without its path and query
 * (a webhook's path is its secret).
 */
function shown(values: Config, key: ConfigKey): Config[ConfigKey] {
  const value = values[key];
  if (key === 'database_url' && typeof value === 'string') return maskDatabaseUrl(value);
  if (key === 'notify' && value !== null)
    return typeof value === 'string' ? notifyShown(value) : (value as readonly string[]).map(notifyShown);
  return value;
}

function notifyShown(value: string): string {
  return /^https?:\/\//i.test(value) ? maskedUrl(value) : value;
}

function maskedUrl(value: string): string {
  try {
    return `${new URL(value).origin}/****`;
  } catch {
    return '****';
  }
}

function describeStore(store: StoreChoice | { readonly kind: 'none' }): string {
  if (store.kind === 'none') return 'none: the settings name a database but are invalid (below)';
  return store.kind === 'files' ? `files in ${store.root}` : `PostgreSQL ${store.url}, schema ${store.schema}`;
}

/** The project this invocation works for, or why it cannot be named (a `.git` that cannot be read). */
function projectFor(
  environment: Parameters<typeof projectOf>[0],
  values: Config,
): ProjectIdentity | { readonly error: { code: string; message: string } } {
  try {
    return projectOf(environment, values);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    return { error: { code: error.code, message: error.message } };
  }
}

function describeProject(project: ReturnType<typeof projectFor>): string {
  if ('error' in project) return `cannot be named: ${project.error.message}`;
  const source = project.source;
  const from =
    source.kind === 'configured'
      ? 'configured: `project` or AGENT_SESSION_PROJECT'
      : source.kind === 'remote'
        ? 'the git remote origin'
        : source.kind === 'path'
          ? 'the folder: no git remote origin; configure `project` to share it across machines'
          : 'the default';
  return `${project.name} (${from})`;
}

function describeSource(source: ConfigSource): string {
  if (source.kind === 'file') return `file ${source.path}${source.trusted === true ? ' (trusted)' : ''}`;
  if (source.kind === 'user') return `your file ${source.path}`;
  if (source.kind === 'env') return `env ${source.variable}`;
  if (source.kind === 'option') return `option ${source.option}`;
  return 'default';
}
