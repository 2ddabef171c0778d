import type { CommandModule } from 'yargs';
import { isSessionError } from '../../core/errors';
import type { Sessions } from '../../service/sessions';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

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
    const { decision, limits, now, project } = await contextFor(argv).withSessions(async (sessions) => ({
      decision: await sessions.shouldResume(await resolvedOrAsGiven(sessions, String(argv.id))),
      limits: sessions.limits,
      now: await sessions.now(),
      project: sessions.project,
    }));
    const { should_resume, reason, agent_id, state, problem } = decision;
    argv.io.negative = !should_resume;
    // --explain's modules (the rules' facts, the story's wording with date-fns) are required only for --explain: the
    // plain answer, what scripts ask, needs neither (-2.5 M instructions per call, callgrind).
    const explain = argv.explain ? explainModules() : undefined;
    const checks =
      explain !== undefined && state !== undefined ? explain.explainResume(state, now, limits, project).checks : [];
    if (argv.json) {
      printJson(argv.io, {
        should_resume,
        reason,
        agent_id,
        ...(argv.explain
          ? {
              checks,
              ...(problem === undefined ? {} : { problem }),
              ...(state?.continuation === undefined ? {} : { continuation: state.continuation }),
            }
          : {}),
      });
      return;
    }
    argv.io.out(`${should_resume} ${reason}\n`);
    if (explain === undefined) return;
    // The validation problem names the field's path and the rule, never the file's content.
    const lines =
      problem !== undefined ? [`problem: ${problem}`] : explain.explainLines({ should_resume, reason, checks });
    for (const line of lines) argv.io.out(`  ${escapeControl(line)}\n`);
    // How its agent is carried on: continued with its context, or a fresh one primed, and why (issue 34).
    const continuation = state === undefined ? null : explain.continuationText(state);
    if (continuation !== null) argv.io.out(`  continuation: ${escapeControl(continuation)}\n`);
  },
};

/** What `--explain` needs, required on demand (esbuild initialises a required module on its first require). */
function explainModules(): Pick<typeof import('../../core/views/explain'), 'explainResume'> &
  Pick<typeof import('../story'), 'explainLines' | 'continuationText'> {
  /* eslint-disable @typescript-eslint/no-require-imports -- on demand, see above */
  const { explainResume } = require('../../core/views/explain') as typeof import('../../core/views/explain');
  const { explainLines, continuationText } = require('../story') as typeof import('../story');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { explainResume, explainLines, continuationText };
}

/**
 * The id `text` names (see Sessions.resolveId), or `text` itself when none contains it: the answer is then
 * `session_not_found`, as it always was. A part several ids contain is refused (exit 2).
 */
async function resolvedOrAsGiven(sessions: Sessions, text: string): Promise<string> {
  try {
    return await sessions.resolveId(text);
  } catch (error) {
    if (isSessionError(error, 'E_NOT_FOUND')) return text;
    throw error;
  }
}
