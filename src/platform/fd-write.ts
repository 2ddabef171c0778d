import { fstatSync, writeSync } from 'node:fs';
import { errnoCode } from './errno';
import { sleepMs } from './sleep';

/**
 * Writes all of `text` to the open descriptor `fd`, synchronously: what `process.stdout.write` does on Linux for a
 * pipe, a file or a terminal, without making `process.stdout`, which on a pipe loads `net` and the stream machinery
 * (~13 M instructions, a fifth of a CLI call beyond Node's own start: docs/performance.md). A non-blocking
 * descriptor inherited from the parent (EAGAIN) is waited on until its reader drains it.
 * @throws the write's error (EPIPE: the reader went away)
 */
export function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      if (errnoCode(error) !== 'EAGAIN') throw error;
      sleepMs(1);
    }
  }
}

/**
 * Whether `fd` is a character device: a terminal, or /dev/null. Only then can `process.stdout.isTTY` be true, so
 * only then is `process.stdout` worth making to ask (false when `fd` is closed).
 */
export function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch (error) {
    // A closed descriptor is no terminal; any other failure is not ours to hide.
    if (errnoCode(error) === 'EBADF') return false;
    throw error;
  }
}
