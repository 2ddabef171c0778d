import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../platform/atomic-file';
import type { SessionState } from '../core/state';

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
}

/** The cache's file in the store root (hidden: not a session). */
export const LISTING_CACHE = '.listing-cache.json';
const FORMAT = 1;

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
  };
}

/** The summaries the cache at `path` holds; none when it is absent or not as written here. */
export function readListingCache(path: string): Map<string, Summary> {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; rows?: unknown };
    if (raw.format !== FORMAT || typeof raw.rows !== 'object' || raw.rows === null) return new Map();
    const rows = new Map<string, Summary>();
    for (const [id, row] of Object.entries(raw.rows as Record<string, unknown>)) {
      if (!Array.isArray(row) || row.length !== 5) continue;
      const [key, project, agent_name, phase, last_updated] = row as unknown[];
      if (typeof key !== 'string' || typeof agent_name !== 'string' || typeof phase !== 'string') continue;
      if (typeof last_updated !== 'string' || (project !== null && typeof project !== 'string')) continue;
      rows.set(id, { key, project, agent_name, phase, last_updated });
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
  for (const [id, row] of rows) out[id] = [row.key, row.project, row.agent_name, row.phase, row.last_updated];
  try {
    // No fsync: a cache a crash loses or tears is rebuilt by the next listing.
    writeFileAtomic(path, JSON.stringify({ format: FORMAT, rows: out }), { durable: false });
  } catch {
    // Only the next listing's speed depends on it.
  }
}
