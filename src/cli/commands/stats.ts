import type { CommandModule } from 'yargs';
import { optionalText } from '../args';
import type { Limits } from '../../core/limits';
import { isAheadOfClock } from '../../core/rules';
import { computeStats, parseSince, type StatsGroup } from '../../core/stats';
import { renderRows, type Cell } from '../color';
import { validStates } from '../listing';
import { colourFor, printJson, contextFor, textOption, withJson, type GlobalArgs } from '../context';
import { relativeTime } from '../../core/relative-time';

interface Args extends GlobalArgs {
  readonly since?: string;
  readonly agent?: string;
  readonly json: boolean;
}

export const statsCommand: CommandModule<GlobalArgs, Args> = {
  command: 'stats',
  describe: 'Per-agent and overall figures: outcomes, success and resume rates, durations, errors',
  builder: (yargs) =>
    withJson(yargs)
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
    const { entries, limits } = await contextFor(argv).withSessions(async (sessions) => ({
      entries: await sessions.list(agent === undefined ? {} : { agent }),
      limits: sessions.limits,
    }));
    const states = validStates(entries, argv.io, 'not counted');
    const stats = computeStats(states, { now, limits, ...(since === undefined ? {} : { since }) });
    if (argv.json) {
      printJson(argv.io, { ...stats, agent: agent ?? null, corrupt_skipped: entries.length - states.length });
      return;
    }
    if (stats.overall.sessions === 0) {
      argv.io.out('No sessions found\n');
      return;
    }
    const rows: Cell[][] = [
      [
        'AGENT',
        'SESSIONS',
        'ACTIVE',
        'RESUMABLE',
        'DONE/FAILED/ABANDONED',
        'SUCCESS',
        'RESUMES',
        'RESUME RATE',
        'MEAN',
        'MEDIAN',
        'BY ERRORS',
        'APPROVED/REJECTED',
        'TO DECISION',
        'LAST ACTIVITY',
      ],
    ];
    for (const [name, group] of Object.entries(stats.agents)) rows.push(row(name, group, now, limits));
    rows.push(
      row('(all)', stats.overall, now, limits).map((cell) => ({
        text: typeof cell === 'string' ? cell : cell.text,
        style: 'bold' as const,
      })),
    );
    argv.io.out(`${renderRows(rows, colourFor(argv.io))}\n`);
  },
};

// --- internal ---

function row(name: string, group: StatsGroup, now: Date, limits: Limits): Cell[] {
  const errors = Object.entries(group.by_error_count)
    .map(([count, sessions]) => `${count}:${sessions}`)
    .join(' ');
  return [
    name,
    String(group.sessions),
    String(group.active),
    { text: String(group.resumable_now), style: group.resumable_now > 0 ? 'green' : undefined },
    `${group.completed}/${group.failed}/${group.abandoned}`,
    percent(group.success_rate),
    String(group.resumes),
    percent(group.resume_rate),
    seconds(group.mean_duration_seconds),
    seconds(group.median_duration_seconds),
    errors,
    `${group.approvals}/${group.rejections}`,
    seconds(group.median_decision_seconds),
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
