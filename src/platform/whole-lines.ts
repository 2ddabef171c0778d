import { closeSync, readSync } from 'node:fs';
import { ioError } from './errno';
import { openRegular } from './file-copy';

// Apart from file-copy.ts so the hook paths that copy transcripts do not load it: only a stop's reading of a
// transcript does.

/**
 * The whole lines of the regular file at `path` from byte `offset` on, at most `maxBytes` of them (a last line still
 * being appended, without its newline, is left for the next read), and the offset after them: a reader that keeps
 * that offset reads each line once however often it comes back. Null when the file is absent, a link or not a file.
 * @throws SessionError E_IO for any other failure to read it
 */
export function wholeLinesFrom(
  path: string,
  offset: number,
  maxBytes: number,
): { readonly text: string; readonly end: number; readonly size: number } | null {
  const opened = openRegular(path);
  if (opened === null || opened === 'not-a-file') return null;
  try {
    // A file now shorter than the offset was replaced or cut: nothing new, and nothing read twice.
    const length = Math.max(0, Math.min(opened.size - offset, maxBytes));
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const got = readSync(opened.fd, buffer, read, length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    const last = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (last < 0) return { text: '', end: offset, size: opened.size };
    return { text: buffer.subarray(0, last + 1).toString('utf8'), end: offset + last + 1, size: opened.size };
  } catch (error) {
    throw ioError(error, 'read', path);
  } finally {
    closeSync(opened.fd);
  }
}
