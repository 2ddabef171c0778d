import type { CommandModule } from 'yargs';
import { optionalText } from '../args';
import { escapeControl } from '../text';
import { toExport } from '../../core/transfer';
import { writeExportFile } from '../transfer-file';
import { printJson, contextFor, textOption, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly out?: string;
  readonly force: boolean;
}

export const exportCommand: CommandModule<GlobalArgs, Args> = {
  command: 'export <id>',
  describe: 'Print a session as a versioned export document ({format: "agent-session/1", exported_at, session})',
  builder: (yargs) =>
    yargs
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('out', textOption('Write to this new file instead of stdout (an existing one is refused: exit 4)'))
      .option('force', { type: 'boolean', default: false, describe: 'With --out: replace an existing file' }) as never,
  handler: async (argv) => {
    const out = optionalText(argv.out, '--out');
    const state = await contextFor(argv).withSessions(async (sessions) =>
      sessions.get(await sessions.resolveId(String(argv.id))),
    );
    const document = toExport(state, argv.io.now());
    if (out === undefined) {
      printJson(argv.io, document);
      return;
    }
    writeExportFile(out, document, argv.force);
    argv.io.out(`Exported session ${document.session.agent_id} to ${escapeControl(out)}\n`);
  },
};
