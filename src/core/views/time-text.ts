import { UTCDateMini } from '@date-fns/utc/date/mini';
// date-fns by one file per function (here and in every module): the CLI initialises its command modules on demand,
// and esbuild gives such a lazily initialised importer of `date-fns` the package's whole index (250 modules, their
// init functions run on first use: +46 KB of code cache, +2 M instructions per `should-resume`, callgrind).
import { differenceInSeconds } from 'date-fns/differenceInSeconds';
import { format } from 'date-fns/format';
import { formatDuration } from 'date-fns/formatDuration';
import { intervalToDuration } from 'date-fns/intervalToDuration';

/**
 * Times and durations as a person reads them, by date-fns: every absolute time in UTC (a store is shared between
 * machines and CI logs, so one zone for all), durations in words. Relative times are core/relative-time.ts.
 */

/**
 * date-fns' `in` context for UTC. The minimal UTC date class: the full one (`utc` of @date-fns/utc) builds three
 * `Intl.DateTimeFormat`s when its module loads, which starts ICU: +121 M instructions (~30 ms) on every CLI call,
 * whatever the command (callgrind, `agent-session --version`). Formatting only needs the UTC getters.
 */
export const inUtc = (value: Date | number | string): Date => new UTCDateMini(+new Date(value));

/** `2026-11-23 14:05:06 UTC`; `unknown` for a time that does not parse. */
export function utcTime(at: string | Date): string {
  const time = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(time.getTime())) return 'unknown';
  return `${format(time, 'yyyy-MM-dd HH:mm:ss', { in: inUtc })} UTC`;
}

/**
 * A duration in seconds as `2h 5m`, `41m 12s`, `9s`, or `0s`: the two largest units (days down to seconds), short
 * enough for a table column or a timeline row.
 */
export function shortDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return '0s';
  const parts = intervalToDuration({ start: 0, end: Math.floor(seconds) * 1000 });
  const units: [number | undefined, string][] = [
    [(parts.years ?? 0) * 365 + (parts.months ?? 0) * 30 + (parts.days ?? 0), 'd'],
    [parts.hours, 'h'],
    [parts.minutes, 'm'],
    [parts.seconds, 's'],
  ];
  const first = units.findIndex(([value]) => (value ?? 0) > 0);
  return units
    .slice(first, first + 2)
    .filter(([value]) => (value ?? 0) > 0)
    .map(([value, unit]) => `${value}${unit}`)
    .join(' ');
}

/** Whole seconds from `from` to `to` (date-fns: truncated toward zero). */
export function secondsBetween(from: string | Date, to: string | Date): number {
  return differenceInSeconds(new Date(to), new Date(from));
}

/** A duration in words: `41 minutes`, `1 hour 5 minutes` (date-fns formatDuration; seconds dropped past a minute). */
export function longDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const parts = intervalToDuration({ start: 0, end: whole * 1000 });
  const keep = whole >= 60 ? { ...parts, seconds: 0 } : parts;
  return formatDuration(keep) || '0 seconds';
}
