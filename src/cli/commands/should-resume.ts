import type { CommandModule } from 'yargs';
import { printJson, contextFor, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
}

export const shouldResumeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'should-resume <id>',
  describe: 'Say whether a session should be resumed, and why (exit 0 yes, 1 no)',
  builder: (yargs) =>
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    const { should_resume, reason, agent_id } = await contextFor(argv).withSessions((sessions) =>
      sessions.shouldResume(String(argv.id)),
    );
    argv.io.negative = !should_resume;
    if (argv.json) printJson(argv.io, { should_resume, reason, agent_id });
    else argv.io.out(`${should_resume} ${reason}\n`);
  },
};
