import { format } from 'date-fns/format';
import { resumeCount } from '../../history';
import { isFinalPhase } from '../../phase-names';
import type { SessionState } from '../../state';
import { inUtc } from '../time-text';

/** Sessions created in one time slot, by outcome, and how many of them were resumed at least once. */
export interface Bucket {
  readonly label: string;
  readonly unit: 'hour' | 'day' | 'week';
  readonly start: string;
  readonly sessions: number;
  readonly completed: number;
  readonly failed: number;
  readonly abandoned: number;
  /** Not finalized yet. */
  readonly open: number;
  readonly resumed: number;
}

const HOUR = 3_600_000;
const UNITS = [
  ['hour', HOUR, 'MM-dd HH:00'],
  ['day', 24 * HOUR, 'yyyy-MM-dd'],
  ['week', 7 * 24 * HOUR, 'yyyy-MM-dd'],
] as const;
/** At most this many slots: a bar stays wide enough to see. */
const MAX_BUCKETS = 60;

/**
 * Groups sessions by creation time into hour, day or week slots (UTC; the smallest unit giving at most 60 slots) from
 * `since` (else the first creation) to `now`, counting outcomes and resumed sessions (the report's chart).
 */
export function outcomeBuckets(states: readonly SessionState[], now: Date, since?: Date): Bucket[] {
  if (states.length === 0) return [];
  const first = since?.getTime() ?? Math.min(...states.map((s) => Date.parse(s.created_at)));
  const last = Math.max(now.getTime(), ...states.map((s) => Date.parse(s.created_at)));
  const [unit, size, pattern] = UNITS.find(([, ms]) => (last - first) / ms < MAX_BUCKETS) ?? UNITS[2];
  const origin = Math.floor(first / size) * size;
  const count = Math.floor((last - origin) / size) + 1;
  const slots = Array.from({ length: count }, (_, index) => ({
    start: origin + index * size,
    sessions: 0,
    completed: 0,
    failed: 0,
    abandoned: 0,
    open: 0,
    resumed: 0,
  }));
  for (const state of states) {
    const slot = slots[Math.floor((Date.parse(state.created_at) - origin) / size)];
    if (slot === undefined) continue;
    slot.sessions += 1;
    if (isFinalPhase(state.phase)) slot[state.phase] += 1;
    else slot.open += 1;
    if (resumeCount(state) > 0) slot.resumed += 1;
  }
  return slots.map((slot) => ({
    ...slot,
    unit,
    start: new Date(slot.start).toISOString(),
    label: format(slot.start, pattern, { in: inUtc }),
  }));
}
