import { type SessionState } from './state';
/** Characters kept of a delegation's description (Claude Code's is 3-5 words). */
export declare const TASK_DESCRIPTION_LIMIT = 200;
/** Characters kept of the start of a delegation's prompt: enough to tell two tasks apart and to read what was asked. */
export declare const TASK_PROMPT_LIMIT = 500;
/** A delegation's words for its task, as the host gave them (each cut to its limit; at least one present). */
export interface DelegatedTask {
    readonly description?: string;
    readonly prompt?: string;
}
/**
 * The task of a delegation tool's input (Claude Code's and the Agent SDK's Agent/Task tool, opencode's `task`: the
 * `description` and `prompt` strings, cut to their limits), or null when it names neither. A JSON string is read as the
 * object it holds (some hosts and wrappers pass tool_input so).
 */
export declare function delegatedTaskOf(toolInput: unknown): DelegatedTask | null;
/**
 * Why a delegation may, or may not, take the parked session it would resume:
 * - `no_task`: the delegation's task is unknown (a host that gives none, the seed protocol): as before this rule;
 * - `no_parked_task`: the session's task was never recorded (an older session): nothing to compare;
 * - `nothing_held`: the session holds no decision or grant of its task (see `holdsForItsTask`): as before;
 * - `same_task`: the two tasks are the same (see `sameTask`);
 * - `other_task`: the session holds a decision or a grant, and the delegation's task clearly differs: not taken.
 */
export type TakeoverReason = 'no_task' | 'no_parked_task' | 'nothing_held' | 'same_task' | 'other_task';
/**
 * May a delegation of `incoming` take `parked`, a session the resume rules let it take (core/parking.ts)? Only a
 * session holding a decision or a grant for its own task is guarded, and only from a task that clearly differs: the
 * main agent that delegates the parked task again, however it rewords one of its two parts, resumes it as before.
 */
export declare function takeover(parked: SessionState, incoming: DelegatedTask | null, now: Date): TakeoverReason;
/** True unless `takeover` says the delegation's task clearly differs from the one the session holds for. */
export declare function mayTake(reason: TakeoverReason): boolean;
/**
 * True when the session holds something for its task that another task must not take: it waits in approval (a
 * decision or a permission request), it was approved and its agent has not picked that up yet, or it holds an
 * approved, unexpired grant not spent yet.
 */
export declare function holdsForItsTask(state: SessionState, now: Date): boolean;
/**
 * Two delegations' tasks are the same unless they clearly differ: the same description (letters' case and runs of
 * white space aside), or the same start of the prompt (as far as the shorter kept start goes, at least 40 characters
 * or the whole of a shorter prompt). A part one of them lacks proves nothing; two tasks with no part to compare are
 * the same.
 */
export declare function sameTask(a: DelegatedTask, b: DelegatedTask): boolean;
/** The session with the task of the delegation that started or resumed it (a delegation passing it over forgotten). */
export declare function withTask(state: SessionState, task: DelegatedTask, at: Date): SessionState;
/**
 * A new session made because its delegation passed over `passedOverId` (`takeover` said `other_task`), saying so: while
 * it is its type's newest session, a delegation of that session's task carries that one on (service/sessions.ts).
 */
export declare function withPassedOverId(state: SessionState, passedOverId: string, at: Date): SessionState;
/**
 * May a delegation of `incoming` carry on `kept`, the session its type's newest one was made beside (it was passed
 * over): it still holds its decision or grant, and the task is its own (`takeover` says `same_task`).
 */
export declare function carriesOn(kept: SessionState, incoming: DelegatedTask | null, now: Date): boolean;
/**
 * The session with `incoming`, a delegation of another task that did not take it (`takeover` said `other_task`),
 * recorded: the next start of its agent type takes a fresh session (service/claude-attach.ts) and the session keeps
 * its decision or grant for its own task.
 */
export declare function withPassedOver(state: SessionState, incoming: DelegatedTask, at: Date): SessionState;
/** True when a delegation of another task passed the session over since its own task's last delegation. */
export declare function passedOver(state: SessionState): boolean;
/** The task in one line: the description, then the start of the prompt; null when none is recorded. */
export declare function taskLine(task: DelegatedTask | undefined): string | null;
