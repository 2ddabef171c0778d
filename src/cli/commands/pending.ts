import type { CommandModule } from 'yargs';
import { inboxOf, type InboxEntry } from '../../core/views/inbox';
import { RESUMABLE_PHASES, WORK_PHASES, type Phase } from '../../core/phase-names';
import { shortDuration } from '../../core/views/time-text';
import { SessionError, show } from '../../core/errors';
import { renderRows, type Cell } from '../color';
import {
  ALL_PROJECTS_HELP,
  colourFor,
  contextFor,
  printJson,
  withAllProjects,
  withJson,
  type GlobalArgs,
} from '../context';
import { validStates } from '../listing';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly phase?: string;
  readonly 'all-projects': boolean;
  readonly json: boolean;
}

export const pendingCommand: CommandModule<GlobalArgs, Args> = {
  command: 'pending',
  aliases: ['inbox'],
  describe:
    'The approval inbox: sessions waiting in approval, investigating or planning, and interrupted ones, oldest waiting first',
  builder: (yargs) =>
    withAllProjects(withJson(yargs), ALL_PROJECTS_HELP).option('phase', {
      type: 'string',
      describe: `Only sessions in this phase (${RESUMABLE_PHASES.join(', ')}; the other working phases hold interrupted sessions only)`,
    }) as never,
  handler: async (argv) => {
    const phases = argv.phase === undefined ? undefined : [waitingPhase(argv.phase)];
    const { entries, limits, now } = await contextFor(argv).withSessions(async (sessions) => ({
      entries: await sessions.list({ activeOnly: true, allProjects: argv['all-projects'] }),
      limits: sessions.limits,
      now: await sessions.now(),
    }));
    const inbox = inboxOf(validStates(entries, argv.io), now, limits, phases);
    if (argv.json) {
      printJson(argv.io, inbox);
      return;
    }
    argv.io.out(
      inbox.length === 0
        ? 'Nothing waits for a decision\n'
        : `${renderRows(rows(inbox, argv['all-projects']), colourFor(argv.io))}\n${permissionLines(inbox)}`,
    );
  },
};

// --- internal ---

/** A phase the inbox lists (a working phase); any other word (a final phase or not a phase) is named against those. */
function waitingPhase(text: string): Phase {
  if (!(WORK_PHASES as readonly string[]).includes(text))
    throw new SessionError('E_USAGE', `Expected \`--phase\` to be one of ${WORK_PHASES.join(', ')}, got ${show(text)}`);
  return text as Phase;
}

/** The inbox's rows; with `projects`, each session's project in a column of its own. */
function rows(inbox: readonly InboxEntry[], projects: boolean): Cell[][] {
  const header: Cell[] = [...(projects ? ['PROJECT'] : []), 'ID', 'AGENT', 'PHASE', 'WAITING', 'RESUMABLE', 'WAITS ON'];
  return [
    header,
    ...inbox.map((entry): Cell[] => [
      ...(projects ? [entry.project ?? '-'] : []),
      entry.agent_id,
      entry.agent_name,
      entry.interrupted === null
        ? { text: entry.phase, style: entry.phase === 'approval' ? 'yellow' : undefined }
        : { text: `${entry.phase}, interrupted`, style: 'yellow' },
      shortDuration(entry.waited_seconds),
      entry.resumable ? { text: resumableText(entry), style: 'green' } : { text: notResumable(entry), style: 'dim' },
      entry.waits_on === null ? '-' : `${entry.waits_on.source}: ${entry.waits_on.text}`,
    ]),
  ];
}

/**
 * Each sub-agent permission request the inbox holds, whole (issue 33): the tool and its exact input (JSON, controls
 * escaped), and the commands that decide it. The table's column shows only its start.
 */
function permissionLines(inbox: readonly InboxEntry[]): string {
  const asked = inbox.filter((entry) => entry.permission !== null);
  if (asked.length === 0) return '';
  const lines = [
    '',
    'Permission requests (approve grants exactly this call, once, to the agent that resumes the session):',
  ];
  for (const entry of asked) {
    const permission = entry.permission!;
    lines.push(
      `- ${entry.agent_id} (${escapeControl(entry.agent_name)}), asked at ${permission.at} by agent ${escapeControl(permission.claude_agent_id)}:`,
      `  tool: ${escapeControl(permission.tool)}`,
      `  input: ${escapeControl(JSON.stringify(permission.input ?? null))}`,
      `  decide: agent-session approve ${entry.agent_id}  |  agent-session reject ${entry.agent_id} --reason '<why>'`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function resumableText(entry: InboxEntry): string {
  // An interrupted session has no idle limit: the next delegation carries it on whenever it comes.
  return entry.expires_in_seconds === null
    ? 'yes, by the next delegation'
    : `yes, ${shortDuration(entry.expires_in_seconds)} left`;
}

function notResumable(entry: InboxEntry): string {
  if (entry.reason === 'session_expired' && entry.expires_in_seconds !== null)
    return `no, expired ${shortDuration(-entry.expires_in_seconds)} ago`;
  return `no (${entry.reason})`;
}
