import { constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { ByteSource, InputSource } from './stdin';
import { errnoCode } from '../platform/errno';
import { writeFully } from '../platform/fd-write';
import { isHost, type Host } from '../core/host';

/** The working directory, undefined when it was removed (the entries' `cwd`; see workingDirectory). */
export { workingDirectory } from '../platform/working-directory';

/**
 * The hook's stdin without `process.stdin`: a file, pipe or socket on fd 0 is read synchronously with
 * `fs.readSync` (readJsonSync), which spares the stream machinery, timers and libuv's thread pool (~6 M
 * instructions per call, docs/performance.md). A pipe is reopened non-blocking (`/proc/self/fd/0`), so a writer that
 * holds it open never blocks the hook: readJsonSync polls it until its time limit. A socket (what a Node host such as
 * Claude Code passes: libuv's stdio pipes are socket pairs) is read as it is; a complete JSON document ends the read
 * at once, so only a host that sent half a document and held the socket open would keep the hook waiting (until it
 * closes stdin or times the hook out: a socket cannot be reopened non-blocking without loading `net`). A terminal or
 * other character device keeps `process.stdin`, whose reads can be abandoned: an interactive user who types nothing
 * still gets the time-limit answer and an exit.
 */
export function hookStdin(fd = 0): ByteSource | InputSource {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    // A closed fd 0 (EBADF) reads as empty input through process.stdin, as before.
    if (errnoCode(error) !== 'EBADF') throw error;
    return process.stdin;
  }
  if (stats.isFile() || stats.isSocket()) return fdBytes(fd);
  if (stats.isFIFO()) {
    try {
      return fdBytes(openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENXIO' && code !== 'EACCES') throw error;
    }
  }
  // Terminals, and pipes on systems without /proc: process.stdin, whose reads can be abandoned.
  return process.stdin;
}

/** An fd as a ByteSource: `readSync`, with EAGAIN (a non-blocking fd with nothing yet) as "nothing yet". */
export function fdBytes(fd: number): ByteSource {
  return {
    readBytes(buffer) {
      try {
        return readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if (errnoCode(error) === 'EAGAIN') return null;
        throw error;
      }
    },
  };
}

/**
 * Writes all of `text` to fd 1 synchronously. Pipes are synchronous for `process.stdout` on Linux and macOS
 * too, so the answer is complete before the process ends either way. A reader that went away (EPIPE) is
 * not an error of the hook: nobody is left to read the answer.
 */
export function writeStdout(text: string, fd = 1): void {
  try {
    writeFully(fd, text);
  } catch (error) {
    if (errnoCode(error) !== 'EPIPE') throw error;
  }
}

/**
 * The host a hook's wiring names after the bin (`--host codex`: `init --host codex`), else undefined (Claude Code). An
 * unknown name is Claude Code too: a hook never fails on its arguments.
 */
export function hostArgument(args: readonly string[]): Host | undefined {
  const at = args.indexOf('--host');
  const named = at === -1 ? undefined : args[at + 1];
  return isHost(named) ? named : undefined;
}

/** The HookIo field of hostArgument: `{ host }` when the wiring names one, else nothing (Claude Code). */
export function hostOption(args: readonly string[]): { host?: Host } {
  const host = hostArgument(args);
  return host === undefined ? {} : { host };
}
