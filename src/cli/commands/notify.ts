import type { CommandModule } from 'yargs';
import { notifyNew } from '../../app/notify';
import { SessionError } from '../../core/errors';
import { ALL_PROJECTS_HELP, contextFor, printJson, withAllProjects, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly 'all-projects': boolean;
  readonly json: boolean;
  readonly quiet: boolean;
}

export const notifyCommand: CommandModule<GlobalArgs, Args> = {
  command: 'notify',
  describe:
    'Tell the `notify` setting (a command or a URL) of each inbox item not told yet: once per item; what hooks and `update` start on their own',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP).option('quiet', {
      type: 'boolean',
      default: false,
      describe: 'Print only failures (as a detached run does, into the log folder’s notify.log)',
    }) as never,
  handler: async (argv) => {
    const context = contextFor(argv);
    const setting = context.config.values.notify;
    if (setting === null)
      throw new SessionError(
        'E_USAGE',
        'Expected the `notify` setting (config file or AGENT_SESSION_NOTIFY) to name a command or a URL (or a list of them), got none',
      );
    const outcomes = await context.withSessions((sessions) =>
      notifyNew(sessions, {
        setting,
        allProjects: argv['all-projects'],
        logDir: context.logDir,
        env: argv.io.env,
      }),
    );
    if (argv.json) {
      printJson(argv.io, outcomes);
      return;
    }
    const at = argv.io.now().toISOString();
    for (const outcome of outcomes) {
      if (outcome.ok && argv.quiet) continue;
      const line = `${at} ${outcome.ok ? 'notified' : 'notify failed'} ${outcome.id} ${escapeControl(outcome.agent)} via ${escapeControl(outcome.target)}: ${escapeControl(outcome.detail)}\n`;
      if (outcome.ok) argv.io.out(line);
      else argv.io.err(line);
    }
    if (outcomes.length === 0 && !argv.quiet) argv.io.out('Nothing new to notify\n');
  },
};
