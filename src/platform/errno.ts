import { SessionError } from '../core/errors';

/** The Node error code of `error`, when it has one. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** The words for the codes a user can act on; others are shown as their code. */
const IO_DETAILS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder (ENOTDIR)',
  EFBIG: 'file too large for the file size limit (EFBIG)',
  EDQUOT: 'disk quota exceeded',
};

/** Wraps a file-system failure that is not "absent" into E_IO, naming the path. */
export function ioError(error: unknown, action: string, path: string): SessionError {
  const code = errnoCode(error) ?? 'unknown error';
  const detail = IO_DETAILS[code] ?? code;
  return new SessionError('E_IO', `Could not ${action} \`${path}\`: ${detail}`, { cause: error });
}
