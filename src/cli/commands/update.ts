import type { CommandModule } from 'yargs';
import { parsePhase } from '../../core/session';
import { parseMetadata } from '../args';
import { printJson, contextFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly phase?: string;
  readonly metadata?: string;
  readonly error?: string;
  readonly json: boolean;
}

export const updateCommand: CommandModule<GlobalArgs, Args> = {
  command: 'update <id>',
  describe: 'Change phase, merge metadata and/or record an error (no option: just mark it active)',
  builder: (yargs) =>
    withJson(yargs)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('phase', { type: 'string', describe: 'New phase' })
      .option('metadata', { type: 'string', describe: 'A JSON object shallow-merged into the metadata' })
      .option('error', { type: 'string', describe: 'Record an error message (adds 1 to error_count)' }) as never,
  handler: async (argv) => {
    const phase = argv.phase === undefined ? undefined : parsePhase(argv.phase);
    const metadata = parseMetadata(argv.metadata);
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.update(String(argv.id), {
        ...(phase ? { phase } : {}),
        ...(metadata ? { metadata } : {}),
        ...(argv.error === undefined ? {} : { error: argv.error }),
      }),
    );
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`Updated session ${state.agent_id}: phase ${state.phase}, errors ${state.error_count}\n`);
  },
};
