import type { CommandModule } from 'yargs';
import { parseMetadata, requireText } from '../args';
import { printJson, contextFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly agent: string;
  readonly purpose: string;
  readonly metadata?: string;
  readonly id?: string;
  readonly json: boolean;
}

export const createCommand: CommandModule<GlobalArgs, Args> = {
  command: 'create',
  describe: 'Create a session and print its id',
  builder: (yargs) =>
    withJson(yargs)
      .option('agent', { type: 'string', demandOption: true, describe: 'Agent name, e.g. terraform-architect' })
      .option('purpose', {
        type: 'string',
        demandOption: true,
        describe: 'Why the session exists, e.g. approval_workflow',
      })
      .option('metadata', { type: 'string', describe: 'A JSON object stored with the session' })
      .option('id', { type: 'string', describe: 'Choose the id instead of generating one' }) as never,
  handler: async (argv) => {
    const agent = requireText(argv.agent, '--agent');
    const purpose = requireText(argv.purpose, '--purpose');
    const metadata = parseMetadata(argv.metadata);
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.create({
        agent_name: agent,
        purpose,
        ...(metadata ? { metadata } : {}),
        ...(argv.id === undefined ? {} : { id: argv.id }),
      }),
    );
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`${state.agent_id}\n`);
  },
};
