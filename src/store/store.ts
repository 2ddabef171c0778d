import type { SessionState } from '../core/state';

/** One entry of a listing: a valid session, or a folder whose state could not be trusted. */
export type ListedSession =
  | { readonly kind: 'valid'; readonly id: string; readonly state: SessionState }
  | { readonly kind: 'corrupt'; readonly id: string; readonly error: string; readonly modifiedAt: Date };

/**
 * Where sessions live: the file store (file-store.ts) and the memory store (memory-store.ts) implement it, and
 * every implementation passes the one contract suite in tests/contract/. Every method is required, so the service
 * never falls back to a scan of its own.
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
   * The most recently active valid session of an agent (later `last_updated`, then later `created_at`), or null.
   * Corrupt entries are ignored. A store may answer from an index (the file store keeps a per-agent pointer).
   */
  newestOf(agentName: string): SessionState | null;
  /** The valid session linked to a Claude Code agent id (the most recently active one if several are), or null. */
  findByClaudeAgent(claudeAgentId: string): SessionState | null;
  /** Every session, valid or not, in no particular order. Never throws for one bad session. */
  list(): ListedSession[];
  /**
   * Removes a session under its lock when `shouldRemove` (given its current state, or null when corrupt) agrees.
   * @returns true when it was removed
   */
  remove(id: string, shouldRemove?: (state: SessionState | null, modifiedAt: Date) => boolean): boolean;
  /** Removes leftovers of killed writers (temp files, half-created folders) older than `olderThanMs`. */
  sweep(olderThanMs: number, now: Date): number;
}
