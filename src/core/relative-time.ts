// The function's own module, not the package index: the hooks require this module lazily (claude-code.ts), and a
// required index would bring the initialisers of all ~250 date-fns modules into their bundles.
import { formatDistanceStrict } from 'date-fns/formatDistanceStrict';

/**
 * "12 minutes ago" (or "in 2 minutes" for a clock ahead of ours), by date-fns: the one wording of a relative time,
 * for the CLI's listings and the hooks' context text. `unknown` for a time that does not parse.
 */
export function relativeTime(at: string | Date, now: Date): string {
  const time = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(time.getTime())) return 'unknown';
  return formatDistanceStrict(time, now, { addSuffix: true });
}
