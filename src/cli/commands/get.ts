import type { CommandModule } from 'yargs';
import { printJson, contextFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
}

export const getCommand: CommandModule<GlobalArgs, Args> = {
  command: 'get <id>',
  describe: 'Print a session state as JSON',
  builder: (yargs) =>
    // --json is accepted as every other command takes it; the output is JSON either way.
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    printJson(
      argv.io,
      await contextFor(argv).withSessions(async (sessions) => sessions.get(await sessions.resolveId(String(argv.id)))),
    );
  },
};
