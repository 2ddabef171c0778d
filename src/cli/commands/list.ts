import type { CommandModule } from 'yargs';
import { isInterrupted } from '../../core/interruption';
import { summarize } from '../../core/state';
import { optionalText } from '../args';
import { colourFor, printJson, contextFor, textOption, withJson, type GlobalArgs } from '../context';
import { renderTable } from '../format';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly 'active-only': boolean;
  readonly agent?: string;
  readonly json: boolean;
}

export const listCommand: CommandModule<GlobalArgs, Args> = {
  command: 'list',
  describe: 'List sessions, most recently active first',
  builder: (yargs) =>
    withJson(yargs)
      .option('active-only', { type: 'boolean', default: false, describe: 'Only sessions not in a final phase' })
      .option('agent', textOption('Only this agent’s sessions')) as never,
  handler: async (argv) => {
    // An empty --agent is a mistake (no agent has that name), exit 2 as every other empty text.
    const agent = optionalText(argv.agent, '--agent');
    const filtered = argv['active-only'] || agent !== undefined;
    const entries = await contextFor(argv).withSessions((sessions) =>
      sessions.list({ activeOnly: argv['active-only'], ...(agent === undefined ? {} : { agent }) }),
    );
    // A corrupt session's phase and agent are unknown: shown in a full listing, left out (with a warning) of a filtered one.
    const shown = filtered ? entries.filter((entry) => entry.kind === 'valid') : entries;
    for (const entry of entries) {
      if (entry.kind !== 'corrupt') continue;
      argv.io.err(
        `warning: ${filtered ? 'skipped ' : ''}corrupt session ${escapeControl(`${entry.id}: ${entry.error}`)}\n`,
      );
    }
    if (argv.json) {
      printJson(
        argv.io,
        shown.map((entry) =>
          entry.kind === 'valid'
            ? {
                ...summarize(entry.state),
                interrupted: isInterrupted(entry.state),
                resumable_now: entry.resumable,
                resume_reason: entry.reason,
                clock_ahead: entry.clockAhead,
              }
            : { agent_id: entry.id, corrupt: true, error: entry.error },
        ),
      );
      return;
    }
    argv.io.out(
      shown.length === 0 ? 'No sessions found\n' : `${renderTable(shown, argv.io.now(), colourFor(argv.io))}\n`,
    );
  },
};
