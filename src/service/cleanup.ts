import { SessionError, isSessionError, show } from '../core/errors';
import { orphanedStartReason } from '../core/claude-link';
import { assertHours } from '../core/input';
import { assertValidId } from '../core/ids';
import { cappable, overCap } from '../core/retention';
import { finalizeState } from '../core/session';
import type { SessionState } from '../core/state';
import type { ProjectView } from './project-view';
import { NotResumable } from './refusals';
import type { AgedEntry, RemovalOutcome } from './store';

// The cleanup use case (`cleanup`, `delete`): what is removed, judged again under each session's lock, and the
// store's own hygiene where it has one (SessionStore.maintenance).

/** Stale sessions removed per call of removeMany, between two reports of progress. */
const REMOVAL_CHUNK = 2_000;

/** Minimum age of a killed writer's leftover before the sweep takes it (a live writer's is younger). */
const LEFTOVER_AGE_MS = 60_000;

export interface CleanupResult {
  /** Valid sessions removed (or that would be, with dryRun). */
  readonly removed: readonly string[];
  /** Corrupt sessions removed, judged by file time. */
  readonly corruptRemoved: readonly string[];
  /** Temp files and half-created folders of killed writers removed (or that would be, with dryRun): how many. */
  readonly leftovers: number;
  /** The same leftovers, each by its path. */
  readonly leftoverPaths: readonly string[];
  /**
   * Sessions finalized `abandoned` (or that would be, with dryRun): left `initializing` by an older version,
   * linked to a Claude agent that stopped or idle past the resume timeout (see `orphanedStartReason`).
   */
  readonly abandoned: readonly string[];
  /** Stale sessions that could not be removed this time (busy or unwritable); the others were. */
  readonly failed: readonly { readonly id: string; readonly error: string }[];
  /**
   * Those of `removed` taken as stale because their `last_updated` is ahead of the store's clock by more than the
   * horizon (`hours`, at least the clock-skew bound): not idle, their clock was ahead (see cleanup).
   */
  readonly clockAhead: readonly string[];
  /** Entries agent-session did not make (no state.json, a link, unknown files): never removed, whatever their age. */
  readonly notOurs: readonly { readonly id: string; readonly reason: string }[];
  /**
   * Finished sessions removed (or that would be, with dryRun) because the project held more than `maxSessions`, oldest
   * first (core/retention.ts overCap); not in `removed`.
   */
  readonly capped: readonly string[];
}

/**
 * Removes sessions idle longer than `hours` (any phase), sessions whose `last_updated` is ahead of the clock by more
 * than that horizon (their idle time is unknown: left alone they would never expire; one a few minutes ahead, after a
 * clock stepped back, is kept and expires as any other once the clock passes it), corrupt sessions whose files are
 * older than `hours`, and leftovers of killed writers. Each removal re-checks the session under its lock, so a
 * session touched while cleanup runs is kept. Only what agent-session made is removed: other entries are reported
 * in `notOurs` and left alone.
 * This project's sessions, or with `allProjects` every session of the store (unassigned ones too). A corrupt entry
 * is judged by the project it names (a newer version's state, one bad field: store.ts inScope), so another project's
 * is left alone, with that project's own horizon; one that names none, and leftovers, in either case.
 * @throws SessionError E_USAGE for options that are not `{hours: a number ≥ 0, dryRun?: boolean}`; E_REFUSED when
 *   the store root is a symbolic link (with dryRun too: it says it would refuse)
 */
