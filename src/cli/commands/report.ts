import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { SessionError, isSessionError } from '../../core/errors';
import { renderReport } from '../../core/views/report/html';
import { counted } from '../../core/plural';
import { parseSince } from '../../core/views/stats';
import { writeOutputFile } from '../../platform/output-file';
import { ensurePrivateDir, markIgnored } from '../../platform/private-fs';
import { optionalText } from '../args';
import { ALL_PROJECTS_HELP, contextFor, textOption, withAllProjects, type GlobalArgs } from '../context';
import { validStates } from '../listing';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly since?: string;
  readonly out?: string;
  readonly force: boolean;
  readonly 'all-projects': boolean;
}

export const reportCommand: CommandModule<GlobalArgs, Args> = {
  command: 'report',
  describe: 'One self-contained HTML page: figures, outcome chart, approval inbox, a timeline lane per session',
  builder: (yargs) =>
    withAllProjects(yargs, ALL_PROJECTS_HELP)
      .option(
        'since',
        textOption('Only sessions created in this window (30m, 24h, 7d) or since an ISO time, as `stats --since`'),
      )
      .option(
        'out',
        textOption(
          'Write to this new file (never overwritten), or `-` for stdout; default: report.html in the log folder ' +
            '(.claude/logs/, out of git), replaced each time',
        ),
      )
      .option('force', { type: 'boolean', default: false, describe: 'With --out: replace an existing file' }) as never,
  handler: async (argv) => {
    // --since is checked before the store is opened (a bad value writes nothing); the figures use the store's clock.
    const out = optionalText(argv.out, '--out');
    const since = argv.since === undefined ? undefined : parseSince(argv.since, argv.io.now());
    const allProjects = argv['all-projects'];
    const context = contextFor(argv);
    const { entries, limits, now, project } = await context.withSessions(async (sessions) => ({
      entries: await sessions.list({ allProjects }),
      limits: sessions.limits,
      now: await sessions.now(),
      project: sessions.project,
    }));
    const states = validStates(entries, argv.io);
    const corrupt = entries.length - states.length;
    const html = renderReport({
      states,
      now,
      limits,
      corrupt,
      project: allProjects ? null : project,
      ...(since === undefined ? {} : { since }),
    });
    if (out === '-') {
      argv.io.out(html);
      return;
    }
    // Without --out: a page in a terminal is no use, and a file in the working folder would show in git status.
    const path = out ?? join(reportFolder(context.logDir), 'report.html');
    writeOutputFile(path, html, out === undefined || argv.force);
    argv.io.out(
      `Wrote the report of ${counted(states.length, 'session')} to ${escapeControl(path)} (${Buffer.byteLength(html)} bytes)` +
        `${out === undefined ? `: open file://${escapeControl(path)} in a browser` : ''}\n`,
    );
  },
};

/**
 * The log folder, made private and out of git as the hooks make it, for the default report. Its parent (the project's
 * `.claude/`) must exist: a store named outside any project has no such folder, and then `--out` is needed.
 * @throws SessionError E_USAGE without one
 */
function reportFolder(logDir: string): string {
  try {
    if (ensurePrivateDir(logDir)) markIgnored(logDir);
  } catch (error) {
    if (isSessionError(error, 'E_NOT_FOUND'))
      throw new SessionError(
        'E_USAGE',
        `Expected \`--out FILE\` (or \`--out -\` for stdout): no project folder here to keep the report in (${logDir})`,
      );
    throw error;
  }
  return logDir;
}
