import type { CommandModule } from 'yargs';
import { isInterrupted } from '../../core/interruption';
import { hostOf } from '../../core/host';
import { pendingPermission } from '../../core/permission';
import { summarize } from '../../core/state';
import { taskLine } from '../../core/task';
import { optionalText, parseLimit } from '../args';
import {
  ALL_PROJECTS_HELP,
  colourFor,
  printJson,
  contextFor,
  fileStoreNote,
  textOption,
  unassignedNote,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { outputWidth, renderTable } from '../format';
import { numberTextOption } from '../options';
import { PHASES } from '../../core/phase-names';
import { parsePhase } from '../../core/session';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly 'active-only': boolean;
  readonly agent?: string;
  readonly phase?: string;
  readonly limit?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const listCommand: CommandModule<GlobalArgs, Args> = {
  command: 'list',
  describe: "List this project's sessions, most recently active first",
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP)
      .option('active-only', { type: 'boolean', default: false, describe: 'Only sessions not in a final phase' })
      .option('agent', textOption('Only this agent’s sessions'))
      .option('phase', textOption(`Only sessions in this phase (${PHASES.join(', ')})`))
      .option('limit', numberTextOption('At most N sessions, the most recently active')) as never,
  handler: async (argv) => {
    // An empty --agent is a mistake (no agent has that name), exit 2 as every other empty text.
    const agent = optionalText(argv.agent, '--agent');
    const phase = argv.phase === undefined ? undefined : parsePhase(argv.phase, '--phase');
    const limit = argv.limit === undefined ? undefined : parseLimit(argv.limit);
    const filtered = argv['active-only'] || agent !== undefined || phase !== undefined;
    const allProjects = argv['all-projects'];
    const context = contextFor(argv);
    const { entries, unassigned } = await context.withSessions((sessions) =>
      sessions.listing({
        activeOnly: argv['active-only'],
        allProjects,
        ...(agent === undefined ? {} : { agent }),
        ...(phase === undefined ? {} : { phases: [phase] }),
        ...(limit === undefined ? {} : { limit }),
      }),
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
                task: taskLine(entry.state.task),
              }
            : { agent_id: entry.id, corrupt: true, error: entry.error },
        ),
      );
      unassignedNote(argv.io, unassigned);
      if (entries.length === 0) fileStoreNote(argv.io, context);
      return;
    }
    argv.io.out(
      shown.length === 0
        ? 'No sessions found\n'
        : `${renderTable(shown, argv.io.now(), colourFor(argv.io), allProjects, outputWidth(argv.io))}\n`,
    );
    unassignedNote(argv.io, unassigned);
    if (entries.length === 0) fileStoreNote(argv.io, context);
  },
};
