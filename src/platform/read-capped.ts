import { closeSync, openSync, readSync } from 'node:fs';
import { errnoCode } from './errno';
import { sleepMs } from './sleep';

/**
 * Reads a file, or an open descriptor such as stdin, to its end, keeping at most `maxBytes`: a larger input is not
 * read past the limit (a `/dev/zero` or an endless pipe ends the read too). Pipes and process substitutions
 * (`<(cmd)`) are read like files. A non-blocking descriptor inherited from a parent (EAGAIN) is polled.
 * @returns the bytes, or `too-large` when the input has more than `maxBytes`
 * @throws the file system's error (ENOENT, EISDIR, EACCES…): the caller names the path and decides
 */
export function readCapped(source: string | number, maxBytes: number): Buffer | 'too-large' {
  const fd = typeof source === 'number' ? source : openSync(source, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        if (errnoCode(error) !== 'EAGAIN') throw error;
        sleepMs(1);
        continue;
      }
      if (read === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return 'too-large';
    }
  } finally {
    if (typeof source !== 'number') closeSync(fd);
  }
}
