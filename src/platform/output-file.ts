import { SessionError } from '../core/errors';
import { errnoCode, ioError } from './errno';
import { writeFileAtomic } from './atomic-file';
import { writeNewFile } from './private-fs';

/**
 * Writes a generated file (a report) named by `--out`: a new file (0600, never through a link) unless `replace`
 * says the user asked to replace an existing one, which is then swapped atomically (a reader sees the old file or
 * the new, and a link at that name is replaced, never written through).
 * @throws SessionError E_DUPLICATE when the file exists and `replace` is false (nothing written), E_IO otherwise
 */
export function writeOutputFile(path: string, text: string, replace: boolean): void {
  if (replace) {
    writeFileAtomic(path, text);
    return;
  }
  try {
    writeNewFile(path, text);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST')
      throw new SessionError(
        'E_DUPLICATE',
        `Expected \`--out\` to name a new file, got \`${path}\` which exists (add --force to replace it)`,
      );
    throw ioError(error, 'write', path);
  }
}
