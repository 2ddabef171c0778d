// The task a session was delegated (issue 44 item 7, issue 43 item 1): the delegation's own words kept on the session,
// and the one rule that keeps a delegation of another task from taking a session that holds a decision or a grant.
import { awaitsPickup } from './rules';
import { permissionStatus } from './permission';
import { cutText } from './text';
import { versionFor, type SessionState, type Task } from './state';

/** Characters kept of a delegation's description (Claude Code's is 3-5 words). */
export const TASK_DESCRIPTION_LIMIT = 200;

/** Characters kept of the start of a delegation's prompt: enough to tell two tasks apart and to read what was asked. */
export const TASK_PROMPT_LIMIT = 500;

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
export function delegatedTaskOf(toolInput: unknown): DelegatedTask | null {
  let input = toolInput;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const fields = input as Record<string, unknown>;
  const description = wordsOf(fields.description, TASK_DESCRIPTION_LIMIT);
  const prompt = wordsOf(fields.prompt, TASK_PROMPT_LIMIT);
  if (description === undefined && prompt === undefined) return null;
  return { ...(description === undefined ? {} : { description }), ...(prompt === undefined ? {} : { prompt }) };
}

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
export function takeover(parked: SessionState, incoming: DelegatedTask | null, now: Date): TakeoverReason {
  if (incoming === null) return 'no_task';
  if (parked.task === undefined || (parked.task.description === undefined && parked.task.prompt === undefined))
    return 'no_parked_task';
  if (!holdsForItsTask(parked, now)) return 'nothing_held';
  return sameTask(parked.task, incoming) ? 'same_task' : 'other_task';
}

/** True unless `takeover` says the delegation's task clearly differs from the one the session holds for. */
export function mayTake(reason: TakeoverReason): boolean {
  return reason !== 'other_task';
}

/**
 * True when the session holds something for its task that another task must not take: it waits in approval (a
 * decision or a permission request), it was approved and its agent has not picked that up yet, or it holds an
 * approved, unexpired grant not spent yet.
 */
export function holdsForItsTask(state: SessionState, now: Date): boolean {
  if (state.phase === 'approval' || awaitsPickup(state)) return true;
  return (state.permission_requests ?? []).some((request) => {
    const status = permissionStatus(request, now);
    return status === 'pending' || status === 'approved';
  });
}

/**
 * Two delegations' tasks are the same unless they clearly differ: the same description (letters' case and runs of
 * white space aside), or the same start of the prompt (as far as the shorter kept start goes, at least 40 characters
 * or the whole of a shorter prompt). A part one of them lacks proves nothing; two tasks with no part to compare are
 * the same.
 */
export function sameTask(a: DelegatedTask, b: DelegatedTask): boolean {
  const compared: boolean[] = [];
  if (a.description !== undefined && b.description !== undefined)
    compared.push(normalized(a.description) === normalized(b.description));
  if (a.prompt !== undefined && b.prompt !== undefined) compared.push(samePromptStart(a.prompt, b.prompt));
  return compared.length === 0 || compared.includes(true);
}

/** The session with the task of the delegation that started or resumed it (a delegation passing it over forgotten). */
export function withTask(state: SessionState, task: DelegatedTask, at: Date): SessionState {
  const current = state.task;
  if (
    current !== undefined &&
    current.passed_over === undefined &&
    current.description === task.description &&
    current.prompt === task.prompt
  )
    return state;
  const kept = current?.passed_over_id === undefined ? {} : { passed_over_id: current.passed_over_id };
  const words = {
    ...(task.description === undefined ? {} : { description: task.description }),
    ...(task.prompt === undefined ? {} : { prompt: task.prompt }),
  };
  const next: SessionState = { ...state, task: { ...words, at: at.toISOString(), ...kept } };
  return { ...next, schema_version: versionFor(next) };
}

/**
 * A new session made because its delegation passed over `passedOverId` (`takeover` said `other_task`), saying so: while
 * it is its type's newest session, a delegation of that session's task carries that one on (service/sessions.ts).
 */
export function withPassedOverId(state: SessionState, passedOverId: string, at: Date): SessionState {
  const task: Task = { ...(state.task ?? { at: at.toISOString() }), passed_over_id: passedOverId };
  return { ...state, task, schema_version: versionFor({ ...state, task }) };
}

/**
 * May a delegation of `incoming` carry on `kept`, the session its type's newest one was made beside (it was passed
 * over): it still holds its decision or grant, and the task is its own (`takeover` says `same_task`).
 */
export function carriesOn(kept: SessionState, incoming: DelegatedTask | null, now: Date): boolean {
  return takeover(kept, incoming, now) === 'same_task';
}

/**
 * The session with `incoming`, a delegation of another task that did not take it (`takeover` said `other_task`),
 * recorded: the next start of its agent type takes a fresh session (service/claude-attach.ts) and the session keeps
 * its decision or grant for its own task.
 */
export function withPassedOver(state: SessionState, incoming: DelegatedTask, at: Date): SessionState {
  const words = {
    ...(incoming.description === undefined ? {} : { description: incoming.description }),
    ...(incoming.prompt === undefined ? {} : { prompt: incoming.prompt }),
  };
  const task: Task = { ...state.task!, passed_over: { ...words, at: at.toISOString() } };
  return { ...state, task, schema_version: versionFor({ ...state, task }) };
}

/** True when a delegation of another task passed the session over since its own task's last delegation. */
export function passedOver(state: SessionState): boolean {
  return state.task?.passed_over !== undefined;
}

/** The task in one line: the description, then the start of the prompt; null when none is recorded. */
export function taskLine(task: DelegatedTask | undefined): string | null {
  if (task === undefined) return null;
  const { description, prompt } = task;
  if (description !== undefined && prompt !== undefined) return `${description}: ${oneLine(prompt)}`;
  return description ?? (prompt === undefined ? null : oneLine(prompt));
}

// --- internal ---

/** The shortest prompt start compared whole; longer ones compare their first PROMPT_PREFIX characters. */
const PROMPT_PREFIX = 120;
const PROMPT_MINIMUM = 40;

function samePromptStart(a: string, b: string): boolean {
  const [x, y] = [normalized(a), normalized(b)];
  const length = Math.min(x.length, y.length, PROMPT_PREFIX);
  // A prompt shorter than the minimum is compared whole: "fix it" is not the start of "fix it and delete the repo".
  if (length < PROMPT_MINIMUM) return x === y;
  return x.slice(0, length) === y.slice(0, length);
}

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function wordsOf(value: unknown, limit: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : cutText(trimmed, limit);
}
