import { SessionError, show } from './errors';

/** The tunable limits of the resume rules. */
export interface Limits {
  /** A session idle longer than this is no longer resumed. */
  readonly resumeTimeoutMinutes: number;
  /** A session with this many errors or more is no longer resumed. */
  readonly maxErrors: number;
  /** How far in the future `last_updated` may be before it is taken as clock skew. */
  readonly clockSkewMinutes: number;
}

export const DEFAULT_LIMITS: Limits = { resumeTimeoutMinutes: 30, maxErrors: 3, clockSkewMinutes: 1 };

/** Environment variables that override the defaults. */
export const LIMIT_VARIABLES = {
  resumeTimeoutMinutes: 'AGENT_SESSION_RESUME_TIMEOUT_MINUTES',
  maxErrors: 'AGENT_SESSION_MAX_ERRORS',
} as const;

/**
 * Reads the limits from an environment-like record (pure: the caller passes `process.env`).
 * @throws SessionError E_USAGE naming the variable when a value is not a positive number
 */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Limits {
  const timeout = readNumber(env, LIMIT_VARIABLES.resumeTimeoutMinutes, false);
  const maxErrors = readNumber(env, LIMIT_VARIABLES.maxErrors, true);
  return {
    ...DEFAULT_LIMITS,
    ...(timeout === undefined ? {} : { resumeTimeoutMinutes: timeout }),
    ...(maxErrors === undefined ? {} : { maxErrors }),
  };
}

// --- internal ---

function readNumber(env: Readonly<Record<string, string | undefined>>, name: string, integer: boolean): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    const what = integer ? 'a positive whole number' : 'a positive number';
    throw new SessionError('E_USAGE', `Expected \`${name}\` to be ${what}, got ${show(raw)}`);
  }
  return value;
}
