import { EXIT_CODES, isSessionError } from '../core/errors';
import { escapeControl } from './text';
import type { CliIo } from './context';

/**
 * A command's failure as the CLI reports it: one line on stderr (the stack only with AGENT_SESSION_DEBUG=1), and its
 * exit code (the error's, 5 for anything that is no SessionError).
 */
export function failed(error: unknown, io: Pick<CliIo, 'err' | 'env'>): number {
  const code = isSessionError(error) ? EXIT_CODES[error.code] : 5;
  const message = error instanceof Error ? error.message : String(error);
  // A message may quote a name, a path or a file's words: one line, and nothing a terminal would act on.
  io.err(`agent-session: ${escapeControl(message)}\n`);
  if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
  return code;
}
