import type { SessionState } from '../core/state';

/** One entry of a listing: a valid session, or a folder whose state could not be trusted. */
export type ListedSession =
  | { readonly kind: 'valid'; readonly id: string; readonly state: SessionState }
  | {
      readonly kind: 'corrupt';
      readonly id: string;
      readonly error: string;
      readonly modifiedAt: Date;
      /** Why the entry is not agent-session's to remove (no state.json, a link), when it is not. */
      readonly notOurs?: string;
    };

/**
 * Where sessions live. The file store is the only implementation today; the interface is what the
 * service needs, so another backend (SQLite, memory for tests) plugs in without touching the rules.
 */
export interface SessionStore {
  /** A human-readable name of where the sessions are (a folder for the file store). */
  readonly location: string;
  /** The state, or null when there is no such session. @throws SessionError E_CORRUPT when it is invalid */
  read(id: string): SessionState | null;
  /** Stores a new session. @throws SessionError E_DUPLICATE when the id exists; nothing is overwritten */
  create(state: SessionState): void;
  /**
   * Read-modify-write under the session's lock, so concurrent updates are never lost.
   * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, or whatever `change` throws (nothing is written then)
   */
  update(id: string, change: (state: SessionState) => SessionState): SessionState;
  /**
   * The most recently active valid session of an agent, when the store can find it without a scan
   * (the file store keeps a per-agent pointer). Absent: the service scans `list()`.
   * @param notAfter sessions whose `last_updated` is later than this (ms since the epoch) are skipped: a clock ahead
   */
  newestOf?(agentName: string, notAfter?: number): SessionState | null;
  /** Optional: the session linked to a Claude Code agent id without a scan (the service scans otherwise). */
  findByClaudeAgent?(claudeAgentId: string): SessionState | null;
  /**
   * Optional: the session a Claude Code agent id was attached to, even when a later agent has resumed it since
   * (its `claude.agent_id` then names that agent). Without it the service finds only current links.
   */
  attachedTo?(claudeAgentId: string): SessionState | null;
  /**
   * Optional: runs `work` holding the locks of one Claude agent id and then of one agent type, so attaching an
   * agent (find, relink or create) is one step among processes. Without it `work` runs as is (one process).
   */
  lockClaudeAgent?<T>(claudeAgentId: string, agentType: string, work: () => T): T;
  /** Optional: the newest valid session of every agent the store keeps a pointer for, without a scan (notAfter: as newestOf). */
  newestPerAgent?(notAfter?: number): SessionState[];
  /** Every session, valid or not, in no particular order. Never throws for one bad session. */
  list(): ListedSession[];
  /**
   * Removes a session under its lock when `shouldRemove` (given its current state, or null when corrupt) agrees.
   * @returns true when it was removed, false when there is no such session
   * @throws SessionError E_REFUSED when the entry is not agent-session's (see notOurs), or the store root is a link
   */
  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean;
  /** Why the entry `id` is not agent-session's to remove, or null when it is a session folder it made. */
  notOurs?(id: string): string | null;
  /** @throws SessionError E_REFUSED when nothing may be removed from this store (its root is a symbolic link) */
  assertRemovable?(): void;
  /** Optional: entries named like the store's own leftovers that hold something else (sweep leaves them alone). */
  foreignEntries?(): { id: string; reason: string }[];
  /** Removes leftovers of killed writers (temp files, half-created folders) older than `olderThanMs`. */
  sweep(olderThanMs: number, now: Date): number;
}
