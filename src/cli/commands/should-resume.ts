import type { CommandModule } from 'yargs';
import { explainResume } from '../../core/explain';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';
import { explainLines } from '../story';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
  readonly explain: boolean;
}

export const shouldResumeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'should-resume <id>',
  describe: 'Say whether a session should be resumed, and why (exit 0 yes, 1 no)',
  builder: (yargs) =>
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }).option('explain', {
      type: 'boolean',
      default: false,
      describe: 'Also print each rule with its facts (idle time, errors, clock) and limits',
    }) as never,
  handler: async (argv) => {
    const { decision, limits, now } = await contextFor(argv).withSessions(async (sessions) => ({
      decision: await sessions.shouldResume(String(argv.id)),
      limits: sessions.limits,
      now: await sessions.now(),
    }));
    const { should_resume, reason, agent_id, state, problem } = decision;
    argv.io.negative = !should_resume;
    const checks = argv.explain && state !== undefined ? explainResume(state, now, limits).checks : [];
    if (argv.json) {
      printJson(argv.io, {
        should_resume,
        reason,
        agent_id,
        ...(argv.explain ? { checks, ...(problem === undefined ? {} : { problem }) } : {}),
      });
      return;
    }
    argv.io.out(`${should_resume} ${reason}\n`);
    if (!argv.explain) return;
    // The validation problem names the field's path and the rule, never the file's content.
    const lines = problem !== undefined ? [`problem: ${problem}`] : explainLines({ should_resume, reason, checks });
    for (const line of lines) argv.io.out(`  ${escapeControl(line)}\n`);
  },
};