export async function cleanup(
  view: ProjectView,
  options: {
    hours: number;
    dryRun?: boolean;
    allProjects?: boolean;
    /** Called after each chunk of removals (or, with dryRun, of checks): how many of how many stale sessions. */
    onProgress?: (done: number, total: number) => void;
    /**
     * Claude Code's unattended retry is on (`CLAUDE_CODE_RETRY_WATCHDOG`): a session whose Claude agent still runs is
     * not abandoned for being idle (see orphanedStartReason); the horizon (`hours`) applies as to any session.
     */
    retryWatchdog?: boolean;
    /**
     * The most sessions this project keeps (`max_sessions`): above it, its oldest finished ones are removed (never
     * one waiting for a decision or a person). Always this project's, even with allProjects. Absent or null: no cap.
     */
    maxSessions?: number | null;
  },
): Promise<CleanupResult> {
  // Library callers are not type-checked: the CLI's rule for hours, and a clear word for anything else.
  if (typeof options !== 'object' || options === null) {
    const got = show(options ?? null);
    throw new SessionError(
      'E_USAGE',
      `Expected the options of \`cleanup\` to be an object {hours, dryRun?}, got ${got}`,
    );
  }
  assertHours(options.hours, 'hours');
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') {
    throw new SessionError('E_USAGE', `Expected \`dryRun\` to be true or false, got ${show(options.dryRun)}`);
  }
  const watchdog = options.retryWatchdog === true;
  const max = options.maxSessions;
  if (max !== undefined && max !== null && !(Number.isSafeInteger(max) && max > 0)) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`maxSessions\` to be a positive whole number or null, got ${show(max)}`,
    );
  }
  const maintenance = view.store.maintenance;
  await maintenance?.assertRemovable();
  const now = await view.store.now();
  const horizonMs = options.hours * 3_600_000;
  const cutoff = now.getTime() - horizonMs;
  // Ahead by more than the horizon, and never within the skew bound (`--hours 0` keeps a session stamped just now).
  const aheadBound = now.getTime() + Math.max(horizonMs, view.limits.clockSkewMinutes * 60_000);
  const isAhead = (state: SessionState): boolean => Date.parse(state.last_updated) > aheadBound;
  const isStale = (state: SessionState | null, modifiedAt: Date): boolean => {
    if (state === null) return modifiedAt.getTime() < cutoff;
    return Date.parse(state.last_updated) < cutoff || isAhead(state);
  };
  const clockAhead: string[] = [];
  const removed: string[] = [];
  const corruptRemoved: string[] = [];
  const abandoned: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const notOurs: { id: string; reason: string }[] = [];
  const staleEntries: AgedEntry[] = [];
  const scope = options.allProjects === true ? undefined : view.scope(false);
  // Only the sessions outside the window are found (on an index: a million sessions are not read to find the stale
  // ones), and every corrupt entry; each is judged again by the store as it is when removed.
  const aged = await view.store.aged(scope, { before: new Date(cutoff), after: new Date(aheadBound) });
  for (const entry of aged) {
    if (entry.kind === 'corrupt' && entry.notOurs !== undefined) {
      notOurs.push({ id: entry.id, reason: entry.notOurs });
      continue;
    }
    const stale =
      entry.kind === 'valid'
        ? Date.parse(entry.last_updated) < cutoff || Date.parse(entry.last_updated) > aheadBound
        : isStale(null, entry.modifiedAt);
    if (stale) staleEntries.push(entry);
  }
  // The file store completes its indexes from a listing taken before the removals (sessions another program wrote
  // have no pointer; those removed since get none); a dry run writes nothing, and lists only if a pointer needs it.
  const listed = maintenance === undefined || options.dryRun === true ? undefined : await view.store.list();
  // Sessions left initializing by a Claude agent that stopped or went idle are abandoned, not removed (unless stale).
  const doomed = new Set(staleEntries.map((entry) => entry.id));
  for (const entry of await view.store.query(scope, { phases: ['initializing'] })) {
    if (entry.kind !== 'valid' || doomed.has(entry.id) || isStale(entry.state, now)) continue;
    if (orphanedStartReason(entry.state, now, view.limits, watchdog) === null) continue;
    try {
      if (options.dryRun || (await abandonOrphan(view, now, entry.id, watchdog))) abandoned.push(entry.id);
    } catch (error) {
      if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
      failed.push({ id: entry.id, error: error.message });
    }
  }
  // Removed in chunks, the progress told after each (a store of 100,000 stale sessions takes a while); a database
  // judges and deletes each chunk in transactions of a few hundred rows, so no hook waits on it for long.
  const outcomes: RemovalOutcome[] = [];
  const ids = staleEntries.map((entry) => entry.id);
  for (let start = 0; start < ids.length; start += REMOVAL_CHUNK) {
    const chunk = ids.slice(start, start + REMOVAL_CHUNK);
    outcomes.push(
      ...(options.dryRun
        ? await Promise.all(
            chunk.map(async (id) => {
              const foreign = (await maintenance?.notOurs(id)) ?? null;
              return foreign === null ? { id, removed: true } : { id, error: new SessionError('E_REFUSED', foreign) };
            }),
          )
        : await view.store.removeMany(chunk, isStale)),
    );
    options.onProgress?.(Math.min(start + REMOVAL_CHUNK, ids.length), ids.length);
  }
  for (const [i, outcome] of outcomes.entries()) {
    const entry = staleEntries[i]!;
    if ('error' in outcome) {
      const { error } = outcome;
      if (isSessionError(error, 'E_REFUSED')) {
        notOurs.push({ id: entry.id, reason: (await maintenance?.notOurs(entry.id)) ?? error.message });
        continue;
      }
      // One session that cannot be removed now (locked, unwritable) must not stop the hourly run for the rest.
      if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
      failed.push({ id: entry.id, error: error.message });
      continue;
    }
    if (!outcome.removed) continue;
    (entry.kind === 'valid' ? removed : corruptRemoved).push(entry.id);
    if (entry.kind === 'valid' && Date.parse(entry.last_updated) > aheadBound) clockAhead.push(entry.id);
  }
  const capped =
    max === undefined || max === null
      ? []
      : await capSessions(view, max, new Set([...removed, ...corruptRemoved]), options.dryRun === true, failed);
  // A dry run names what the real run's sweep would remove, the sessions it would have removed first taken as gone.
  const leftoverPaths =
    maintenance === undefined
      ? []
      : await maintenance.sweep(LEFTOVER_AGE_MS, now, listed, {
          dryRun: options.dryRun === true,
          removing: new Set([...removed, ...corruptRemoved, ...capped]),
        });
  // Named like our leftovers but holding something else: the sweep left them, and the user should know why.
  if (maintenance !== undefined) notOurs.push(...(await maintenance.foreignEntries()));
  return {
    removed,
    corruptRemoved,
    leftovers: leftoverPaths.length,
    leftoverPaths,
    abandoned,
    failed,
    clockAhead,
    notOurs,
    capped,
  };
}

