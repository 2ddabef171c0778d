/* eslint-disable @typescript-eslint/no-require-imports -- each command module is required on demand (see below) */
import type { CommandModule } from 'yargs';
import { FINAL_PHASES } from '../core/phase-names';
import type { GlobalArgs } from './context';

/**
 * A command as yargs lists it (usage line, aliases, description) and how to load its module. yargs runs a command's
 * builder only when that command is parsed (or its help is asked for) and its handler only when it runs; listing
 * commands, suggesting one for a typo and strict checking need the heads alone.
 */
export interface CommandEntry {
  readonly command: string;
  readonly aliases?: readonly string[];
  readonly describe: string;
  /** The command's module (src/cli/commands/<name>.ts), required on first use. */
  readonly load: () => CommandModule<GlobalArgs, never>;
}

/**
 * Every command, in the order of `--help`. The heads repeat each module's `command`, `aliases` and `describe` (a
 * test checks they are equal), so that main.ts can register all commands while requiring only the module of the one
 * that runs: the bundle then evaluates that module and what it imports, not the report's HTML, stats, init, copy,
 * the machine description and the rest (esbuild turns a `require()` of an ES module into one initialised on its first
 * require). docs/performance.md has the figures.
 */
export const COMMAND_TABLE: readonly CommandEntry[] = [
  {
    command: 'create',
    describe: 'Create a session and print its id',
    load: () => (require('./commands/create') as typeof import('./commands/create')).createCommand as never,
  },
  {
    command: 'update <id>',
    describe: 'Change phase, merge metadata and/or record an error (no option: just mark it active)',
    load: () => (require('./commands/update') as typeof import('./commands/update')).updateCommand as never,
  },
  {
    command: 'get <id>',
    describe: 'Print a session state as JSON',
    load: () => (require('./commands/get') as typeof import('./commands/get')).getCommand as never,
  },
  {
    command: 'show <id>',
    describe:
      "A session's story: agent, purpose, phase, whether it would resume now and why, metadata, timeline, decisions",
    load: () => (require('./commands/show') as typeof import('./commands/show')).showCommand as never,
  },
  {
    command: 'should-resume <id>',
    describe: 'Say whether a session should be resumed, and why (exit 0 yes, 1 no)',
    load: () =>
      (require('./commands/should-resume') as typeof import('./commands/should-resume')).shouldResumeCommand as never,
  },
  {
    command: 'list',
    describe: "List this project's sessions, most recently active first",
    load: () => (require('./commands/list') as typeof import('./commands/list')).listCommand as never,
  },
  {
    command: 'finalize <id> <outcome>',
    describe: `End a session: ${FINAL_PHASES.join(' | ')}`,
    load: () => (require('./commands/finalize') as typeof import('./commands/finalize')).finalizeCommand as never,
  },
  {
    command: 'pending',
    aliases: ['inbox'],
    describe:
      'What waits for your decision: sessions in approval, newest first, each with the command that decides it; expired ones apart',
    load: () => (require('./commands/pending') as typeof import('./commands/pending')).pendingCommand as never,
  },
  {
    command: 'approve <id>',
    describe: 'Approve a session waiting in approval: record the decision and move it to executing (one write)',
    load: () => (require('./commands/approve') as typeof import('./commands/approve')).approveCommand as never,
  },
  {
    command: 'reject <id>',
    describe: 'Reject a session waiting in approval: record the reason and send it back to planning (or end it)',
    load: () => (require('./commands/reject') as typeof import('./commands/reject')).rejectCommand as never,
  },
  {
    command: 'cleanup',
    describe:
      'Remove sessions idle for more than --hours or --older-than days (any phase) and corrupt ones that old, never what ' +
      'agent-session did not make; the oldest finished ones above max_sessions; abandon sessions a stopped Claude agent ' +
      'left initializing',
    load: () => (require('./commands/cleanup') as typeof import('./commands/cleanup')).cleanupCommand as never,
  },
  {
    command: 'delete <id>',
    describe: 'Delete a session',
    load: () => (require('./commands/delete') as typeof import('./commands/delete')).deleteCommand as never,
  },
  {
    command: 'stats',
    describe: 'Per-agent and overall figures: outcomes, success and resume rates, durations, errors, interruptions',
    load: () => (require('./commands/stats') as typeof import('./commands/stats')).statsCommand as never,
  },
  {
    command: 'report',
    describe: 'One self-contained HTML page: figures, outcome chart, approval inbox, a timeline lane per session',
    load: () => (require('./commands/report') as typeof import('./commands/report')).reportCommand as never,
  },
  {
    command: 'serve',
    describe:
      'A live page of the sessions on 127.0.0.1, decisions first: approve or reject from the browser (the URL it prints carries a token)',
    load: () => (require('./commands/serve') as typeof import('./commands/serve')).serveCommand as never,
  },
  {
    command: 'notify',
    describe:
      'Tell the `notify` setting (a command or a URL) of each inbox item not told yet: once per item; what hooks and `update` start on their own',
    load: () => (require('./commands/notify') as typeof import('./commands/notify')).notifyCommand as never,
  },
  {
    command: 'statusline',
    describe:
      "One line for Claude Code's statusLine setting: `2 parked · 1 waits for you` (nothing when nothing is parked)",
    load: () => (require('./commands/statusline') as typeof import('./commands/statusline')).statuslineCommand as never,
  },
  {
    command: 'machine',
    describe: 'The phase machine, read from its XState definition: states, moves, final states, the resume guard',
    load: () => (require('./commands/machine') as typeof import('./commands/machine')).machineCommand as never,
  },
  {
    command: 'export <id>',
    describe: 'Print a session as a versioned export document ({format: "agent-session/1", exported_at, session})',
    load: () => (require('./commands/export') as typeof import('./commands/export')).exportCommand as never,
  },
  {
    command: 'import <file>',
    describe: 'Import an exported session; an existing id is refused unless --new-id, and nothing is overwritten',
    load: () => (require('./commands/import') as typeof import('./commands/import')).importCommand as never,
  },
  {
    command: 'config',
    describe:
      'Print the store in use, the hook log folder, the config file, and the effective settings with where each came from',
    load: () => (require('./commands/config') as typeof import('./commands/config')).configCommand as never,
  },
  {
    command: 'trust',
    describe:
      "Trust this project's config file as it is now, so its notify, database and wider limits apply (--revoke: no longer; --status: say whether)",
    load: () => (require('./commands/trust') as typeof import('./commands/trust')).trustCommand as never,
  },
  {
    command: 'doctor',
    describe:
      'Check the set-up: the wiring (init or plugin, not both), settings files, the store, the node the hooks run, ' +
      'the relay, hook errors of the last 24 h (exit 1 when a check fails)',
    load: () => (require('./commands/doctor') as typeof import('./commands/doctor')).doctorCommand as never,
  },
  {
    command: 'init',
    describe:
      "Wire the hooks into a Claude Code project's .claude/settings.local.json, or with --plugin enable the plugin in " +
      "its shared .claude/settings.json, or with --host codex a Codex project's .codex/hooks.json and .codex/rules (or " +
      'remove them; --purge: and everything else of ours); with --database-url, create or upgrade the PostgreSQL store first',
    load: () => (require('./commands/init') as typeof import('./commands/init')).initCommand as never,
  },
  {
    command: 'migrate',
    describe:
      "Create or upgrade the PostgreSQL store's tables (AGENT_SESSION_DATABASE_URL, database_url or --database-url), " +
      'in one transaction; running it again changes nothing',
    load: () => (require('./commands/migrate') as typeof import('./commands/migrate')).migrateCommand as never,
  },
  {
    command: 'relay <action>',
    describe:
      "The PostgreSQL hooks' local relay (it holds their connection): status, stop, or serve (run it in the foreground)",
    load: () => (require('./commands/relay') as typeof import('./commands/relay')).relayCommand as never,
  },
  {
    command: 'adopt [ids..]',
    describe:
      "Give this project to sessions of another project or of none (an older store's, listed as unassigned): " +
      'the ids named, or --unassigned',
    load: () => (require('./commands/adopt') as typeof import('./commands/adopt')).adoptCommand as never,
  },
  {
    command: 'copy',
    describe:
      'Copy every session from one store to another (a folder or a postgres:// URL), as it is, decisions marked ' +
      'imported; refused, with nothing written, when the target holds any of the ids; all or nothing',
    load: () => (require('./commands/copy') as typeof import('./commands/copy')).copyCommand as never,
  },
  {
    command: 'completion [shell]',
    describe:
      'Print a completion script (commands, options, session ids, phases, outcomes); add it to ~/.bashrc or ~/.zshrc',
    load: () => (require('./commands/completion') as typeof import('./commands/completion')).completionCommand as never,
  },
];

/**
 * The yargs command of an entry: its head as the table has it, and its builder and handler taken from its module,
 * which is required when yargs first calls either (only for the command being parsed or helped).
 */
export function lazyCommand(entry: CommandEntry): CommandModule<GlobalArgs, never> {
  return {
    command: entry.command,
    ...(entry.aliases === undefined ? {} : { aliases: [...entry.aliases] }),
    describe: entry.describe,
    builder: (yargs) => {
      const { builder } = entry.load();
      // yargs takes a builder as a function or as an options object; ours are functions, an object works as yargs'.
      return (typeof builder === 'function' ? builder(yargs) : yargs.options(builder ?? {})) as never;
    },
    handler: (argv) => entry.load().handler(argv),
  };
}
