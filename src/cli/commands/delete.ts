import type { CommandModule } from 'yargs';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
}

export const deleteCommand: CommandModule<GlobalArgs, Args> = {
  command: 'delete <id>',
  describe: 'Delete a session',
  builder: (yargs) =>
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    const id = await contextFor(argv).withSessions(async (sessions) => {
      const resolved = await sessions.resolveId(String(argv.id));
      await sessions.delete(resolved);
      return resolved;
    });
    if (argv.json) printJson(argv.io, { deleted: true, agent_id: id });
    else argv.io.out(`Deleted session ${id}\n`);
  },
};
