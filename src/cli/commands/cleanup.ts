import { SessionError } from '../../core/errors';
import { counted } from '../../core/plural';
import type { CommandModule } from 'yargs';
import { parseHours } from '../args';
import { contextFor, printJson, withAllProjects, withJson, type GlobalArgs } from '../context';
import { numberTextOption } from '../options';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly hours?: string;
  readonly 'dry-run': boolean;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const cleanupCommand: CommandModule<GlobalArgs, Args> = {
  command: 'cleanup',
  describe:
    'Remove sessions idle for more than --hours (any phase) and corrupt ones that old, never what agent-session did not make; ' +
    'abandon sessions a stopped Claude agent left initializing',
  builder: (yargs) =>
    withAllProjects(
      withJson(yargs),
      "Every project's sessions (and those of none), not only this project's; leftovers and corrupt entries either way",
    )
      .option(
        'hours',
        numberTextOption('Idle time in hours, fractions allowed (default: cleanup_hours of the config, 24)'),
      )
      .option('dry-run', { type: 'boolean', default: false, describe: 'Only say what would be removed' }) as never,
  handler: async (argv) => {
    const context = contextFor(argv);
    const config = context.config.values;
    const hours = argv.hours === undefined ? config.cleanup_hours : parseHours(argv.hours);
    const dryRun = argv['dry-run'];
    const result = await context.withSessions((sessions) =>
      sessions.cleanup({ hours, dryRun, allProjects: argv['all-projects'] }),
    );
    if (argv.json) {
      printJson(argv.io, {
        dry_run: dryRun,
        hours,
        removed: result.removed,
        corrupt_removed: result.corruptRemoved,
        leftovers_removed: result.leftovers,
        abandoned: result.abandoned,
        failed: result.failed,
        clock_ahead: result.clockAhead,
        not_ours: result.notOurs,
      });
    } else {
      const verb = dryRun ? 'Would remove' : 'Removed';
      // Every entry removed is named: a count alone hid which folders went.
      const named = (ids: readonly string[]): string =>
        ids.length === 0 ? '' : `: ${ids.map(escapeControl).join(', ')}`;
      // A session removed because its clock is ahead was not idle: it is named apart, never counted as idle.
      const ahead = new Set(result.clockAhead);
      const idle = result.removed.filter((id) => !ahead.has(id));
      const n = idle.length;
      argv.io.out(`${verb} ${n} session${n === 1 ? '' : 's'} idle for more than ${hours}h${named(idle)}\n`);
      const corrupt = result.corruptRemoved.length;
      if (corrupt > 0)
        argv.io.out(
          `${verb} ${corrupt} corrupt session${corrupt === 1 ? '' : 's'} whose files are older than ${hours}h${named(result.corruptRemoved)}\n`,
        );
      if (result.clockAhead.length > 0) {
        const n = result.clockAhead.length;
        argv.io.out(
          `${verb} ${n} session${n === 1 ? '' : 's'} with the clock ahead (last updated more than ${hours}h after the store's clock)${named(result.clockAhead)}\n`,
        );
      }
      if (result.abandoned.length > 0) {
        const count = `${result.abandoned.length} session${result.abandoned.length === 1 ? '' : 's'}`;
        const verbAbandon = dryRun ? 'Would abandon' : 'Abandoned';
        const ids = result.abandoned.join(', ');
        argv.io.out(
          `${verbAbandon} ${count} left initializing by a Claude Code agent that stopped or went idle: ${ids}\n`,
        );
      }
      // Loose files of the store root may carry any name (control characters too): escaped, as every human output.
      for (const entry of result.notOurs)
        argv.io.out(`Not ours, left alone: ${escapeControl(entry.id)} (${entry.reason})\n`);
    }
    if (result.failed.length > 0) {
      // Everything else was cleaned; exit 5 so cron notices the sessions left for the next run.
      const first = result.failed[0]!;
      throw new SessionError(
        'E_IO',
        `Could not remove ${counted(result.failed.length, 'stale session')}, e.g. \`${first.id}\`: ${first.error}`,
      );
    }
  },
};
