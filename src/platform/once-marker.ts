import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { SessionError } from '../core/errors';
import { errnoCode, ioError } from './errno';
import { CREATE_NEW, ensurePrivateDir, PRIVATE_FILE } from './private-fs';

/** A marker's file name: letters, digits, `.`, `_`, `@`, `-`, at most 200 characters, not `.` or `..`. */
const MARKER_NAME = /^(?!\.\.?$)[\w.@-]{1,200}$/;

/**
 * Claims the marker `name` once in the folder `dir` (created 0700): true for the first caller, on any process of this
 * machine, false for every later one. The marker is an empty file of that name, created exclusively, never through a
 * link. No hash: a hook that claims loads no `node:crypto` (claimOnce, which hashes a free-form key, does).
 * @throws SessionError E_USAGE for a name MARKER_NAME refuses; E_IO when the folder cannot be made or the marker
 *   written for another reason than existing
 */
export function claimMarker(dir: string, name: string): boolean {
  if (!MARKER_NAME.test(name))
    throw new SessionError('E_USAGE', `Expected a marker name of ${MARKER_NAME}, got ${name}`);
  ensurePrivateDir(dir, true);
  const file = join(dir, name);
  try {
    closeSync(openSync(file, CREATE_NEW, PRIVATE_FILE));
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw ioError(error, 'create the marker', file);
  }
}

/** A marker name for `text`: each character MARKER_NAME refuses as `_`, cut to 200 characters. */
export function markerName(text: string): string {
  const name = text.replace(/[^\w.@-]/g, '_').slice(0, 200);
  return name === '' || name === '.' || name === '..' ? `_${name}` : name;
}
