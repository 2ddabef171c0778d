import yargs from 'yargs';
import { EXIT_CODES, SessionError, isSessionError, show } from '../core/errors';
import { escapeControl } from './text';
import { cleanupCommand } from './commands/cleanup';
import { configCommand } from './commands/config';
import { copyCommand } from './commands/copy';
import { createCommand } from './commands/create';
import { deleteCommand } from './commands/delete';
import { exportCommand } from './commands/export';
import { finalizeCommand } from './commands/finalize';
import { getCommand } from './commands/get';
import { importCommand } from './commands/import';
import { initCommand } from './commands/init';
import { listCommand } from './commands/list';
import { migrateCommand } from './commands/migrate';
import { shouldResumeCommand } from './commands/should-resume';
import { statsCommand } from './commands/stats';
import { updateCommand } from './commands/update';
import type { CliIo, GlobalArgs } from './context';

export const COMMANDS = [
  createCommand,
  updateCommand,
  getCommand,
  shouldResumeCommand,
  listCommand,
  finalizeCommand,
  cleanupCommand,
  deleteCommand,
  statsCommand,
  exportCommand,
  importCommand,
  configCommand,
  initCommand,
  migrateCommand,
  copyCommand,
] as const;

/**
 * Runs the CLI on `args` and returns the exit code: 0 done, 1 a negative answer, or the error's code
 * (2 usage, 3 not found, 4 rejected, 5 busy or I/O). Errors print one line on stderr; stacks only
 * with AGENT_SESSION_DEBUG=1.
 */
export async function runCli(args: readonly string[], io: CliIo, version: string): Promise<number> {
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
  const parser = yargs([...args])
    .scriptName('agent-session')
    .usage('$0 <command> [options]')
    .option('dir', {
      type: 'string',
      describe: 'Store folder (default: AGENT_SESSION_DIR, else <project>/.claude/session)',
    })
    .option('database-url', {
      type: 'string',
      describe: 'The PostgreSQL store: postgres://user@host/db (default: AGENT_SESSION_DATABASE_URL, database_url)',
    })
    .command(COMMANDS as never)
    .completion(
      'completion',
      'Print a completion script: `completion bash` or `completion zsh` (default: your $SHELL); add it to ~/.bashrc or ~/.zshrc',
    )
    .demandCommand(
      1,
      `Expected a command: ${[...COMMANDS.map((command) => String(command.command).split(' ')[0]), 'completion'].join(', ')}`,
    )
    .recommendCommands()
    .strict()
    .help()
    .version(version)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      // Route every parse or handler failure to one place, instead of yargs printing usage and exiting.
      throw error ?? new SessionError('E_USAGE', message);
    });
  try {
    await parser.parseAsync([...args], { io } satisfies Pick<GlobalArgs, 'io'>, (_error, _argv, output) => {
      if (output) io.out(`${output}\n`);
    });
    return io.negative ? 1 : 0;
  } catch (error) {
    const code = isSessionError(error) ? EXIT_CODES[error.code] : 5;
    const message = error instanceof Error ? error.message : String(error);
    // A message may quote a name, a path or a file's words: one line, and nothing a terminal would act on.
    io.err(`agent-session: ${escapeControl(message)}\n`);
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
    return code;
  }
}

// --- internal ---

const COMPLETION_SHELLS = ['bash', 'zsh'] as const;

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
