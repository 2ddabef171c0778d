import { type FinalPhase, type Phase } from './phase-names';
import { type Metadata, type SessionState } from './state';
/** What `create` needs; the id is chosen (and checked) by the caller. */
export interface NewSession {
    readonly agent_id: string;
    readonly agent_name: string;
    readonly purpose: string;
    readonly metadata?: Metadata;
    /** The project it belongs to (core/project.ts); absent: none (the file store's folder's, for that store). */
    readonly project?: string;
}
/** One update: any mix of a phase change, a metadata merge and an error. None of them is a touch. */
export interface SessionChange {
    readonly phase?: Phase;
    readonly metadata?: Metadata;
    readonly error?: string;
}
/** A fresh session in `initializing`. */
export declare function newSession(input: NewSession, now: Date): SessionState;
/**
 * Applies one update. A move to the current working phase adds no history entry; a move to a final
 * phase finalizes the session. Metadata is shallow-merged, and the merge stays within MAX_METADATA_BYTES; an error
 * adds 1 to `error_count`.
 * @throws SessionError E_ILLEGAL_TRANSITION when the machine refuses the move, or the session is final; E_USAGE when
 *   the merged metadata would pass the limit
 */
export declare function applyChange(state: SessionState, change: SessionChange, now: Date): SessionState;
/**
 * Ends a session in `outcome`, recording finalized_at, duration_seconds, a history entry and the summary.
 * @throws SessionError E_ILLEGAL_TRANSITION when the session is already final
 */
export declare function finalizeState(state: SessionState, outcome: FinalPhase, summary: string | undefined, now: Date): SessionState;
/**
 * Checks a user-given phase name.
 * @throws SessionError E_USAGE naming the value and the phases
 */
export declare function parsePhase(value: unknown, name?: string): Phase;
