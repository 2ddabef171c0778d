import type { CommandModule } from 'yargs';
import { readMetadata, requireText } from '../args';
import { METADATA_HELP, printJson, contextFor, textOption, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly agent: string;
  readonly purpose: string;
  readonly metadata?: string | string[];
  readonly id?: string;
  readonly json: boolean;
}

export const createCommand: CommandModule<GlobalArgs, Args> = {
  command: 'create',
  describe: 'Create a session and print its id',
  builder: (yargs) =>
    withJson(yargs)
      .option('agent', textOption('Agent name, e.g. terraform-architect', { demandOption: true }))
      .option('purpose', textOption('Why the session exists, e.g. approval_workflow', { demandOption: true }))
      .option('metadata', textOption(`Metadata stored with the session: ${METADATA_HELP}`))
      .option('id', textOption('Choose the id instead of generating one')) as never,
  handler: async (argv) => {
    const agent = requireText(argv.agent, '--agent');
    const purpose = requireText(argv.purpose, '--purpose');
    const metadata = readMetadata(argv.metadata, argv.io.stdin ?? 0);
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
