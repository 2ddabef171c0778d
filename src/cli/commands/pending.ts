import type { CommandModule } from 'yargs';
import { approvalsWaiting, EXPIRED_APPROVAL, type DecisionItem } from '../../core/views/inbox';
import { shortDuration } from '../../core/views/time-text';
import { counted } from '../../core/plural';
import { optionalText, parseLimit } from '../args';
import { numberTextOption } from '../options';
import { renderRows, type Cell } from '../color';
import {
  ALL_PROJECTS_HELP,
  colourFor,
  contextFor,
  fileStoreNote,
  printJson,
  textOption,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { validStates } from '../listing';
import { outputWidth, shownIds, wrapWords } from '../format';
import { escapeControl } from '../text';

/** How many sessions a terminal's inbox shows at first (`--limit` for more): an inbox of 10,000 is read by no one. */
export const PENDING_PAGE = 50;

interface Args extends GlobalArgs {
  readonly agent?: string;
  readonly limit?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const pendingCommand: CommandModule<GlobalArgs, Args> = {
  command: 'pending',
  aliases: ['inbox'],
  describe:
    'What waits for your decision: sessions in approval, newest first, each with the command that decides it; expired ones apart',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP)
      .option('agent', textOption('Only this agent’s'))
      .option(
        'limit',
        numberTextOption(
          `At most N sessions, the most recently active (default ${PENDING_PAGE}; with --json, every one)`,
        ),
      ) as never,
  handler: async (argv) => {
    const agent = optionalText(argv.agent, '--agent');
    const limit = argv.limit === undefined ? (argv.json ? undefined : PENDING_PAGE) : parseLimit(argv.limit);
    const context = contextFor(argv);
    // A page of the inbox and how many wait in all, read as a page (SessionStore.page), however many wait.
    const { page, limits, now } = await context.withSessions(async (sessions) => ({
      page: await sessions.page({
        phases: ['approval'],
        allProjects: argv['all-projects'],
        ...(agent === undefined ? {} : { agent }),
        ...(limit === undefined ? {} : { limit }),
      }),
      limits: sessions.limits,
      now: await sessions.now(),
    }));
    const states = validStates(page.entries, argv.io);
    const more = page.total - states.length;
    const idText = shownIds(states.map((state) => state.agent_id));
    // One list of what waits for a decision: another kind of item is one more source here, one more row below.
    const items: DecisionItem[] = [...approvalsWaiting(states, now, limits, idText)];
    if (argv.json) {
      printJson(argv.io, items);
      return;
    }
    const live = items.filter((item) => !item.expired);
    const expired = items.filter((item) => item.expired);
    const colour = colourFor(argv.io);
    const width = outputWidth(argv.io);
    const projects = argv['all-projects'];
    const parts: string[] = [];
    // The page is the most recently active first: when none on it is live, none of the rest is either.
    if (live.length === 0) parts.push('Nothing waits for your decision');
    else
      parts.push(
        `${counted(live.length, 'session')} ${live.length === 1 ? 'waits' : 'wait'} for your decision:`,
        table(live, idText, projects, colour, width),
      );
    if (expired.length > 0)
      parts.push(
        '',
        ...wrapWords(`Expired, ${counted(expired.length, 'session')} (${EXPIRED_APPROVAL}):`, width),
        table(expired, idText, projects, colour, width),
      );
    if (more > 0)
      parts.push(
        '',
        ...wrapWords(
          `${counted(more, 'more session')} wait${more === 1 ? 's' : ''} (${page.total} in all), not shown: --limit ${page.total} shows every one, --json too`,
          width,
        ),
      );
    argv.io.out(`${parts.join('\n')}\n${unverifiedLines(items, idText, width)}${permissionLines(items, idText)}`);
    if (items.length === 0) fileStoreNote(argv.io, context);
  },
};

// --- internal ---

/** The items as a table fitting `width`: what each waits on gives way first, then the agent's name. */
function table(
  items: readonly DecisionItem[],
  idText: (id: string) => string,
  projects: boolean,
  colour: boolean,
  width: number,
): string {
  // The delegated task (core/task.ts) in a column of its own once an item records one.
  const tasks = items.some((item) => item.task !== null);
  const header: Cell[] = [
    ...(projects ? ['PROJECT'] : []),
    'ID',
    'AGENT',
    'WAITING',
    'EXPIRES',
    'DECIDE',
    'WAITS ON',
    ...(tasks ? ['TASK'] : []),
  ];
  const rows = items.map((item): Cell[] => [
    ...(projects ? [item.project ?? '-'] : []),
    idText(item.agent_id),
    item.agent_name,
    shortDuration(item.waited_seconds),
    item.expired
      ? { text: `${shortDuration(-item.expires_in_seconds)} ago`, style: 'dim' }
      : { text: `in ${shortDuration(item.expires_in_seconds)}`, style: 'yellow' },
    item.decide[0]!,
    item.waits_on === null ? '-' : `${item.waits_on.source}: ${item.waits_on.text}`,
    ...(tasks ? [item.task ?? '-'] : []),
  ]);
  const offset = projects ? 1 : 0;
  // The task gives way with what it waits on: both are free text, the rest short.
  const shrink = [...(tasks ? [offset + 6] : []), offset + 5, offset + 1, ...(projects ? [0] : [])];
  return renderRows([header, ...rows], colour, { width, shrink, drop: [offset + 5, offset + 2, offset + 3] });
}

/**
 * The items whose last decision is not verified here (issue 40 item 3): what the record claims counts for nothing, and
 * the user decides again.
 */
function unverifiedLines(items: readonly DecisionItem[], idText: (id: string) => string, width: number): string {
  const ids = items.filter((item) => item.unverified).map((item) => idText(item.agent_id));
  if (ids.length === 0) return '';
  const text =
    `Not verified here: ${ids.join(', ')} ${ids.length === 1 ? 'records a decision' : 'record decisions'} this ` +
    "machine's user did not make (a clone, a copy, written by hand or by an agent): it counts for nothing; decide again.";
  return `\n${wrapWords(text, width).join('\n')}\n`;
}

/**
 * Each sub-agent permission request the inbox holds, whole (issue 33): the tool and its exact input (JSON, controls
 * escaped), the folder it was asked in, the task the session was delegated, and the commands that decide it. The table's column shows only its start.
 */
function permissionLines(items: readonly DecisionItem[], idText: (id: string) => string): string {
  const asked = items.filter((item) => item.permission !== null);
  if (asked.length === 0) return '';
  const lines = [
    '',
    'Permission requests (approve grants exactly this call, once, to the agent that resumes the session):',
  ];
  for (const entry of asked) {
    const permission = entry.permission!;
    const id = idText(entry.agent_id);
    lines.push(
      `- ${id} (${escapeControl(entry.agent_name)}), asked at ${permission.at} by agent ${escapeControl(permission.claude_agent_id)}:`,
      `  tool: ${escapeControl(permission.tool)}`,
      `  input: ${escapeControl(JSON.stringify(permission.input ?? null))}`,
      // The task it was delegated (issue 44 item 7): what the grant is for.
      ...(entry.task === null ? [] : [`  task: ${escapeControl(entry.task)}`]),
      // The grant holds in this folder only (issue 40 item 7): a relative path means what it means there.
      ...(permission.cwd === null ? [] : [`  folder: ${escapeControl(permission.cwd)}`]),
      `  decide: agent-session approve ${id}  |  agent-session reject ${id} --reason '<why>'`,
    );
  }
  return `${lines.join('\n')}\n`;
}
