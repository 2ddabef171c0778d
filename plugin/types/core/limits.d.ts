/** The tunable limits of the resume rules. */
export interface Limits {
    /** A session idle longer than this is no longer resumed. */
    readonly resumeTimeoutMinutes: number;
    /** A session with this many errors or more is no longer resumed. */
    readonly maxErrors: number;
    /** How far in the future `last_updated` may be before it is taken as clock skew. */
    readonly clockSkewMinutes: number;
}
export declare const DEFAULT_LIMITS: Limits;
/** Environment variables that override the defaults (read with the rest of the settings in config.ts). */
export declare const LIMIT_VARIABLES: {
    readonly resumeTimeoutMinutes: "AGENT_SESSION_RESUME_TIMEOUT_MINUTES";
    readonly maxErrors: "AGENT_SESSION_MAX_ERRORS";
};
/**
 * The longest time span a setting may name (the resume timeout, cleanup's age): ten years. Far past any real use, and
 * far inside what a Date holds, so every display and date computation stays meaningful.
 */
export declare const LONGEST_SPAN_DAYS = 3650;
export declare const MAX_RESUME_TIMEOUT_MINUTES: number;
export declare const MAX_CLEANUP_HOURS: number;
