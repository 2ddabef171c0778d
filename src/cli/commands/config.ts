import type { CommandModule } from 'yargs';
import { CONFIG_KEYS, type Config, type ConfigKey, type ConfigSource } from '../../core/config';
import { maskDatabaseUrl } from '../../core/database';
import { storeChoice, type StoreChoice } from '../../service/assembly';
import { colourFor, contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { renderRows, type Cell } from '../color';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly json: boolean;
}

export const configCommand: CommandModule<GlobalArgs, Args> = {
  command: 'config',
  describe:
    'Print the store in use and the effective settings, with where each came from (default, config file, environment)',
  builder: (yargs) => withJson(yargs) as never,
  handler: async (argv) => {
    const context = contextFor(argv);
    const config = context.config;
    const store = storeChoice(context.environment, config.values);
    if (argv.json) {
      printJson(argv.io, {
        store,
        file: config.file,
        settings: Object.fromEntries(
          CONFIG_KEYS.map((key) => [key, { value: shown(config.values, key), source: config.sources[key] }]),
        ),
      });
      return;
    }
    const rows: Cell[][] = [['SETTING', 'VALUE', 'SOURCE']];
    for (const key of CONFIG_KEYS) {
      const source = config.sources[key];
      const value = shown(config.values, key);
      rows.push([
        key,
        value === null ? '(none)' : escapeControl(String(value)),
        { text: describeSource(source), style: source.kind === 'default' ? 'dim' : undefined },
      ]);
    }
    const where = `${escapeControl(config.file.path)}${config.file.found ? '' : ' (not found)'}`;
    argv.io.out(
      `Store: ${escapeControl(describeStore(store))}\nConfig file: ${where}\n${renderRows(rows, colourFor(argv.io))}\n`,
    );
  },
};

// --- internal ---

/** A setting as it may be printed: the database URL with its password masked. */
function shown(values: Config, key: ConfigKey): Config[ConfigKey] {
  const value = values[key];
  return key === 'database_url' && typeof value === 'string' ? maskDatabaseUrl(value) : value;
}

function describeStore(store: StoreChoice): string {
  return store.kind === 'files' ? `files in ${store.root}` : `PostgreSQL ${store.url}, schema ${store.schema}`;
}

function describeSource(source: ConfigSource): string {
  if (source.kind === 'file') return `file ${source.path}`;
  if (source.kind === 'env') return `env ${source.variable}`;
  if (source.kind === 'option') return `option ${source.option}`;
  return 'default';
}
