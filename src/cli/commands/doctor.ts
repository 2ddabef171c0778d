import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import {
  doctorExit,
  hookErrorsCheck,
  nodeChecks,
  recentHookErrors,
  relayCheck,
  storeCheck,
  trustCheck,
  wiringChecks,
  type Check,
  type HookError,
  type NodeFacts,
  type RelayFacts,
  type StoreFacts,
} from '../../core/doctor';
import { eventsOf, knownRows } from '../../core/events';
import { claudeCodeVersion } from '../../platform/host-version';
import { isSessionError } from '../../core/errors';
import { maskDatabaseUrl } from '../../core/database-url';
import type { EffectiveConfig } from '../../core/config';
import { configFor, locationsOf } from '../../app/config-view';
import { projectFolderFor, workspaceTrust } from '../../app/call';
import { isDirectory, namesOrNull, textOrNull } from '../../platform/files';
import { isWritable } from '../../platform/access';
import { nodeVersion } from '../../platform/node-version';
import { resolveFrom } from '../../platform/working-directory';
import { optionalText } from '../args';
import { claudeWiring, marketplaceKnown, otherHostWiring, type OurHook } from '../init/wiring-facts';
import { colourFor, contextFor, printJson, textOption, withJson, type CliIo, type GlobalArgs } from '../context';
import { escapeControl } from '../text';
import { paint } from '../color';

interface Args extends GlobalArgs {
  readonly project?: string;
  readonly json: boolean;
}

/** How far back doctor looks for hook errors. */
const ERROR_HOURS = 24;

export const doctorCommand: CommandModule<GlobalArgs, Args> = {
  command: 'doctor',
  describe:
    'Check the set-up: the wiring (init or plugin, not both), settings files, the store, the node the hooks run, ' +
    'the relay, hook errors of the last 24 h (exit 1 when a check fails)',
  builder: (yargs) =>
    withJson(yargs).option('project', textOption('Project folder (default: the one the commands here use)')) as never,
  handler: async (argv) => {
    const { io } = argv;
    const project = projectOf(optionalText(argv.project, '--project'), io);
    const checks: Check[] = [];
    const claude = claudeWiring(project, io.env);
    const others = otherHostWiring(project);
    checks.push(
      ...wiringChecks({
        files: claude.files,
        // What init wires for the Claude Code on the PATH (an event it predates is not missed; once it knows it, it is).
        expectedEvents: [
          ...new Set(
            knownRows(eventsOf('claude-code'), 'claude-code', claudeCodeVersion(io.env)).map((row) => row.event),
          ),
        ],
        marketplaceKnown: marketplaceKnown(io.env),
        otherHosts: others.hosts,
      }),
    );
    const plugin = claude.files.some((f) => f.state === 'read' && f.plugin);
    checks.push(...nodeChecks(nodesOf([...claude.hooks, ...others.hooks], plugin, io.env)));
    // The store, config and logs as the project's hooks find them: Claude Code names the project in CLAUDE_PROJECT_DIR.
    const env = { ...io.env, CLAUDE_PROJECT_DIR: io.env.CLAUDE_PROJECT_DIR ?? project };
    const environment = { dir: argv.dir, env, cwd: io.cwd, databaseUrl: argv['database-url'] };
    const where = locationsOf(environment);
    let config: EffectiveConfig | null = null;
    try {
      config = configFor({ ...environment, dir: where.root });
    } catch (error) {
      if (!isSessionError(error, 'E_USAGE') && !isSessionError(error, 'E_IO')) throw error;
      checks.push(storeCheck({ state: 'config-invalid', problem: error.message }));
    }
    if (config !== null) {
      const trust = workspaceTrust(where.root, env, io.cwd);
      checks.push(
        trustCheck({ path: trust.path, found: trust.bytes !== null, keys: trust.keys, verdict: trust.verdict }),
      );
      checks.push(storeCheck(await storeFacts({ ...argv, io: { ...io, env } }, where.root, config)));
      checks.push(relayCheck(await relayFacts(config, env)));
    }
    checks.push(hookErrorsCheck(hookErrors(where.logDir, io.now()), where.logDir, ERROR_HOURS));
    io.negative = doctorExit(checks) === 1;
    if (argv.json) {
      printJson(io, { project, ok: !io.negative, checks });
      return;
    }
    const colour = colourFor(io);
    for (const check of checks) {
      const fix = check.fix === undefined ? '' : `\n      → ${escapeControl(check.fix)}`;
      io.out(`${mark(check.status, colour)} ${check.name}: ${escapeControl(check.text)}${fix}\n`);
    }
  },
};

