import yargsEsm, { type Argv } from 'yargs';
import { EXIT_CODES, SessionError, show } from '../core/errors';
import { failed } from './failure';
import { COMMAND_TABLE, lazyCommand } from './command-table';
import { COMPLETION_SHELLS, valueCandidates } from './completion';
import { textOption, type CliIo, type GlobalArgs } from './context';
import { assertFlagValues, rejectRepeats, usageMessage } from './options';
import { optionalText, STDIN_FILE } from './args';
import { RECORD_VERB } from '../core/recording-command';

/**
 * Every command, as yargs registers it: the heads from the table, each module required only when its command is
 * parsed (command-table.ts).
 */
export const COMMANDS = COMMAND_TABLE.map(lazyCommand);

/**
 * Runs the CLI on `args` and returns the exit code: 0 done, 1 a negative answer, or the error's code
 * (2 usage, 3 not found, 4 rejected, 5 busy or I/O). Errors print one line on stderr; stacks only
 * with AGENT_SESSION_DEBUG=1.
 */
export async function runCli(given: readonly string[], io: CliIo, version: string): Promise<number> {
  const args = stdinFile(helpCommand(given));
  const shell = args[0] === 'completion' ? args[1] : undefined;
  if (shell !== undefined && !shell.startsWith('-')) {
    if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
      io.err(
        `agent-session: Expected the shell of \`completion\` to be one of ${COMPLETION_SHELLS.join(', ')}, got ${show(shell)}\n`,
      );
      return EXIT_CODES.E_USAGE;
    }
    return withShell(shell, () => runCli(['completion', ...args.slice(2)], io, version));
  }
  if (args[0] === RECORD_VERB) {
    // Codex's recording entry reads its own words: no global option of yargs may follow it (record.ts).
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      await (require('./record') as typeof import('./record')).runRecord(args.slice(1), io);
      return 0;
    } catch (error) {
      return failed(error, io);
    }
  }
  const parser = parserFor(args, io.cwd)
    .scriptName('agent-session')
    .usage('$0 <command> [options]')
    .option('dir', textOption('Store folder (default: AGENT_SESSION_DIR, else <project>/.claude/session)'))
    .option(
      'database-url',
      textOption('The PostgreSQL store: postgres://user@host/db (default: AGENT_SESSION_DATABASE_URL, database_url)'),
    )
    .command(COMMANDS as never)
    // yargs answers `--get-yargs-completions` (what the script runs) through this function. The command yargs
    // registers with it is hidden and named apart: under the name `completion` yargs would print the script
    // before anything else, `--help` included; `completion` is our own command (commands/completion.ts).
    .completion(
      INTERNAL_COMPLETION,
      false,
      (_current: string, _argv: unknown, defaultCompletion: () => void, done: (completions: string[]) => void) => {
        const own = valueCandidates(completionWords(args), io);
        if (own === undefined) defaultCompletion();
        else done(own);
      },
    )
    .middleware(rejectRepeats)
    // An empty --dir (an unset variable in a script) would silently mean the default store.
    .middleware((argv) => void optionalText(argv.dir, '--dir'))
    .demandCommand(1, `Expected a command: ${COMMAND_TABLE.map((entry) => entry.command.split(' ')[0]).join(', ')}`)
    .recommendCommands()
    .strict()
    .help()
    // The short form most tools take; no option of ours is -h.
    .alias('help', 'h')
    .version(version)
    .wrap(helpWidth(io))
    .exitProcess(false)
    .fail((message, error) => {
      // Route every parse or handler failure to one place, instead of yargs printing usage and exiting.
      // yargs reports some usage errors as its own YError (a missing option value): exit 2 as the others.
      if (error === undefined || error === null || error.name === 'YError')
        throw new SessionError('E_USAGE', usageMessage(message ?? error?.message ?? 'Bad usage', args, USAGES));
      throw error;
    });
  const context: Pick<GlobalArgs, 'io' | 'printCompletionScript'> = {
    io,
    // Typed without arguments in @types/yargs; yargs 17 takes the program name and the command the script names.
    printCompletionScript: () => {
      (parser.showCompletionScript as (this: unknown, name: string, command: string) => void).call(
        parser,
        'agent-session',
        'completion',
      );
    },
  };
  try {
    if (!args.includes('--get-yargs-completions')) assertFlagValues(args);
    await parser.parseAsync([...args], context, (_error, _argv, output) => {
      if (output) io.out(`${output}\n`);
    });
    return io.negative ? 1 : 0;
  } catch (error) {
    return failed(error, io);
  }
}

