import type { CommandModule } from 'yargs';
import { renderReport } from '../../core/views/report/html';
import { counted } from '../../core/plural';
import { parseSince } from '../../core/views/stats';
import { writeOutputFile } from '../../platform/output-file';
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
      .option('out', textOption('Write to this new file instead of stdout (never overwritten)'))
      .option('force', { type: 'boolean', default: false, describe: 'With --out: replace an existing file' }) as never,
  handler: async (argv) => {
    // --since is checked before the store is opened (a bad value writes nothing); the figures use the store's clock.
    const out = optionalText(argv.out, '--out');
    const since = argv.since === undefined ? undefined : parseSince(argv.since, argv.io.now());
    const allProjects = argv['all-projects'];
    const { entries, limits, now, project } = await contextFor(argv).withSessions(async (sessions) => ({
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
    if (out === undefined) {
      argv.io.out(html);
      return;
    }
    writeOutputFile(out, html, argv.force);
    argv.io.out(
      `Wrote the report of ${counted(states.length, 'session')} to ${escapeControl(out)} (${Buffer.byteLength(html)} bytes)\n`,
    );
  },
};
