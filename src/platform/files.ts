import { lstatSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { errnoCode, ioError } from './errno';

/**
 * True when `path` is a folder (through links); false when it is absent, not a folder, or not ours to look at.
 * @throws SessionError E_IO for any other failure to look
 */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    const code = errnoCode(error);
    // An ancestor we may not read cannot be our project; the walk goes on upwards.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return false;
    throw ioError(error, 'inspect', path);
  }
}

/**
 * The entry itself (a symbolic link is not followed), or null when it is absent.
 * @throws SessionError E_IO for any other failure to look
 */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'inspect', path);
  }
}

/**
 * The names in a folder, or null when it is absent (removed meanwhile, or never made).
 * @throws SessionError E_IO for any other failure to list it
 */
export function namesOrNull(path: string): string[] | null {
  try {
    return readdirSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'list', path);
  }
}

/**
 * A file's text (UTF-8), or null when it is absent.
 * @throws SessionError E_IO for any other failure to read it
 */
export function textOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(error, 'read', path);
  }
}