// --- internal ---

/** A failure's one line on stderr (its stack only with AGENT_SESSION_DEBUG=1), and its exit code. */
/**
 * A yargs parser of `args`. Help is laid out by yargs' CommonJS build, loaded only when help is asked for: the
 * ESM build (what the `import` gives an esbuild bundle) lays out help with cliui's minimal shim, which cuts lines
 * every N characters, inside words ("opt ion", "unles s"); the CommonJS build wraps at word boundaries (wrap-ansi,
 * string-width), but loading it costs ~21 M instructions, +12 % of a whole `should-resume` process (callgrind),
 * which every call would pay. Both are the same yargs release: the parse is the same.
 */
function parserFor(args: readonly string[], cwd: string | undefined): Argv {
  // yargs reads the working folder by default, which throws when it was removed; it only words its own `$0` with it
  // (the CLI names itself), so the root stands in for a working folder that cannot be named.
  const folder = cwd ?? '/';
  const end = args.indexOf('--');
  const words = end === -1 ? args : args.slice(0, end);
  if (!['--help', '-h', 'help'].some((word) => words.includes(word))) return yargsEsm([...args], folder);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yargsCjs = require('yargs/yargs') as typeof yargsEsm;
  return yargsCjs([...args], folder);
}

/**
 * `help <command>` (as gh, npm and git take it) is `<command> --help`; `help` alone is `--help`. A word after `help`
 * that names no command is left to yargs, which suggests one.
 */
function helpCommand(args: readonly string[]): readonly string[] {
  if (args[0] !== 'help') return args;
  const named = args[1];
  if (named === undefined) return ['--help'];
  const known = COMMAND_TABLE.some(
    (entry) => entry.command.split(' ')[0] === named || (entry.aliases ?? []).includes(named),
  );
  return known ? [named, '--help', ...args.slice(2)] : args;
}

/**
 * `import -` reads stdin. yargs reads a lone `-` given as a positional as an empty text, so it is handed over as
 * STDIN_FILE, which the export file reader takes for stdin (transfer-file.ts).
 */
function stdinFile(args: readonly string[]): readonly string[] {
  if (args[0] !== 'import') return args;
  const end = args.indexOf('--');
  return args.map((word, index) => (word === '-' && (end === -1 || index < end) ? STDIN_FILE : word));
}

/** Each command's usage line (`get <id>`), for messages. */
const USAGES: readonly string[] = COMMAND_TABLE.map((entry) => entry.command);

/** The hidden command yargs registers with its completion function (see runCli). */
const INTERNAL_COMPLETION = '__completion-script';

/** The words a shell asks to complete: after `--get-yargs-completions` and the program name. */
function completionWords(args: readonly string[]): string[] {
  return args.slice(args.indexOf('--get-yargs-completions') + 2);
}

/**
 * Help is wrapped, at word boundaries, to the terminal's width (at most 100 columns, for reading); without a
 * terminal to `COLUMNS` when set, else 100.
 */
function helpWidth(io: CliIo): number {
  const fromEnv = /^[1-9]\d{0,3}$/.test(io.env.COLUMNS ?? '') ? Number(io.env.COLUMNS) : undefined;
  return Math.min(100, io.columns ?? fromEnv ?? 100);
}

/**
 * Runs `work` with $SHELL naming `shell`: yargs picks the completion script's shell from $SHELL (or $ZSH_NAME)
 * alone, when the parser is built, so this is how `completion bash|zsh` chooses. Restored afterwards.
 */
async function withShell<T>(shell: string, work: () => Promise<T>): Promise<T> {
  const saved = { SHELL: process.env.SHELL, ZSH_NAME: process.env.ZSH_NAME };
  process.env.SHELL = `/bin/${shell}`;
  delete process.env.ZSH_NAME;
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
