import type { CommandModule } from 'yargs';
import { optionalText } from '../args';
import { contextFor, printJson, textOption, withJson, type GlobalArgs } from '../context';
import { deciderOf } from '../decider';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly by?: string;
  readonly note?: string;
  readonly json: boolean;
}

export const approveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'approve <id>',
  describe: 'Approve a session waiting in approval: record the decision and move it to executing (one write)',
  builder: (yargs) =>
    withJson(yargs)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('by', textOption('Who decides (default: $USER, else $LOGNAME)'))
      .option('note', textOption('A note kept with the decision')) as never,
  handler: async (argv) => {
    const note = optionalText(argv.note, '--note');
    const by = deciderOf(argv.by, argv.io.env);
    const input = { by, ...(note === undefined ? {} : { note }) };
    const state = await contextFor(argv).withSessions((sessions) => sessions.approve(String(argv.id), input));
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`Approved session ${state.agent_id} by ${escapeControl(by)}: phase ${state.phase}\n`);
  },
};
