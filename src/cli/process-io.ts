import { errnoCode } from '../platform/errno';
import { isCharacterDevice, writeFully } from '../platform/fd-write';
import type { CliIo } from './context';

/** The working directory, undefined when it was removed (the entry's `cwd`; see workingDirectory). */
export { workingDirectory } from '../platform/working-directory';

/**
 * The process's stdout and stderr as the CLI writes them: straight to fd 1 and fd 2, so that a call whose output
 * goes to a pipe or a file never makes `process.stdout` (see writeFully). `process.stdout` is asked only when fd 1
 * is a character device, for whether it is a terminal and its width.
 *
 * A reader that stops early (`agent-session list --json | head`) closes the pipe: the rest of the output has
 * nowhere to go, so it is dropped quietly, as coreutils do. Any other failure to write stdout is one line on
 * stderr, once; the command's exit code stays its own.
 */
export function processOutput(): Pick<CliIo, 'out' | 'err' | 'isTTY' | 'errIsTTY' | 'columns'> {
  const terminal = isCharacterDevice(1) && process.stdout.isTTY === true;
  let outOpen = true;
  let errOpen = true;
  const err = (text: string): void => {
    if (!errOpen) return;
    try {
      writeFully(2, text);
    } catch {
      // Nowhere is left to say that stderr failed.
      errOpen = false;
    }
  };
  return {
    out: (text) => {
      if (!outOpen) return;
      try {
        writeFully(1, text);
      } catch (error) {
        outOpen = false;
        if (errnoCode(error) !== 'EPIPE')
          err(`agent-session: cannot write the output: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    },
    err,
    isTTY: terminal,
    errIsTTY: isCharacterDevice(2) && process.stderr.isTTY === true,
    columns: terminal ? process.stdout.columns : undefined,
  };
}
