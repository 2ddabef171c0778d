import type { CommandModule } from 'yargs';
import { printJson, contextFor, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
}

export const getCommand: CommandModule<GlobalArgs, Args> = {
  command: 'get <id>',
  describe: 'Print a session state as JSON',
  builder: (yargs) => yargs.positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    printJson(argv.io, await contextFor(argv).withSessions((sessions) => sessions.get(String(argv.id))));
  },
};
