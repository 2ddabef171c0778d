import { EventEmitter } from 'node:events';
import { constants, fstatSync, openSync, read, writeSync, type Stats } from 'node:fs';
import type { InputSource } from './stdin';
import { errnoCode } from '../platform/errno';
import { sleepMs } from '../platform/sleep';

/**
 * The hook's stdin without `process.stdin`: a pipe, socket or file on fd 0 is read with `fs.read`, which
 * spares loading `net` and the stream machinery (~4 ms of a ~25 ms start, see docs/performance.md).
 * A terminal or other character device keeps `process.stdin`, whose reads can be cancelled: an interactive
 * user who types nothing still gets the time-limit answer and an exit.
 */
export function hookStdin(fd = 0): InputSource {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    // A closed fd 0 (EBADF) reads as empty input through process.stdin, as before.
    if (errnoCode(error) !== 'EBADF') throw error;
    return process.stdin;
  }
  if (stats.isFile()) return new FdInput(fd);
  if (stats.isFIFO()) {
    // A blocking read on a pipe the writer holds open would sit in libuv's thread pool, which Node joins at exit:
    // the hook could not end. A second, non-blocking descriptor of the same pipe never blocks (EAGAIN is polled).
    try {
      return new FdInput(openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENXIO' && code !== 'EACCES') throw error;
    }
  }
  // A socket is what a Node host (Claude Code) gives: read it directly too. Such a host sends one whole document,
  // after which no read is left pending; only a host that held the socket open with half a document would keep
  // the hook alive after its answer, until the host closes stdin or times the hook out (docs/performance.md).
  if (stats.isSocket()) return new FdInput(fd);
  // Terminals, and pipes on systems without /proc: process.stdin, whose reads can be abandoned.
  return process.stdin;
}

/**
 * Writes all of `text` to fd 1 synchronously. Pipes are synchronous for `process.stdout` on Linux and macOS
 * too, so the answer is complete before the process ends either way. A reader that went away (EPIPE) is
 * not an error of the hook: nobody is left to read the answer.
 */
export function writeStdout(text: string, fd = 1): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EPIPE') return;
      // A non-blocking fd inherited from the host: wait until the reader drains the pipe.
      if (code === 'EAGAIN') {
        sleepMs(1);
        continue;
      }
      throw error;
    }
  }
}

/**
 * A readable fd as the few stream events `readJsonInput` listens to (`data`, `end`, `error`). Reads run one at a
 * time; `pause`/`destroy` stop issuing new ones. A read already waiting on a pipe that the writer holds open
 * cannot be cancelled, so that one case (the time limit on a held-open pipe) ends when the writer closes it.
 */
export class FdInput extends EventEmitter implements InputSource {
  readonly #fd: number;
  readonly #buffer = Buffer.allocUnsafe(64 * 1024);
  #stopped = false;

  constructor(fd: number) {
    super();
    this.#fd = fd;
    // Start on the next tick, once the reader has attached its listeners.
    process.nextTick(() => this.#next());
  }

  pause(): this {
    this.#stopped = true;
    return this;
  }

  destroy(): void {
    this.#stopped = true;
  }

  // --- internal ---

  #next(): void {
    if (this.#stopped) return;
    read(this.#fd, this.#buffer, 0, this.#buffer.length, null, (error, bytesRead) => {
      if (this.#stopped) return;
      if (error) {
        // EAGAIN: a non-blocking fd with nothing yet; poll gently instead of spinning.
        if (errnoCode(error) === 'EAGAIN') {
          setTimeout(() => this.#next(), 2);
          return;
        }
        this.emit('error', error);
        return;
      }
      if (bytesRead === 0) {
        this.emit('end');
        return;
      }
      // A copy: the buffer is reused by the next read while the reader may keep the chunk.
      this.emit('data', Buffer.from(this.#buffer.subarray(0, bytesRead)));
      this.#next();
    });
  }
}
