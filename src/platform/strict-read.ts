import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { errnoCode, ioError } from './errno';

/** Reads a regular file as strict UTF-8 without following a symbolic link; null when absent. */
export function readRegularFile(file: string): { readonly text: string } | { readonly problem: string } | null {
  let buffer: Buffer;
  try {
    // O_NONBLOCK: opening a FIFO planted as state.json must not hang; fstat then refuses anything but a file.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) return { problem: 'state.json is a folder, not a file' };
      if (!stats.isFile()) return { problem: 'state.json is not a regular file' };
      buffer = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') return { problem: 'state.json is a symbolic link (not followed)' };
    if (code === 'EISDIR') return { problem: 'state.json is a folder, not a file' };
    throw ioError(error, 'read', file);
  }
  // Strict: a file that is not UTF-8 is refused, never read with replacement characters. `isUtf8` (simdutf) rather
  // than a fatal TextDecoder, whose first use costs a hook call ~0.7 M instructions; a byte-order mark is dropped,
  // as the decoder would.
  if (!isUtf8(buffer)) return { problem: 'state.json is not valid UTF-8' };
  const bom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  return { text: buffer.toString('utf8', bom ? 3 : 0) };
}
