import { importedState } from '../core/decision';
import { SessionError } from '../core/errors';
import type { DecisionOrigin } from '../core/origin';
import type { SessionState } from '../core/state';
import { withoutGrants } from '../core/permission';
import type { SessionStore } from './store';

/** What `copySessions` needs of each store: its listing, create and remove, its clock, the name of where it is. */
export type CopyStore = Pick<SessionStore, 'location' | 'list' | 'create' | 'remove' | 'now'>;

/** What a copy did. */
export interface CopyResult {
  /** Sessions written to the target, in the order copied. */
  readonly copied: readonly string[];
  /** Entries of the source that could not be trusted (corrupt, not ours): not copied, with why. */
  readonly skipped: readonly { readonly id: string; readonly error: string }[];
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
export async function copySessions(from: CopyStore, to: CopyStore, origin: () => DecisionOrigin): Promise<CopyResult> {
  const source = await from.list();
  const valid = source.flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
  const skipped = source.flatMap((entry) => (entry.kind === 'corrupt' ? [{ id: entry.id, error: entry.error }] : []));
  const present = new Set((await to.list()).map((entry) => entry.id));
  const clashes = valid.filter((state) => present.has(state.agent_id)).map((state) => state.agent_id);
  if (clashes.length > 0) {
    throw new SessionError(
      'E_DUPLICATE',
      `Not copying: ${to.location} already holds ${clashes.length} of these session ids (e.g. \`${clashes[0]}\`); ` +
        'nothing was written',
    );
  }
  const states = await marked(valid, to, origin, from.location);
  const copied: string[] = [];
  for (const state of states) {
    try {
      // A permission grant is made by `approve` on the target only (issue 33): a live one is copied expired.
      await to.create(withoutGrants(state));
    } catch (error) {
      if (copied.length === 0) throw error;
      throw await undone(error, copied, states.length, to);
    }
    copied.push(state.agent_id);
  }
  return { copied, skipped };
}

// --- internal ---

/** The sessions as they will be written: decisions marked imported (all checked before anything is written). */
async function marked(
  valid: readonly SessionState[],
  to: CopyStore,
  origin: () => DecisionOrigin,
  location: string,
): Promise<SessionState[]> {
  if (!valid.some((state) => (state.decisions ?? []).length > 0)) return [...valid];
  const own = origin();
  const at = await to.now();
  return valid.map((state) => importedState(state, own, at, location, 'copy'));
}

/** The error of a copy stopped after `copied`, once those are removed again (or naming those that could not be). */
async function undone(error: unknown, copied: readonly string[], total: number, to: CopyStore): Promise<SessionError> {
  const left: string[] = [];
  for (const id of copied) {
    try {
      await to.remove(id);
    } catch {
      left.push(id);
    }
  }
  const why = error instanceof Error ? error.message : String(error);
  const code = error instanceof SessionError ? error.code : 'E_IO';
  const outcome =
    left.length === 0
      ? `the ${copied.length} written before were removed again: nothing was copied`
      : `${copied.length - left.length} written before were removed again; ${left.length} could not be and stay in ${to.location}: ${left.join(', ')}`;
  return new SessionError(code, `Copy stopped at session ${copied.length + 1} of ${total} (${why}); ${outcome}`, {
    cause: error,
  });
}
