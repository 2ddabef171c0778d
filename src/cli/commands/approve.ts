import type { CommandModule } from 'yargs';
import { deciderText, lastDecision } from '../../core/decision';
import { optionalText } from '../args';
import {
  BY_HELP,
  contextFor,
  DECIDE_ALL_PROJECTS_HELP,
  printJson,
  textOption,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly by?: string;
  readonly note?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const approveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'approve <id>',
  describe: 'Approve a session waiting in approval: record the decision and move it to executing (one write)',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), DECIDE_ALL_PROJECTS_HELP)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('by', textOption(BY_HELP))
      .option('note', textOption('A note kept with the decision')) as never,
  handler: async (argv) => {
    const note = optionalText(argv.note, '--note');
    const by = optionalText(argv.by, '--by');
    const input = { ...(by === undefined ? {} : { by }), ...(note === undefined ? {} : { note }) };
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.approve(String(argv.id), input, { allProjects: argv['all-projects'] }),
    );
    if (argv.json) printJson(argv.io, state);
    else {
      const decider = deciderText(lastDecision(state)!);
      argv.io.out(`Approved session ${state.agent_id} by ${escapeControl(decider)}: phase ${state.phase}\n`);
    }
  },
};
