import type { CommandModule } from 'yargs';
import { isInterrupted } from '../../core/interruption';
import { hostOf } from '../../core/host';
import { pendingPermission } from '../../core/permission';
import { summarize } from '../../core/state';
import { optionalText } from '../args';
import {
  ALL_PROJECTS_HELP,
  colourFor,
  printJson,
  contextFor,
  textOption,
  unassignedNote,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { renderTable } from '../format';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly 'active-only': boolean;
  readonly agent?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const listCommand: CommandModule<GlobalArgs, Args> = {
  command: 'list',
  describe: "List this project's sessions, most recently active first",
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP)
      .option('active-only', { type: 'boolean', default: false, describe: 'Only sessions not in a final phase' })
      .option('agent', textOption('Only this agent’s sessions')) as never,
  handler: async (argv) => {
    // An empty --agent is a mistake (no agent has that name), exit 2 as every other empty text.
    const agent = optionalText(argv.agent, '--agent');
    const filtered = argv['active-only'] || agent !== undefined;
    const allProjects = argv['all-projects'];
    const { entries, unassigned } = await contextFor(argv).withSessions((sessions) =>
      sessions.listing({ activeOnly: argv['active-only'], allProjects, ...(agent === undefined ? {} : { agent }) }),
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
                project: entry.state.project ?? null,
                host: hostOf(entry.state),
                interrupted: isInterrupted(entry.state),
                permission_pending: entry.state.phase === 'approval' && pendingPermission(entry.state) !== null,
                resumable_now: entry.resumable,
                resume_reason: entry.reason,
                clock_ahead: entry.clockAhead,
              }
            : { agent_id: entry.id, corrupt: true, error: entry.error },
        ),
      );
      unassignedNote(argv.io, unassigned);
      return;
    }
    argv.io.out(
      shown.length === 0
        ? 'No sessions found\n'
        : `${renderTable(shown, argv.io.now(), colourFor(argv.io), allProjects)}\n`,
    );
    unassignedNote(argv.io, unassigned);
  },
};
