import { SessionError } from '../core/errors';
/** The Node error code of `error`, when it has one. */
export declare function errnoCode(error: unknown): string | undefined;
/** Wraps a file-system failure that is not "absent" into E_IO, naming the path. */
export declare function ioError(error: unknown, action: string, path: string): SessionError;