// --- internal ---

/** The project doctor looks at: `--project`, else the one the commands here use, else the current folder. */
function projectOf(raw: string | undefined, io: CliIo): string {
  if (raw !== undefined) return resolveFrom(io.cwd, raw, '`--project`');
  const cwd = resolveFrom(io.cwd, '.', 'the working directory');
  return projectFolderFor(cwd, io.env) ?? cwd;
}

/** Each distinct node the hooks run, asked its version: init's by path, the plugin's from the PATH. */
function nodesOf(hooks: readonly OurHook[], plugin: boolean, env: CliIo['env']): NodeFacts[] {
  const nodes = new Map<string, string>();
  for (const hook of hooks)
    if (!nodes.has(hook.node)) nodes.set(hook.node, hook.node === 'node' ? 'the hooks (node on PATH)' : 'the hooks');
  if (plugin && !nodes.has('node')) nodes.set('node', 'the plugin (node on PATH)');
  return [...nodes].map(([node, source]) => ({ source, node, version: nodeVersion(node, env) }));
}

async function storeFacts(argv: Args, root: string, config: EffectiveConfig): Promise<StoreFacts> {
  const url = config.values.database_url;
  const where = url === null ? root : `PostgreSQL ${maskDatabaseUrl(url)}, schema ${config.values.database_schema}`;
  if (url === null && !isDirectory(root)) return { state: 'absent', where };
  try {
    const { entries } = await contextFor(argv).withSessions((sessions) => sessions.listing({ allProjects: true }));
    return { state: 'open', where, sessions: entries.length, writable: url === null ? isWritable(root) : null };
  } catch (error) {
    if (!isSessionError(error)) throw error;
    return { state: 'unreadable', where, problem: error.message };
  }
}

async function relayFacts(config: EffectiveConfig, env: CliIo['env']): Promise<RelayFacts> {
  if (config.values.database_url === null) return { state: 'unused' };
  if (env.AGENT_SESSION_RELAY === 'off') return { state: 'off' };
  // Loaded only with a database: the file store's doctor never loads the relay's code.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { askRelayOf } = require('../../app/relay-server') as typeof import('../../app/relay-server');
  try {
    const { reply } = await askRelayOf(config.values, env, 'status');
    if (!reply.running) return { state: 'stopped', why: reply.why };
    const status = reply.value as { pid: number; last_error: string | null };
    return { state: 'running', pid: status.pid, lastError: status.last_error };
  } catch (error) {
    if (!isSessionError(error)) throw error;
    return { state: 'stopped', why: error.message };
  }
}

/** The error lines of the last ERROR_HOURS in the log folder's logs (each `*.log` and its rotated `*.log.1`). */
function hookErrors(logDir: string, now: Date): HookError[] {
  const names = (namesOrNull(logDir) ?? []).filter((name) => /\.log(\.1)?$/.test(name)).sort();
  return names.flatMap((name) => {
    let text: string | null;
    try {
      text = textOrNull(join(logDir, name));
    } catch {
      return [];
    }
    return text === null ? [] : recentHookErrors(name, text, now, ERROR_HOURS);
  });
}

function mark(status: Check['status'], colour: boolean): string {
  if (status === 'ok') return paint('ok  ', 'green', colour);
  return status === 'warn' ? paint('warn', 'yellow', colour) : paint('FAIL', 'red', colour);
}
