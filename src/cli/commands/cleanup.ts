import { retryWatchdogOn } from '../../app/retry-watchdog';
import { SessionError } from '../../core/errors';
import { counted } from '../../core/plural';
import type { CommandModule } from 'yargs';
import { parseHours } from '../args';
import { parseDays } from '../../core/retention';
import { contextFor, printJson, withAllProjects, withJson, type CliIo, type GlobalArgs } from '../context';
import type { CleanupResult } from '../../service/sessions';
import { numberTextOption } from '../options';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly hours?: string;
  readonly 'older-than'?: string;
  readonly 'dry-run': boolean;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const cleanupCommand: CommandModule<GlobalArgs, Args> = {
  command: 'cleanup',
  describe:
    'Remove sessions idle for more than --hours or --older-than days (any phase) and corrupt ones that old, never what ' +
    'agent-session did not make; the oldest finished ones above max_sessions; abandon sessions a stopped Claude agent ' +
    'left initializing',
  builder: (yargs) =>
    withAllProjects(
      withJson(yargs),
      "Every project's sessions (and those of none), not only this project's; leftovers and corrupt entries either way",
    )
      .option(
        'hours',
        numberTextOption('Idle time in hours, fractions allowed (default: cleanup_hours of the config, 24)'),
      )
      .option('older-than', numberTextOption('Idle time in days, fractions allowed (instead of --hours)'))
      .option('dry-run', { type: 'boolean', default: false, describe: 'Only say what would be removed' }) as never,
  handler: async (argv) => {
    const context = contextFor(argv);
    const config = context.config.values;
    const hours = horizonHours(argv, config.cleanup_hours);
    const dryRun = argv['dry-run'];
    // Progress on a terminal's stderr only (a cron's log, a pipe, --json get none): one line, rewritten in place.
    const progress = argv.io.errIsTTY === true ? progressLine(argv.io, dryRun) : undefined;
    let result;
    try {
      result = await context.withSessions((sessions) =>
        sessions.cleanup({
          hours,
          dryRun,
          allProjects: argv['all-projects'],
          // A sub-agent sleeping through a usage limit under Claude Code's unattended retry is not taken for dead.
          retryWatchdog: retryWatchdogOn(context.env, context.root, context.cwd),
          maxSessions: config.max_sessions,
          ...(progress === undefined ? {} : { onProgress: progress.report }),
        }),
      );
    } finally {
      progress?.done();
    }
    if (argv.json) {
      printJson(argv.io, {
        dry_run: dryRun,
        hours,
        removed: result.removed,
        corrupt_removed: result.corruptRemoved,
        leftovers_removed: result.leftovers,
        leftover_paths: result.leftoverPaths,
        abandoned: result.abandoned,
        failed: result.failed,
        clock_ahead: result.clockAhead,
        not_ours: result.notOurs,
        max_sessions: config.max_sessions,
        capped: result.capped,
      });
    } else {
      const verb = dryRun ? 'Would remove' : 'Removed';
      // Every entry removed is named, one a line (100,000 stale sessions are 100,000 short lines, never one of 3 MB),
      // under a headline that says how many and why; a dry run names exactly what the real run would remove.
      let named = 0;
      const group = (headline: string, items: readonly string[]): void => {
        argv.io.out(`${headline}${items.length === 0 ? '' : ':'}\n`);
        // Written a thousand lines at a time: 100,000 lines are 100 writes, not 100,000.
        for (let start = 0; start < items.length; start += 1000)
          argv.io.out(
            items
              .slice(start, start + 1000)
              .map((item) => `  ${escapeControl(item)}\n`)
              .join(''),
          );
        named += items.length;
      };
      // A session removed because its clock is ahead was not idle: it is named apart, never counted as idle.
      const ahead = new Set(result.clockAhead);
      const idle = result.removed.filter((id) => !ahead.has(id));
      group(`${verb} ${counted(idle.length, 'session')} idle for more than ${hours}h`, idle);
      if (result.clockAhead.length > 0)
        group(
          `${verb} ${counted(result.clockAhead.length, 'session')} with the clock ahead (last updated more than ${hours}h after the store's clock)`,
          result.clockAhead,
        );
      if (result.corruptRemoved.length > 0)
        group(
          `${verb} ${counted(result.corruptRemoved.length, 'corrupt session')} whose files are older than ${hours}h`,
          result.corruptRemoved,
        );
      if (result.abandoned.length > 0)
        group(
          `${dryRun ? 'Would abandon' : 'Abandoned'} ${counted(result.abandoned.length, 'session')} left initializing by a Claude Code agent that stopped or went idle`,
          result.abandoned,
        );
      if (result.capped.length > 0)
        group(
          `${verb} ${counted(result.capped.length, 'finished session')} above max_sessions (${config.max_sessions}), oldest first`,
          result.capped,
        );
      if (result.leftoverPaths.length > 0)
        group(
          `${verb} ${counted(result.leftoverPaths.length, 'leftover')} of killed writers (temp files, dead locks, half-made folders, pointers of sessions gone)`,
          result.leftoverPaths,
        );
      // Loose files of the store root may carry any name (control characters too): escaped, as every human output.
      for (const entry of result.notOurs)
        argv.io.out(`Not ours, left alone: ${escapeControl(entry.id)} (${entry.reason})\n`);
      // A long list has scrolled its headlines away: the figures again, last.
      if (named > SUMMARY_AFTER) argv.io.out(`${summary(result, dryRun)}\n`);
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

// --- internal ---

/**
 * The idle horizon in hours: `--hours`, or `--older-than` days, else the config's; never both.
 * @throws SessionError E_USAGE when both are given, or one is not a number of hours (days), 0 or more
 */
function horizonHours(argv: Args, configured: number): number {
  const days = argv['older-than'];
  if (days !== undefined && argv.hours !== undefined)
    throw new SessionError(
      'E_USAGE',
      `Expected either \`--hours\` or \`--older-than\`, not both, got \`--hours ${argv.hours}\` and \`--older-than ${days}\``,
    );
  if (days !== undefined) return parseDays(days);
  return argv.hours === undefined ? configured : parseHours(argv.hours);
}

/** Entries named beyond which the output ends with a summary line. */
const SUMMARY_AFTER = 20;

/** The closing line of a long output: how many of each, and how many failed. */
function summary(result: CleanupResult, dryRun: boolean): string {
  const parts = [
    counted(result.removed.length, 'session'),
    ...(result.capped.length > 0 ? [counted(result.capped.length, 'finished session above max_sessions')] : []),
    ...(result.corruptRemoved.length > 0 ? [counted(result.corruptRemoved.length, 'corrupt session')] : []),
    ...(result.leftovers > 0 ? [counted(result.leftovers, 'leftover')] : []),
  ];
  const abandoned =
    result.abandoned.length > 0 ? `, ${dryRun ? 'would abandon' : 'abandoned'} ${result.abandoned.length}` : '';
  const failed = result.failed.length > 0 ? `; ${result.failed.length} could not be removed (see below)` : '';
  return `In all: ${dryRun ? 'would remove' : 'removed'} ${parts.join(', ')}${abandoned}${failed}`;
}

/** A progress line on stderr (a terminal): rewritten in place at most every 100 ms, cleared when done. */
function progressLine(io: CliIo, dryRun: boolean): { report: (done: number, total: number) => void; done: () => void } {
  let shownAt = 0;
  let shown = false;
  return {
    report: (done, total) => {
      const now = Date.now();
      if (now - shownAt < 100 && done < total) return;
      shownAt = now;
      shown = true;
      io.err(`\r${dryRun ? 'Checked' : 'Removed'} ${done} of ${counted(total, 'stale session')}…\x1b[K`);
    },
    done: () => {
      if (shown) io.err('\r\x1b[K');
    },
  };
}
