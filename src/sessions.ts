import { SessionError, isSessionError, show } from './core/errors';
import { capHistory, DEFAULT_HISTORY_CAP, withResume } from './core/history';
import { withClaudeLink, type ClaudeLinkChange } from './core/claude-link';
import { assertValidId, generateId } from './core/ids';
import { DEFAULT_LIMITS, type Limits } from './core/limits';
import { isFinalPhase, type FinalPhase } from './core/phase-names';
import { resumeVerdict } from './core/phases';
import type { ResumeReason } from './core/rules';
import { applyChange, finalizeState, newSession, type SessionChange } from './core/session';
import type { Metadata, SessionState } from './core/state';
import { randomHex8 } from './platform/random';
import type { SessionStore } from './store/store';

/** What the service needs from outside: a store, and (for tests) the clock and randomness. */
export interface SessionsOptions {
  readonly store: SessionStore;
  readonly limits?: Limits;
  /** History entries a session keeps (the newest); default 200. */
  readonly historyCap?: number;
  readonly now?: () => Date;
  readonly randomHex?: () => string;
}

/** The resume decision for one session, with the state it was made on (one read: no TOCTOU). */
export interface ResumeDecision {
  readonly should_resume: boolean;
  readonly reason: ResumeReason;
  readonly agent_id: string;
  readonly state?: SessionState;
  /** Why the state is invalid, when reason is `invalid_state`. */
  readonly problem?: string;
  /** Why an approved resume could not be recorded (the store could not be written); the answer stands. */
  readonly unrecorded?: string;
}

/** A listed session with its resume answer at listing time. */
export type ListEntry =
  | { readonly kind: 'valid'; readonly id: string; readonly state: SessionState; readonly resumable: boolean; readonly reason: ResumeReason }
  | { readonly kind: 'corrupt'; readonly id: string; readonly error: string; readonly modifiedAt: Date };

export interface CleanupResult {
  /** Valid sessions removed (or that would be, with dryRun). */
  readonly removed: readonly string[];
  /** Corrupt sessions removed, judged by file time. */
  readonly corruptRemoved: readonly string[];
  /** Temp files and half-created folders of killed writers removed. */
  readonly leftovers: number;
  /** Stale sessions that could not be removed this time (busy or unwritable); the others were. */
  readonly failed: readonly { readonly id: string; readonly error: string }[];
}

const LEFTOVER_AGE_MS = 60_000;

/** Aborts the locked write in `resume` when the answer is no: nothing is recorded then. */
class NotResumable extends Error {}

/**
 * The session operations, on one store. Both the CLI and the hooks call these, so a decision is made
 * in one place. Every method takes ids as given by a user and checks them before touching the disk.
 */
export class Sessions {
  readonly store: SessionStore;
  readonly limits: Limits;
  readonly historyCap: number;
  readonly #now: () => Date;
  readonly #randomHex: () => string;

  constructor(options: SessionsOptions) {
    this.store = options.store;
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.historyCap = options.historyCap ?? DEFAULT_HISTORY_CAP;
    this.#now = options.now ?? (() => new Date());
    this.#randomHex = options.randomHex ?? randomHex8;
  }

  /**
   * Creates a session in `initializing`. Without an id one is generated.
   * @throws SessionError E_USAGE for a bad id or name, E_DUPLICATE when the id exists
   */
  create(input: { agent_name: string; purpose: string; metadata?: Metadata; id?: string }): SessionState {
    if (input.agent_name.trim() === '') throw new SessionError('E_USAGE', `Expected \`agent\` to be a non-empty name, got ${show(input.agent_name)}`);
    const now = this.#now();
    if (input.id !== undefined) {
      const state = newSession({ ...input, agent_id: assertValidId(input.id, 'id') }, now);
      this.store.create(state);
      return state;
    }
    return this.#createUnderNewId((agent_id) => newSession({ ...input, agent_id }, now));
  }

  /** The state of a session. @throws SessionError E_NOT_FOUND, E_CORRUPT */
  get(id: string): SessionState {
    const state = this.store.read(assertValidId(id));
    if (state === null) throw new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
    return state;
  }

