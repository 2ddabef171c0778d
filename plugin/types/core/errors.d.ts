/** Stable error codes. Tests and callers match on these, never on message wording. */
export type ErrorCode = 'E_USAGE' | 'E_NOT_FOUND' | 'E_ILLEGAL_TRANSITION' | 'E_CORRUPT' | 'E_DUPLICATE' | 'E_REFUSED' | 'E_BUSY' | 'E_IO' | 'E_AGENT_SHELL' | 'E_OTHER_PROJECT' | 'E_CHANGED';
/** Exit code of the CLI for each error code (documented in docs/cli.md "Exit codes"). */
export declare const EXIT_CODES: Readonly<Record<ErrorCode, number>>;
/** The one error type the library throws on purpose. */
export declare class SessionError extends Error {
    readonly code: ErrorCode;
    readonly name = "SessionError";
    constructor(code: ErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
/** True when `error` is a SessionError, optionally with the given code. */
export declare function isSessionError(error: unknown, code?: ErrorCode): error is SessionError;
/** Renders a value for a message: short, one line, in backticks. */
export declare function show(value: unknown): string;
