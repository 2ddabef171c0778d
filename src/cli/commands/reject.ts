import type { CommandModule } from 'yargs';
import { deciderText, lastDecision, parseRejectTarget, REJECT_TARGETS } from '../../core/decision';
import { optionalText, requireText } from '../args';
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
  readonly reason?: string;
  readonly to: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const rejectCommand: CommandModule<GlobalArgs, Args> = {
  command: 'reject <id>',
  describe: 'Reject a session waiting in approval: record the reason and send it back to planning (or end it)',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), DECIDE_ALL_PROJECTS_HELP)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('by', textOption(BY_HELP))
      .option('reason', textOption('Why (the agent is told)', { demandOption: true }))
      .option('to', {
        type: 'string',
        requiresArg: true,
        default: 'planning',
        describe: `Where the session goes: ${REJECT_TARGETS.join(' | ')} (abandoned ends it)`,
      }) as never,
  handler: async (argv) => {
    const reason = requireText(argv.reason, '--reason');
    const to = parseRejectTarget(argv.to);
    const by = optionalText(argv.by, '--by');
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.reject(
        String(argv.id),
        { ...(by === undefined ? {} : { by }), reason, to },
        { allProjects: argv['all-projects'] },
      ),
    );
    if (argv.json) printJson(argv.io, state);
    else {
      const decider = deciderText(lastDecision(state)!);
      argv.io.out(`Rejected session ${state.agent_id} by ${escapeControl(decider)}: phase ${state.phase}\n`);
    }
  },
};
