import type { CommandModule } from 'yargs';
import { optionalText } from '../args';
import type { Limits } from '../../core/limits';
import { isAheadOfClock } from '../../core/rules';
import { parseSince, type StatsGroup } from '../../core/views/stats';
import { paint, type Cell } from '../color';
import { outputWidth, renderFitted, wrapWords, type FitColumn } from '../format';
import { validStates } from '../listing';
import {
  ALL_PROJECTS_HELP,
  colourFor,
  printJson,
  contextFor,
  textOption,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { relativeTime } from '../../core/relative-time';

interface Args extends GlobalArgs {
  readonly since?: string;
  readonly agent?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const statsCommand: CommandModule<GlobalArgs, Args> = {
  command: 'stats',
  describe: 'Per-agent and overall figures: outcomes, success and resume rates, durations, errors, interruptions',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP)
      .option(
        'since',
        textOption(
          'Only sessions created in this window (30m, 24h, 7d) or since an ISO time (UTC without an offset: 2026-11-01 = 2026-11-01T00:00:00Z)',
        ),
      )
      .option('agent', textOption('Only this agent’s sessions')) as never,
  handler: async (argv) => {
    const agent = optionalText(argv.agent, '--agent');
    const now = argv.io.now();
    const since = argv.since === undefined ? undefined : parseSince(argv.since, now);
    const allProjects = argv['all-projects'];
    const { answer, limits, project } = await contextFor(argv).withSessions(async (sessions) => ({
      answer: await sessions.stats(
        {
          allProjects,
          ...(agent === undefined ? {} : { agent }),
          ...(since === undefined ? {} : { since }),
        },
        now,
      ),
      limits: sessions.limits,
      project: sessions.project,
    }));
    // Counted by the store (SessionStore.stats): a million sessions are never read; corrupt ones are named, not counted.
    validStates(answer.corrupt, argv.io, 'not counted');
    const { stats } = answer;
    // With every project: the figures of each (sessions of none under null), beside the agents' across them all.
    const projects = allProjects ? answer.projects : undefined;
    if (argv.json) {
      printJson(argv.io, {
        ...stats,
        project: allProjects ? null : project,
        ...(projects === undefined ? {} : { projects }),
        agent: agent ?? null,
        corrupt_skipped: answer.corrupt.length,
      });
      return;
    }
    if (stats.overall.sessions === 0) {
      argv.io.out('No sessions found\n');
      return;
    }
    const rows: Cell[][] = Object.entries(stats.agents).map(([name, group]) => row(name, group, now, limits));
    for (const { project: name, overall } of projects ?? [])
      if (overall.sessions > 0) rows.push(row(`(project ${name ?? 'none'})`, overall, now, limits));
    rows.push(
      row('(all)', stats.overall, now, limits).map((cell) => ({
        text: typeof cell === 'string' ? cell : cell.text,
        style: 'bold' as const,
      })),
    );
    const width = outputWidth(argv.io);
    const colour = colourFor(argv.io);
    const table = renderFitted(COLUMNS, rows, width, colour);
    argv.io.out(`${table.text}\n`);
    if (table.leftOut.length > 0) {
      const note = `Left out at ${width} columns: ${table.leftOut.join(', ')}. A wider terminal shows them; --json has every figure.`;
      for (const line of wrapWords(note, width)) argv.io.out(`${paint(line, 'dim', colour)}\n`);
    }
  },
};

// --- internal ---

/**
 * The table's columns, in their order; the priorities say which give way on a narrow terminal (README, `stats`).
 * Headers take two lines so that no column is wider than its figures need.
 */
const COLUMNS: readonly FitColumn[] = [
  { header: ['AGENT'], priority: 0 },
  { header: ['SESSIONS'], priority: 0 },
  { header: ['ACTIVE/', 'RESUMABLE'], priority: 3 },
  { header: ['DONE/FAILED/', 'ABANDONED'], priority: 0 },
  { header: ['SUCCESS', 'RATE'], priority: 1 },
  { header: ['RESUMES'], priority: 10 },
  { header: ['RESUME', 'RATE'], priority: 4 },
  { header: ['MEDIAN', 'DURATION'], priority: 5 },
  { header: ['MEAN', 'DURATION'], priority: 11 },
  { header: ['WITH', 'ERRORS'], priority: 6 },
  { header: ['INTERRUPTED/', 'CARRIED ON'], priority: 8 },
  { header: ['APPROVED/', 'REJECTED'], priority: 7 },
  { header: ['DECIDED', 'AFTER'], priority: 9 },
  { header: ['PERMISSIONS', 'ASKED/RAN'], priority: 12 },
  { header: ['LAST', 'ACTIVITY'], priority: 2 },
];

/** One row of the table, cell for cell as COLUMNS has them. */
function row(name: string, group: StatsGroup, now: Date, limits: Limits): Cell[] {
  return [
    name,
    String(group.sessions),
    { text: `${group.active}/${group.resumable_now}`, style: group.resumable_now > 0 ? 'green' : undefined },
    `${group.completed}/${group.failed}/${group.abandoned}`,
    percent(group.success_rate),
    String(group.resumes),
    percent(group.resume_rate),
    seconds(group.median_duration_seconds),
    seconds(group.mean_duration_seconds),
    // The sessions that recorded at least one error; how many had each count is `by_error_count` in --json.
    String(group.sessions - (group.by_error_count['0'] ?? 0)),
    // Host failures (not the agents' own errors) and how many a later delegation carried on.
    {
      text: `${group.interruptions}/${group.carried_on}`,
      style: group.interrupted_now > 0 ? 'yellow' : undefined,
    },
    `${group.approvals}/${group.rejections}`,
    seconds(group.median_decision_seconds),
    // Sub-agent permission requests parked as inbox items, and how many ran once granted (issue 33).
    `${group.permission_requests}/${group.permissions_spent}`,
    lastActivity(group.last_activity, now, limits),
  ];
}

/** As `list` shows it: a time ahead of the clock beyond the skew bound is not "in 72 years" but a clock ahead. */
function lastActivity(at: string | null, now: Date, limits: Limits): Cell {
  if (at === null) return '-';
  return isAheadOfClock(at, now, limits) ? { text: `clock ahead (${at})`, style: 'red' } : relativeTime(at, now);
}

function percent(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 1000) / 10}%`;
}

/** "45.2s", "12m 5s", "3h 4m": short enough for a table column. */
function seconds(value: number | null): string {
  if (value === null) return '-';
  if (value < 60) return `${Math.round(value * 10) / 10}s`;
  const total = Math.round(value);
  if (total < 3600) return `${Math.floor(total / 60)}m ${total % 60}s`;
  return `${Math.floor(total / 3600)}h ${Math.floor((total % 3600) / 60)}m`;
}
