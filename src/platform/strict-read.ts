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
  try {
    return { text: strictUtf8().decode(buffer) };
  } catch {
    // TextDecoder's only failure mode with `fatal` is malformed input.
    return { problem: 'state.json is not valid UTF-8' };
  }
}

// --- internal ---

let decoder: InstanceType<typeof TextDecoder> | undefined;

/** One decoder for every read: a listing of 10,000 sessions would otherwise build 10,000 of them. */
function strictUtf8(): InstanceType<typeof TextDecoder> {
  return (decoder ??= new TextDecoder('utf-8', { fatal: true }));
}
