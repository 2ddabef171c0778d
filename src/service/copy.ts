import { SessionError } from '../core/errors';
import { withoutGrants } from '../core/permission';
import type { SessionStore } from './store';

/** What `copySessions` needs of each store: its listing, create, and the name of where it is. */
export type CopyStore = Pick<SessionStore, 'location' | 'list' | 'create'>;

/** What a copy did. */
export interface CopyResult {
  /** Sessions written to the target, in the order copied. */
  readonly copied: readonly string[];
  /** Entries of the source that could not be trusted (corrupt, not ours): not copied, with why. */
  readonly skipped: readonly { readonly id: string; readonly error: string }[];
}

/**
 * Copies every valid session of `from` into `to`, as it is (every field, the Claude Code link too) but for a live
 * permission grant, which is copied expired (core/permission.ts withoutGrants): a copy back gives identical sessions. Refuses the whole copy (E_DUPLICATE, nothing written) when the target already holds any of the
 * ids, and never overwrites: a session created in the target meanwhile stops the copy there (E_DUPLICATE, naming what
 * was copied). Corrupt entries of the source are skipped and reported.
 * @throws SessionError E_DUPLICATE; whatever the stores throw (E_IO, E_USAGE for a state a store cannot hold)
 */
export async function copySessions(from: CopyStore, to: CopyStore): Promise<CopyResult> {
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
  const copied: string[] = [];
  for (const state of valid) {
    try {
      // A permission grant is made by `approve` on the target only (issue 33): a live one is copied expired.
      await to.create(withoutGrants(state));
    } catch (error) {
      if (copied.length === 0) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new SessionError(
        error instanceof SessionError ? error.code : 'E_IO',
        `Copy stopped after ${copied.length} of ${valid.length} sessions: ${why}`,
        { cause: error },
      );
    }
    copied.push(state.agent_id);
  }
  return { copied, skipped };
}
