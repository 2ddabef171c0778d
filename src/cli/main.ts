import yargs from 'yargs';
import { EXIT_CODES, SessionError, isSessionError } from '../core/errors';
import { cleanupCommand } from './commands/cleanup';
import { createCommand } from './commands/create';
import { deleteCommand } from './commands/delete';
import { finalizeCommand } from './commands/finalize';
import { getCommand } from './commands/get';
import { initCommand } from './commands/init';
import { listCommand } from './commands/list';
import { shouldResumeCommand } from './commands/should-resume';
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
    .demandCommand(1, 'Expected a command: create, update, get, should-resume, list, finalize, cleanup, delete or init')
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
