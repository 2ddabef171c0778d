import yargs from 'yargs';
import { EXIT_CODES, SessionError, isSessionError } from '../core/errors';
import { cleanupCommand } from './commands/cleanup';
import { configCommand } from './commands/config';
import { createCommand } from './commands/create';
import { deleteCommand } from './commands/delete';
import { exportCommand } from './commands/export';
import { finalizeCommand } from './commands/finalize';
import { getCommand } from './commands/get';
import { importCommand } from './commands/import';
import { initCommand } from './commands/init';
import { listCommand } from './commands/list';
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
] as const;

/**
 * Runs the CLI on `args` and returns the exit code: 0 done, 1 a negative answer, or the error's code
 * (2 usage, 3 not found, 4 rejected, 5 busy or I/O). Errors print one line on stderr; stacks only
 * with AGENT_SESSION_DEBUG=1.
 */
export async function runCli(args: readonly string[], io: CliIo, version: string): Promise<number> {
  const parser = yargs([...args])
    .scriptName('agent-session')
    .usage('$0 <command> [options]')
    .option('dir', { type: 'string', describe: 'Store folder (default: AGENT_SESSION_DIR, else <project>/.claude/session)' })
    .command(COMMANDS as never)
    .completion('completion', 'Print a completion script: bash, or zsh when $SHELL is zsh (source it, or add it to ~/.bashrc / ~/.zshrc)')
    .demandCommand(1, `Expected a command: ${[...COMMANDS.map((command) => String(command.command).split(' ')[0]), 'completion'].join(', ')}`)
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
    io.err(`agent-session: ${message}\n`);
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
    return code;
  }
}
