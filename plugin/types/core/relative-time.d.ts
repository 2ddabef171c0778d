/**
 * "12 minutes ago" (or "in 2 minutes" for a clock ahead of ours), by date-fns: the one wording of a relative time,
 * for the CLI's listings and the hooks' context text. `unknown` for a time that does not parse.
 */
export declare function relativeTime(at: string | Date, now: Date): string;
