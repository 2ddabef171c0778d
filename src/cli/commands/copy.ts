import type { CommandModule } from 'yargs';
import { copyStores } from '../../app/stores';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly from: string;
  readonly to: string;
  readonly json: boolean;
}

export const copyCommand: CommandModule<GlobalArgs, Args> = {
  command: 'copy',
  describe:
    'Copy every session from one store to another (a folder or a postgres:// URL), as it is, decisions marked ' +
    'imported; refused, with nothing written, when the target holds any of the ids; all or nothing',
  builder: (yargs) =>
    withJson(yargs)
      .option('from', { type: 'string', demandOption: true, describe: 'Source: a store folder or a postgres:// URL' })
      .option('to', {
        type: 'string',
        demandOption: true,
        describe: 'Target: a store folder or a postgres:// URL',
      }) as never,
  handler: async (argv) => {
    const context = contextFor(argv);
    const result = await copyStores(String(argv.from), String(argv.to), context);
    if (argv.json) {
      printJson(argv.io, { from: result.from, to: result.to, copied: result.copied.length, skipped: result.skipped });
      return;
    }
    const n = result.copied.length;
    argv.io.out(
      `Copied ${n} session${n === 1 ? '' : 's'} from ${escapeControl(result.from)} to ${escapeControl(result.to)}\n`,
    );
    for (const entry of result.skipped)
      argv.io.out(`Skipped (not a valid session): ${escapeControl(entry.id)} (${escapeControl(entry.error)})\n`);
  },
};
