import type { CommandModule } from 'yargs';
import { parseRejectTarget, REJECT_TARGETS } from '../../core/decision';
import { requireText } from '../args';
import { contextFor, printJson, textOption, withJson, type GlobalArgs } from '../context';
import { deciderOf } from '../decider';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly by?: string;
  readonly reason?: string;
  readonly to: string;
  readonly json: boolean;
}

export const rejectCommand: CommandModule<GlobalArgs, Args> = {
  command: 'reject <id>',
  describe: 'Reject a session waiting in approval: record the reason and send it back to planning (or end it)',
  builder: (yargs) =>
    withJson(yargs)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .option('by', textOption('Who decides (default: $USER, else $LOGNAME)'))
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
    const by = deciderOf(argv.by, argv.io.env);
    const state = await contextFor(argv).withSessions((sessions) =>
      sessions.reject(String(argv.id), { by, reason, to }),
    );
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`Rejected session ${state.agent_id} by ${escapeControl(by)}: phase ${state.phase}\n`);
  },
};
