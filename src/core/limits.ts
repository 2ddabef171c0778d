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

/** Environment variables that override the defaults (read with the rest of the settings in config.ts). */
export const LIMIT_VARIABLES = {
  resumeTimeoutMinutes: 'AGENT_SESSION_RESUME_TIMEOUT_MINUTES',
  maxErrors: 'AGENT_SESSION_MAX_ERRORS',
} as const;

/**
 * The longest time span a setting may name (the resume timeout, cleanup's age): ten years. Far past any real use, and
 * far inside what a Date holds, so every display and date computation stays meaningful.
 */
export const LONGEST_SPAN_DAYS = 3650;
export const MAX_RESUME_TIMEOUT_MINUTES = LONGEST_SPAN_DAYS * 24 * 60;
export const MAX_CLEANUP_HOURS = LONGEST_SPAN_DAYS * 24;
