import type { SessionState } from './state';

/**
 * True when `a` was active more recently than `b`: later `last_updated`, then later `created_at`.
 * Timestamps are compared as instants: files of the original Python store carry `+00:00`, not `Z`.
 */
export function isNewer(a: SessionState, b: SessionState): boolean {
  const delta = Date.parse(a.last_updated) - Date.parse(b.last_updated);
  return delta > 0 || (delta === 0 && Date.parse(a.created_at) > Date.parse(b.created_at));
}

/** The most recently active of `states` (the first of equals), or null when there is none. */
export function newestState(states: Iterable<SessionState>): SessionState | null {
  let newest: SessionState | null = null;
  for (const state of states) if (newest === null || isNewer(state, newest)) newest = state;
  return newest;
}

/** Keeps in `map`, under `key`, the more recently active of what it holds and `state`. */
export function keepNewer<K>(map: Map<K, SessionState>, key: K, state: SessionState): void {
  const known = map.get(key);
  if (known === undefined || isNewer(state, known)) map.set(key, state);
}
