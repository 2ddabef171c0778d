import type { CommandModule } from 'yargs';
import { resolveFrom } from '../../platform/working-directory';
import { readExportFile } from '../transfer-file';
import { printJson, contextFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly file: string;
  readonly 'new-id': boolean;
  readonly json: boolean;
}

export const importCommand: CommandModule<GlobalArgs, Args> = {
  command: 'import <file>',
  describe: 'Import an exported session; an existing id is refused unless --new-id, and nothing is overwritten',
  builder: (yargs) =>
    withJson(yargs)
      .positional('file', { type: 'string', demandOption: true, describe: 'An export document; - reads stdin' })
      .option('new-id', { type: 'boolean', default: false, describe: 'Store it under a new generated id' }) as never,
  handler: async (argv) => {
    const document = readExportFile(String(argv.file), argv.io.stdin ?? 0);
    // Where its decisions came from, as they will say: the file's full path.
    const file = String(argv.file);
    const from = file === '-' ? 'stdin' : resolveFrom(argv.io.cwd, file, '`<file>`');
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.importSession(document.session, { newId: argv['new-id'], from }),
    );
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`${state.agent_id}\n`);
  },
};
