import type { CommandModule } from 'yargs';
import { contextFor, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
}

export const deleteCommand: CommandModule<GlobalArgs, Args> = {
  command: 'delete <id>',
  describe: 'Delete a session',
  builder: (yargs) => yargs.positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    const id = String(argv.id);
    await contextFor(argv).withSessions((sessions) => sessions.delete(id));
    argv.io.out(`Deleted session ${id}\n`);
  },
};
