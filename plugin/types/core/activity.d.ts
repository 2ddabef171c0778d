import type { SessionState } from './state';
/**
 * True when `a` was active more recently than `b`: later `last_updated`, then later `created_at`.
 * Timestamps are compared as instants: files of the original Python store carry `+00:00`, not `Z`.
 */
export declare function isNewer(a: SessionState, b: SessionState): boolean;
/** The most recently active of `states` (the first of equals), or null when there is none. */
export declare function newestState(states: Iterable<SessionState>): SessionState | null;
/** Keeps in `map`, under `key`, the more recently active of what it holds and `state`. */
export declare function keepNewer<K>(map: Map<K, SessionState>, key: K, state: SessionState): void;