  /** Applies a phase change, metadata merge and/or error under the session lock. */
  update(id: string, change: SessionChange): SessionState {
    return this.store.update(assertValidId(id), (state) => capHistory(applyChange(state, change, this.#now()), this.historyCap));
  }

  /** Ends a session. @throws SessionError E_ILLEGAL_TRANSITION when it is already final */
  finalize(id: string, outcome: FinalPhase, summary?: string): SessionState {
    return this.store.update(assertValidId(id), (state) => capHistory(finalizeState(state, outcome, summary, this.#now()), this.historyCap));
  }

  /**
   * Records, under the session's lock, that a hook approved resuming it: a `resume` history entry that
   * keeps the phase (so the history chain holds), and the session marked active.
   * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, E_ILLEGAL_TRANSITION when it is final
   */
  recordResume(id: string): SessionState {
    return this.store.update(assertValidId(id), (state) => capHistory(withResume(state, this.#now()), this.historyCap));
  }

  /**
   * Decides whether to resume a session and, when the answer is yes, records the resume. A "yes" is decided
   * again under the session's lock and recorded in the same write, so the decision and the record see the same
   * state (no check-then-act gap); a "no" needs no lock. The decision's
   * `state` is the one it was made on (before the record), so callers report the previous activity time.
   * Never throws for a missing or corrupt session.
   */
  resume(id: string): ResumeDecision {
    // Most answers are "no": a plain read decides those without taking the lock.
    const first = this.shouldResume(id);
    if (!first.should_resume) return first;
    let decision: ResumeDecision | undefined;
    try {
      this.store.update(first.agent_id, (state) => {
        decision = this.decide(state);
        if (!decision.should_resume) throw new NotResumable();
        return capHistory(withResume(state, this.#now()), this.historyCap);
      });
    } catch (error) {
      if (error instanceof NotResumable && decision) return decision;
      // Removed or damaged since the first read: answer on what is there now.
      if (isSessionError(error, 'E_NOT_FOUND') || isSessionError(error, 'E_CORRUPT')) return this.shouldResume(first.agent_id);
      // The record is bookkeeping: a store we cannot write now (read-only, full, locked by a long writer)
      // must not turn a resumable session into "no". The plain read's answer stands, unrecorded.
      if (isSessionError(error, 'E_IO') || isSessionError(error, 'E_BUSY')) return { ...first, unrecorded: error.message };
      throw error;
    }
    return decision!;
  }

  /**
   * Stores a session read from elsewhere (an export), as it is (less its Claude Code link) or under a new
   * generated id. Never overwrites.
   * @throws SessionError E_DUPLICATE when the id exists (without `newId`)
   */
  importSession(exported: SessionState, options: { newId?: boolean } = {}): SessionState {
    // A Claude Code link names an agent of the exporting machine's Claude session; kept, two sessions could claim
    // one agent (its stop would land on the copy) or one could wait forever for an agent that never stops here.
    const { claude: _link, ...state } = exported;
    if (!options.newId) {
      const imported = capHistory({ ...state, agent_id: assertValidId(state.agent_id) }, this.historyCap);
      this.store.create(imported);
      return imported;
    }
    return this.#createUnderNewId((agent_id) => capHistory({ ...state, agent_id }, this.historyCap));
  }

  /** Whether a session may be resumed, and why; never throws for a missing or corrupt session. */
  shouldResume(id: string): ResumeDecision {
    const agent_id = assertValidId(id);
    let state: SessionState | null;
    try {
      state = this.store.read(agent_id);
    } catch (error) {
      if (!isSessionError(error, 'E_CORRUPT')) throw error;
      return { should_resume: false, reason: 'invalid_state', agent_id, problem: error.message };
    }
    if (state === null) return { should_resume: false, reason: 'session_not_found', agent_id };
    return this.decide(state);
  }

  /** The resume decision on a state already read. */
  decide(state: SessionState): ResumeDecision {
    const reason = resumeVerdict(state, this.#now(), this.limits);
    return { should_resume: reason === 'session_resumable', reason, agent_id: state.agent_id, state };
  }

  /** The most recently active valid session of an agent, or null. */
  newestOf(agentName: string): SessionState | null {
    return this.store.newestOf(agentName);
  }

  /**
   * The session linked to a Claude Code agent id (the most recently active one if several are), or null.
   */
  findByClaudeAgent(claudeAgentId: string): SessionState | null {
    return this.store.findByClaudeAgent(claudeAgentId);
  }

  /**
   * Links a session to a Claude Code agent, or updates that link, under the session lock. `accept` is
   * checked on the state read under the lock, so a session changed meanwhile is not linked by mistake.
   * With `resumed`, the same write records a resume in the history.
   * @throws SessionError E_NOT_FOUND, E_ILLEGAL_TRANSITION (final, or `accept` refused), E_CORRUPT, E_BUSY
   */
  linkClaude(id: string, change: ClaudeLinkChange, accept?: (state: SessionState) => boolean, options: { resumed?: boolean } = {}): SessionState {
    return this.store.update(assertValidId(id), (state) => {
      if (accept !== undefined && !accept(state)) {
        throw new SessionError('E_ILLEGAL_TRANSITION', `Session \`${id}\` changed and can no longer be linked`);
      }
      const linked = withClaudeLink(state, change, this.#now());
      // A parked session handed to a new Claude agent is a resume: recorded in the same write (for `stats`).
      return options.resumed ? capHistory(withResume(linked, this.#now()), this.historyCap) : linked;
    });
  }

  /**
   * Sessions, most recently active first, corrupt ones last. `activeOnly` keeps sessions not in a final
   * phase and `agent` one agent's; corrupt sessions are always returned (their phase and agent are unknown),
   * so the caller decides whether to show them or warn.
   */
  list(filter: { activeOnly?: boolean; agent?: string } = {}): ListEntry[] {
    const now = this.#now();
    const entries: ListEntry[] = [];
    for (const entry of this.store.list()) {
      if (entry.kind === 'corrupt') {
        entries.push(entry);
        continue;
      }
      const { state } = entry;
      if (filter.activeOnly && isFinalPhase(state.phase)) continue;
      if (filter.agent !== undefined && state.agent_name !== filter.agent) continue;
      const reason = resumeVerdict(state, now, this.limits);
      entries.push({ ...entry, resumable: reason === 'session_resumable', reason });
    }
    return entries.sort(byActivity);
  }

  /**
   * Removes sessions idle longer than `hours` (any phase), corrupt sessions whose files are older than that,
   * and leftovers of killed writers. Each removal re-checks the session under its lock, so a session
   * touched while cleanup runs is kept.
   */
  cleanup(options: { hours: number; dryRun?: boolean }): CleanupResult {
    const now = this.#now();
    const cutoff = now.getTime() - options.hours * 3_600_000;
    const isStale = (state: SessionState | null, modifiedAt: Date): boolean =>
      state === null ? modifiedAt.getTime() < cutoff : Date.parse(state.last_updated) < cutoff;
    const removed: string[] = [];
    const corruptRemoved: string[] = [];
    const failed: { id: string; error: string }[] = [];
    for (const entry of this.store.list()) {
      const stale = entry.kind === 'valid' ? isStale(entry.state, now) : isStale(null, entry.modifiedAt);
      if (!stale) continue;
      let done: boolean;
      try {
        done = options.dryRun ? true : this.store.remove(entry.id, isStale);
      } catch (error) {
        // One session that cannot be removed now (locked, unwritable) must not stop the hourly run for the rest.
        if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
        failed.push({ id: entry.id, error: error.message });
        continue;
      }
      if (done) (entry.kind === 'valid' ? removed : corruptRemoved).push(entry.id);
    }
    const leftovers = options.dryRun ? 0 : this.store.sweep(LEFTOVER_AGE_MS, now);
    return { removed, corruptRemoved, leftovers, failed };
  }

  /** Deletes a session. @throws SessionError E_NOT_FOUND */
  delete(id: string): void {
    if (!this.store.remove(assertValidId(id))) throw new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
  }

  // --- internal ---

  /** Stores the state `build` makes under a freshly generated id. */
  #createUnderNewId(build: (agent_id: string) => SessionState): SessionState {
    // 32 random bits per second make a clash unlikely; a clash is retried with new bits, never overwritten.
    for (let attempt = 0; ; attempt++) {
      const state = build(generateId(this.#now(), this.#randomHex()));
      try {
        this.store.create(state);
        return state;
      } catch (error) {
        if (!isSessionError(error, 'E_DUPLICATE') || attempt >= 4) throw error;
      }
    }
  }
}

// --- internal ---

function activityOf(entry: ListEntry): number {
  return entry.kind === 'valid' ? Date.parse(entry.state.last_updated) : -Infinity;
}

function byActivity(a: ListEntry, b: ListEntry): number {
  const x = activityOf(a);
  const y = activityOf(b);
  if (x !== y) return x < y ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
