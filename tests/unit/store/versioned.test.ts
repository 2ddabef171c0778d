// The compare-and-swap loop of the shared stores (src/store/versioned.ts): a writer that keeps losing the race
// holds the row (`exclusive`) after LOCK_AFTER lost attempts, and gives up with E_BUSY only after CAS_ATTEMPTS.
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import {
  CAS_ATTEMPTS,
  LOCK_AFTER,
  updateByVersion,
  type VersionedRow,
  type VersionedRows,
} from '../../../src/store/versioned';

/** Rows of one session whose first `losses` unlocked writes lose the race; what was asked is recorded. */
function rows(losses: number, withExclusive: boolean): VersionedRows & { calls: string[] } {
  let state: SessionState = newSession(
    { agent_id: 'shared', agent_name: 'writer', purpose: 'p' },
    new Date('2026-01-01T00:00:00Z'),
  );
  let version = 1;
  let inside = false;
  const calls: string[] = [];
  const row = (): VersionedRow => ({ version: String(version), state, problem: null, writtenAt: new Date(0) });
  return {
    calls,
    location: 'test rows',
    readVersioned: async (_id, lock) => {
      calls.push(lock === true ? 'read locked' : 'read');
      return row();
    },
    writeVersioned: async (_id, expected, next) => {
      calls.push(inside ? 'write locked' : 'write');
      if (!inside && losses > 0) {
        losses--;
        version++;
        return false;
      }
      if (expected !== String(version)) return false;
      state = next;
      version++;
      return true;
    },
    removeVersioned: async () => false,
    ...(withExclusive
      ? {
          exclusive: async <T>(_id: string, work: () => Promise<T>): Promise<T> => {
            calls.push('exclusive');
            inside = true;
            try {
              return await work();
            } finally {
              inside = false;
            }
          },
        }
      : {}),
  };
}

const touch = (state: SessionState): SessionState => ({ ...state, metadata: { touched: true } });

describe('updateByVersion', () => {
  it.each([0, 1, LOCK_AFTER - 1])(
    'writes optimistically when it lost %i races, never holding the row',
    async (losses) => {
      const store = rows(losses, true);
      const next = await updateByVersion(store, 'shared', touch);
      expect(next.metadata).toEqual({ touched: true });
      expect(store.calls).not.toContain('exclusive');
      expect(store.calls.filter((call) => call === 'write')).toHaveLength(losses + 1);
    },
  );

  it('holds the row after LOCK_AFTER lost races, and its write goes through', async () => {
    const store = rows(1000, true);
    const next = await updateByVersion(store, 'shared', touch);
    expect(next.metadata).toEqual({ touched: true });
    expect(store.calls.filter((call) => call === 'write')).toHaveLength(LOCK_AFTER);
    expect(store.calls.slice(-3)).toEqual(['exclusive', 'read locked', 'write locked']);
  });

  it('without `exclusive` (a store with no transactions), gives up with E_BUSY after CAS_ATTEMPTS', async () => {
    const store = rows(1000, false);
    await expect(updateByVersion(store, 'shared', touch)).rejects.toMatchObject({ code: 'E_BUSY' });
    expect(store.calls.filter((call) => call === 'write')).toHaveLength(CAS_ATTEMPTS);
  });
});
