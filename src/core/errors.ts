import { cutText } from './text';

/** Stable error codes. Tests and callers match on these, never on message wording. */
export type ErrorCode =
  | 'E_USAGE' // a bad command line or argument value
  | 'E_NOT_FOUND' // no session with that id
  | 'E_ILLEGAL_TRANSITION' // the phase machine refuses the change
  | 'E_CORRUPT' // state.json exists but is not a valid session
  | 'E_DUPLICATE' // create with an id that already exists
  | 'E_REFUSED' // a folder or link agent-session did not make: never removed, never written through
  | 'E_BUSY' // the session lock could not be taken in time
  | 'E_IO' // any other file-system failure
  | 'E_AGENT_SHELL' // approve/reject run from inside an AI agent's shell (core/origin.ts)
  | 'E_OTHER_PROJECT' // a decision on a session of another project (or of none) without --all-projects
  | 'E_CHANGED'; // a decision on what a session no longer waits on: its request or plan changed since it was shown

/** Exit code of the CLI for each error code (documented in docs/cli.md "Exit codes"). */
export const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  E_USAGE: 2,
  E_NOT_FOUND: 3,
  E_ILLEGAL_TRANSITION: 4,
  E_CORRUPT: 4,
  E_DUPLICATE: 4,
  E_REFUSED: 4,
  E_BUSY: 5,
  E_IO: 5,
  E_AGENT_SHELL: 6,
  E_OTHER_PROJECT: 4,
  E_CHANGED: 4,
};

/** The one error type the library throws on purpose. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is a SessionError, optionally with the given code. */
export function isSessionError(error: unknown, code?: ErrorCode): error is SessionError {
  return error instanceof SessionError && (code === undefined || error.code === code);
}

/** Renders a value for a message: short, one line, in backticks. */
export function show(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      // A value JSON cannot render (a cycle, a BigInt) still needs a readable name.
      text = String(value);
    }
  }
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `\`${cutText(text, 80, '...')}\``;
}
