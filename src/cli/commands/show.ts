import type { CommandModule } from 'yargs';
import { explainResume } from '../../core/views/explain';
import { timelineOf } from '../../core/views/timeline';
import { renderStory } from '../story';
import { outputWidth } from '../format';
import { colourFor, contextFor, printJson, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly id: string;
  readonly json: boolean;
}

export const showCommand: CommandModule<GlobalArgs, Args> = {
  command: 'show <id>',
  describe:
    "A session's story: agent, purpose, phase, whether it would resume now and why, metadata, timeline, decisions",
  builder: (yargs) =>
    withJson(yargs).positional('id', { type: 'string', demandOption: true, describe: 'Session id' }) as never,
  handler: async (argv) => {
    // A corrupt session throws E_CORRUPT here (exit 4): the message names the field's path, never the file's text.
    // The store's clock, which the service judges by: the explanation agrees with `should-resume`.
    const { state, limits, now, project } = await contextFor(argv).withSessions(async (sessions) => ({
      state: await sessions.get(await sessions.resolveId(String(argv.id))),
      limits: sessions.limits,
      now: await sessions.now(),
      project: sessions.project,
    }));
    // Judged for this project: another project's session is never resumed here, as should-resume says.
    const resume = explainResume(state, now, limits, project);
    const timeline = timelineOf(state, now);
    if (argv.json) {
      printJson(argv.io, { session: state, resume, timeline });
      return;
    }
    argv.io.out(renderStory(state, resume, timeline, now, limits, colourFor(argv.io), outputWidth(argv.io)));
  },
};
