import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../platform/atomic-file';
import type { SessionState } from '../core/state';
import { isPhase } from '../core/phase-names';
import { statsFactsOf, type StatsFacts } from '../core/views/stats-facts';

/**
 * What a listing needs to choose sessions without reading them: a session's project, agent, phase and last activity,
 * with the identity of the state.json it was read from (inode, size, modification time). Every write of a session
 * renames a new file into place (a new inode), so an unchanged identity means an unchanged state: the cache is only
 * ever believed for a file whose identity it names. It is derived data: lost, damaged or stale, it costs a full read,
 * never a wrong answer.
 */
export interface Summary {
  readonly key: string;
  readonly project: string | null;
  readonly agent_name: string;
  readonly phase: string;
  readonly last_updated: string;
  /**
   * What `stats` counts of it (core/views/stats.ts), as the cache holds it (factsRow): read by summaryFacts only when
   * `stats` asks, so a listing of 100,000 sessions does not build 100,000 objects it never uses.
   */
  readonly facts: readonly unknown[];
}

/** The cache's file in the store root (hidden: not a session). */
export const LISTING_CACHE = '.listing-cache.json';
// 2: with each session's stats facts.
const FORMAT = 2;

/** The identity of a state.json (see Summary), or null when there is no such file. */
export function fileKey(path: string): string | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats === undefined || !stats.isFile() ? null : `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/** A session's summary, for the file `key` names. */
export function summaryOf(state: SessionState, key: string): Summary {
  return {
    key,
    project: state.project ?? null,
    agent_name: state.agent_name,
    phase: state.phase,
    last_updated: state.last_updated,
    facts: factsRow(statsFactsOf(state)),
  };
}

/** The stats facts of a summary, or null when its cached row is not as written here (then the session is read). */
export function summaryFacts(summary: Summary): StatsFacts | null {
  return factsOfRow(summary.facts, summary);
}

/** The facts as a row holds them: what the summary does not hold already, in a fixed order. */
function factsRow(facts: StatsFacts): unknown[] {
  return [
    facts.created_at,
    facts.error_count,
    facts.duration_seconds,
    facts.resumes,
    facts.approvals,
    facts.rejections,
    facts.decision_waits,
    facts.interruptions,
    facts.carried_on,
    facts.interrupted_now ? 1 : 0,
    facts.permission_requests,
    facts.permissions_granted,
    facts.permissions_refused,
    facts.permissions_spent,
    facts.continued,
    facts.primed ? 1 : 0,
  ];
}

/** The facts of a row (factsRow), or null when it is not as written there. */
function factsOfRow(
  row: unknown,
  summary: { project: string | null; agent_name: string; phase: string; last_updated: string },
): StatsFacts | null {
  if (!Array.isArray(row) || row.length !== 16 || !isPhase(summary.phase)) return null;
  const [created_at, , duration, , , , waits] = row as unknown[];
  const counts = [1, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((i) => row[i] as unknown);
  if (typeof created_at !== 'string' || (duration !== null && typeof duration !== 'number')) return null;
  if (!counts.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  if (!Array.isArray(waits) || !waits.every((n) => typeof n === 'number')) return null;
  const n = (i: number): number => row[i] as number;
  return {
    agent_name: summary.agent_name,
    project: summary.project,
    phase: summary.phase,
    created_at,
    last_updated: summary.last_updated,
    error_count: n(1),
    duration_seconds: duration,
    resumes: n(3),
    approvals: n(4),
    rejections: n(5),
    decision_waits: waits as number[],
    interruptions: n(7),
    carried_on: n(8),
    interrupted_now: n(9) === 1,
    permission_requests: n(10),
    permissions_granted: n(11),
    permissions_refused: n(12),
    permissions_spent: n(13),
    continued: n(14),
    primed: n(15) === 1,
  };
}

/** The summaries the cache at `path` holds; none when it is absent or not as written here. */
export function readListingCache(path: string): Map<string, Summary> {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; rows?: unknown };
    if (raw.format !== FORMAT || typeof raw.rows !== 'object' || raw.rows === null) return new Map();
    const rows = new Map<string, Summary>();
    for (const [id, row] of Object.entries(raw.rows as Record<string, unknown>)) {
      if (!Array.isArray(row) || row.length !== 6) continue;
      const [key, project, agent_name, phase, last_updated, facts] = row as unknown[];
      if (typeof key !== 'string' || typeof agent_name !== 'string' || typeof phase !== 'string') continue;
      if (typeof last_updated !== 'string' || (project !== null && typeof project !== 'string')) continue;
      if (Array.isArray(facts)) rows.set(id, { key, project, agent_name, phase, last_updated, facts });
    }
    return rows;
  } catch {
    // Absent, unreadable or damaged: derived data, rebuilt by this listing.
    return new Map();
  }
}

/** Writes the cache whole (an atomic rename); a store it cannot be written to (read-only) lists without it. */
export function writeListingCache(path: string, rows: ReadonlyMap<string, Summary>): void {
  const out: Record<string, unknown[]> = {};
  for (const [id, row] of rows)
    out[id] = [row.key, row.project, row.agent_name, row.phase, row.last_updated, row.facts];
  try {
    // No fsync: a cache a crash loses or tears is rebuilt by the next listing.
    writeFileAtomic(path, JSON.stringify({ format: FORMAT, rows: out }), { durable: false });
  } catch {
    // Only the next listing's speed depends on it.
  }
}
