import { parseDecimal } from './decimal';
import { SessionError, show } from './errors';
import { isFinalPhase } from './phase-names';
import { pendingPermission } from './permission';
import type { SessionState } from './state';

// The `max_sessions` cap (seed 002's `maxSessions`): pure rules, the store's listing given by the caller.

/**
 * Parses `cleanup --older-than DAYS` (seed 000): a decimal number of days, 0 or more, as the hours cleanup works in.
 * @throws SessionError E_USAGE naming the flag, the expectation and the value
 */
export function parseDays(raw: unknown, flag = '--older-than'): number {
  const days = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimal(raw) : Number.NaN;
  const hours = days * 24;
  if (!Number.isFinite(hours) || days < 0)
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a number of days, 0 or more, got ${show(raw)}`);
  return hours;
}

/**
 * True when the cap may remove a session: it is finished (completed, failed, abandoned) and holds no request waiting
 * for the person. A session waiting for a decision, parked in approval or still working is never capped.
 */
export function cappable(state: SessionState): boolean {
  return isFinalPhase(state.phase) && pendingPermission(state) === null;
}

/**
 * The sessions a cap of `max` removes from a project's `sessions` (every valid one it keeps): as many as it holds
 * above `max`, taken among the cappable ones, oldest last activity first (then by id). Fewer when too few are
 * finished: the cap never reaches a session that is not.
 */
export function overCap(
  sessions: readonly { readonly id: string; readonly state: SessionState }[],
  max: number,
): string[] {
  const excess = sessions.length - max;
  if (excess <= 0) return [];
  return sessions
    .filter((entry) => cappable(entry.state))
    .sort((a, b) => {
      const x = Date.parse(a.state.last_updated);
      const y = Date.parse(b.state.last_updated);
      if (x !== y) return x - y;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    })
    .slice(0, excess)
    .map((entry) => entry.id);
}