/**
 * Deletes a session.
 * @throws SessionError E_NOT_FOUND; E_REFUSED when the entry is not agent-session's or the store root is a link
 */
export async function deleteSession(view: ProjectView, id: string): Promise<void> {
  await view.store.maintenance?.assertRemovable();
  if (!(await view.store.remove(assertValidId(id))))
    throw new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
}

/**
 * Removes this project's oldest finished sessions above `max` (overCap), each judged again under its lock (still
 * cappable); `gone` are those the run already removed (or, dry, would have). Failures join `failed`.
 */
async function capSessions(
  view: ProjectView,
  max: number,
  gone: ReadonlySet<string>,
  dryRun: boolean,
  failed: { id: string; error: string }[],
): Promise<string[]> {
  const kept: { id: string; state: SessionState }[] = [];
  for (const entry of await view.store.query(view.scope(false), {}))
    if (entry.kind === 'valid' && !gone.has(entry.id)) kept.push(entry);
  const ids = overCap(kept, max);
  if (dryRun || ids.length === 0) return ids;
  const capped: string[] = [];
  for (const outcome of await view.store.removeMany(ids, (state) => state !== null && cappable(state))) {
    if ('error' in outcome) {
      const { error } = outcome;
      if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO') && !isSessionError(error, 'E_REFUSED'))
        throw error;
      failed.push({ id: outcome.id, error: error.message });
    } else if (outcome.removed) capped.push(outcome.id);
  }
  return capped;
}

/** Finalizes a session left initializing, when it still is one under its lock; false when it changed or went. */
async function abandonOrphan(view: ProjectView, now: Date, id: string, watchdog: boolean): Promise<boolean> {
  try {
    await view.write(id, now, (state, at) => {
      const reason = orphanedStartReason(state, now, view.limits, watchdog);
      if (reason === null) throw new NotResumable();
      return finalizeState(state, 'abandoned', reason, at);
    });
    return true;
  } catch (error) {
    if (error instanceof NotResumable || isSessionError(error, 'E_NOT_FOUND') || isSessionError(error, 'E_CORRUPT'))
      return false;
    throw error;
  }
}
