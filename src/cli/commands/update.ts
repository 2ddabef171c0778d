import type { CommandModule } from 'yargs';
import { parsePhase } from '../../core/session';
import { readMetadata, optionalText } from '../args';
import { METADATA_HELP, printJson, contextFor, textOption, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly phase?: string;
  readonly metadata?: string | string[];
  readonly error?: string;
  readonly json: boolean;
}

export const updateCommand: CommandModule<GlobalArgs, Args> = {
  command: 'update <id>',
  describe: 'Change phase, merge metadata and/or record an error (no option: just mark it active)',
  builder: (yargs) =>
    withJson(yargs)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('phase', textOption('New phase'))
      .option('metadata', textOption(`Shallow-merged into the metadata: ${METADATA_HELP}`))
      .option('error', textOption('Record an error message (adds 1 to error_count)')) as never,
  handler: async (argv) => {
    const phase = argv.phase === undefined ? undefined : parsePhase(argv.phase);
    // An empty message records an error nobody can read: refused, as every other empty text.
    const error = optionalText(argv.error, '--error');
    const metadata = readMetadata(argv.metadata, argv.io.stdin ?? 0);
    const context = contextFor(argv);
    const state = await context.withSessions(async (sessions) =>
      sessions.update(await sessions.resolveId(String(argv.id)), {
        ...(phase ? { phase } : {}),
        ...(metadata ? { metadata } : {}),
        ...(error === undefined ? {} : { error }),
      }),
    );
    // Parked in approval: whoever the `notify` setting names is told, by a detached process (never this command's time).
    const notify = context.config.values.notify;
    if (phase === 'approval' && notify !== null && argv.io.binDir !== undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- only an update into approval with notify set
      const { notifyDetached } = require('../../app/notify') as typeof import('../../app/notify');
      notifyDetached(context, argv.io.binDir, storeArgs(argv));
    }
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`Updated session ${state.agent_id}: phase ${state.phase}, errors ${state.error_count}\n`);
  },
};

/** The store options of this call, for the detached notifier (the same store as this command's). */
function storeArgs(argv: GlobalArgs): string[] {
  return [
    ...(argv.dir === undefined ? [] : ['--dir', argv.dir]),
    ...(argv['database-url'] === undefined ? [] : ['--database-url', argv['database-url']]),
  ];
}
