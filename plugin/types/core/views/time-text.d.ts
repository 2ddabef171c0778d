/**
 * Times and durations as a person reads them, by date-fns: every absolute time in UTC (a store is shared between
 * machines and CI logs, so one zone for all), durations in words. Relative times are core/relative-time.ts.
 */
/**
 * date-fns' `in` context for UTC. The minimal UTC date class: the full one (`utc` of @date-fns/utc) builds three
 * `Intl.DateTimeFormat`s when its module loads, which starts ICU: +121 M instructions (~30 ms) on every CLI call,
 * whatever the command (callgrind, `agent-session --version`). Formatting only needs the UTC getters.
 */
export declare const inUtc: (value: Date | number | string) => Date;
/** `2026-11-23 14:05:06 UTC`; `unknown` for a time that does not parse. */
export declare function utcTime(at: string | Date): string;
/**
 * A duration in seconds as `2h 5m`, `41m 12s`, `9s`, or `0s`: the two largest units (days down to seconds), short
 * enough for a table column or a timeline row.
 */
export declare function shortDuration(seconds: number): string;
/** Whole seconds from `from` to `to` (date-fns: truncated toward zero). */
export declare function secondsBetween(from: string | Date, to: string | Date): number;
/** A duration in words: `41 minutes`, `1 hour 5 minutes` (date-fns formatDuration; seconds dropped past a minute). */
export declare function longDuration(seconds: number): string;
