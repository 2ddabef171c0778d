import { accessSync, constants } from 'node:fs';

/** Whether this process may write in `path` (access(2) W_OK): false when it may not or `path` is absent. */
export function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
