import type { CommandModule } from 'yargs';
import { optionalText } from '../args';
import { SessionError, show } from '../../core/errors';
import { FINAL_PHASES, type FinalPhase } from '../../core/phase-names';
import { printJson, contextFor, textOption, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly outcome: string;
  readonly summary?: string;
  readonly json: boolean;
}

export const finalizeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'finalize <id> <outcome>',
  describe: `End a session: ${FINAL_PHASES.join(' | ')}`,
  builder: (yargs) =>
    withJson(yargs)
      .positional('id', { type: 'string', demandOption: true, describe: 'Session id' })
      .positional('outcome', { type: 'string', demandOption: true, describe: FINAL_PHASES.join(', ') })
      .option('summary', textOption('What the session achieved')) as never,
  handler: async (argv) => {
    const outcome = String(argv.outcome);
    if (!(FINAL_PHASES as readonly string[]).includes(outcome)) {
      throw new SessionError(
        'E_USAGE',
        `Expected \`outcome\` to be one of ${FINAL_PHASES.join(', ')}, got ${show(outcome)}`,
      );
    }
    const summary = optionalText(argv.summary, '--summary');
    const state = await contextFor(argv).withSessions(async (sessions) =>
      sessions.finalize(await sessions.resolveId(String(argv.id)), outcome as FinalPhase, summary),
    );
    if (argv.json) printJson(argv.io, state);
    else argv.io.out(`Finalized session ${state.agent_id}: ${state.phase} after ${state.duration_seconds}s\n`);
  },
};
