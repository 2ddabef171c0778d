import type { CommandModule } from 'yargs';
import { sessionsFor, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
}

export const deleteCommand: CommandModule<GlobalArgs, Args> = {
  command: 'delete <id>',
  describe: 'Delete a session',
  builder: (yargs) => yargs.positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: (argv) => {
    const id = String(argv.id);
    sessionsFor(argv).delete(id);
    argv.io.out(`Deleted session ${id}\n`);
  },
};
