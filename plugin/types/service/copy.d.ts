import type { DecisionOrigin } from '../core/origin';
import type { SessionStore } from './store';
/** What `copySessions` needs of each store: its listing, create and remove, its clock, the name of where it is. */
export type CopyStore = Pick<SessionStore, 'location' | 'list' | 'create' | 'remove' | 'now'>;
/** What a copy did. */
export interface CopyResult {
    /** Sessions written to the target, in the order copied. */
    readonly copied: readonly string[];
    /** Entries of the source that could not be trusted (corrupt, not ours): not copied, with why. */
    readonly skipped: readonly {
        readonly id: string;
        readonly error: string;
    }[];
}
/**
 * Copies every valid session of `from` into `to`, as it is (every field, the Claude Code link too), but for a live
 * permission grant, which is copied expired (core/permission.ts withoutGrants), and for its decisions, which are
 * marked imported (core/decision.ts importedState: by the copying OS user, at the target's clock,
 * from the source store): a decision recorded elsewhere is never shown as taken here. Refused from a detected AI
 * agent's shell when any session holds a decision (E_AGENT_SHELL), and when the target already holds any of the ids
 * (E_DUPLICATE): nothing written. All or nothing: when a write fails part-way (a state the target refuses, a session
 * created there meanwhile), the sessions this copy wrote are removed again and the error says so; should a removal
 * fail too, it names exactly the sessions left in the target. Corrupt entries of the source are skipped and reported.
 * @param origin where the copy is made from (the process's facts), asked only when a session holds a decision
 * @throws SessionError E_DUPLICATE, E_AGENT_SHELL; whatever the stores throw (E_IO, E_USAGE for a state a store cannot
 *   hold), with what was undone
 */
export declare function copySessions(from: CopyStore, to: CopyStore, origin: () => DecisionOrigin): Promise<CopyResult>;
