import type { CommandModule } from 'yargs';
import { CONFIG_KEYS, type ConfigSource } from '../../core/config';
import { colourFor, contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { renderRows, type Cell } from '../color';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly json: boolean;
}

export const configCommand: CommandModule<GlobalArgs, Args> = {
  command: 'config',
  describe: 'Print the effective settings and where each came from (default, config file, environment)',
  builder: (yargs) => withJson(yargs) as never,
  handler: async (argv) => {
    const config = contextFor(argv).config;
    if (argv.json) {
      printJson(argv.io, {
        file: config.file,
        settings: Object.fromEntries(
          CONFIG_KEYS.map((key) => [key, { value: config.values[key], source: config.sources[key] }]),
        ),
      });
      return;
    }
    const rows: Cell[][] = [['SETTING', 'VALUE', 'SOURCE']];
    for (const key of CONFIG_KEYS) {
      const source = config.sources[key];
      rows.push([
        key,
        String(config.values[key]),
        { text: describeSource(source), style: source.kind === 'default' ? 'dim' : undefined },
      ]);
    }
    const where = `${escapeControl(config.file.path)}${config.file.found ? '' : ' (not found)'}`;
    argv.io.out(`Config file: ${where}\n${renderRows(rows, colourFor(argv.io))}\n`);
  },
};

// --- internal ---

function describeSource(source: ConfigSource): string {
  if (source.kind === 'file') return `file ${source.path}`;
  if (source.kind === 'env') return `env ${source.variable}`;
  return 'default';
}
