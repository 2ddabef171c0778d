import type { CommandModule } from 'yargs';
import { printJson, sessionsFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
}

export const deleteCommand: CommandModule<GlobalArgs, Args> = {
  command: 'delete <id>',
  describe: 'Delete a session',
  builder: (yargs) =>
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: (argv) => {
    const id = String(argv.id);
    sessionsFor(argv).delete(id);
    if (argv.json) printJson(argv.io, { deleted: true, agent_id: id });
    else argv.io.out(`Deleted session ${id}\n`);
  },
};
