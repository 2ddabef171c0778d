import { codeOfAsync } from '../../helpers';
import { newSession } from '../../../src/core/session';
import type { DecisionOrigin } from '../../../src/core/origin';
import type { SessionState } from '../../../src/core/state';
import { copySessions, type CopyStore } from '../../../src/service/copy';
import { MemoryStore } from '../../../src/store/memory-store';

const NOW = new Date('2026-11-28T06:00:00.000Z');
const USER: DecisionOrigin = { os_user: 'bob', terminal: true, agent_shell: null };
const AGENT: DecisionOrigin = {
  os_user: 'bob',
  terminal: false,
  agent_shell: "Claude Code's environment variable CLAUDECODE is set",
};

const session = (n: number): SessionState =>
  newSession({ agent_id: `agent-20261128-000000-0000000${n}`, agent_name: 'dev', purpose: 'p' }, NOW);

/** A session in executing approved by a decision claiming another OS user at a terminal. */
function decided(n: number): SessionState {
  const state = session(n);
  return {
    ...state,
    schema_version: 3,
    phase: 'executing',
    decisions: [
      {
        decision: 'approved',
        by: 'alice',
        at: NOW.toISOString(),
        to_phase: 'executing',
        waiting_since: NOW.toISOString(),
        origin: { os_user: 'alice', terminal: true, claimed: false },
      },
    ],
  };
}

async function storeWith(states: SessionState[], location: string): Promise<MemoryStore> {
  const store = new MemoryStore({ location, now: () => NOW, home: null });
  for (const state of states) await store.create(state);
  return store;
}

const ids = async (store: CopyStore) => (await store.list()).map((entry) => entry.id).sort();

describe('copySessions', () => {
  it('copies every session; a decision comes in marked imported, by whom, when, from where', async () => {
    const from = await storeWith([session(1), decided(2)], 'source');
    const to = await storeWith([], 'target');
    const result = await copySessions(from, to, () => USER);
    expect([...result.copied].sort()).toEqual(await ids(from));
    const copied = await to.read(decided(2).agent_id);
    expect(copied!.schema_version).toBe(7);
    expect(copied!.decisions![0]).toMatchObject({
      origin: { os_user: 'alice', terminal: true },
      imported: { by: 'bob', at: NOW.toISOString(), from: 'source' },
    });
    expect(await to.read(session(1).agent_id)).toEqual(session(1));
  });

  it('from an agent shell: refused when a session holds a decision, nothing written', async () => {
    const from = await storeWith([session(1), decided(2)], 'source');
    const to = await storeWith([], 'target');
    expect(await codeOfAsync(() => copySessions(from, to, () => AGENT))).toBe('E_AGENT_SHELL');
    expect(await ids(to)).toEqual([]);
    // Without decisions, nothing to launder: the copy runs (the origin is not even asked).
    const plain = await storeWith([session(3)], 'plain');
    expect(
      (
        await copySessions(plain, to, () => {
          throw new Error('not asked');
        })
      ).copied,
    ).toEqual([session(3).agent_id]);
  });

  it('all or nothing: a write refused part-way removes what the copy wrote, and says so', async () => {
    const from = await storeWith([session(1), session(2), session(3)], 'source');
    const to = await storeWith([], 'target');
    let creates = 0;
    const failing: CopyStore = {
      location: to.location,
      list: () => to.list(),
      now: () => to.now(),
      remove: (id) => to.remove(id),
      create: (state) => (++creates === 3 ? Promise.reject(new Error('refused by the target')) : to.create(state)),
    };
    const error = await copySessions(from, failing, () => USER).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'E_IO' });
    expect((error as Error).message).toContain('nothing was copied');
    expect(await ids(to)).toEqual([]);
    // A rerun is not refused for ids a failed copy left behind.
    expect((await copySessions(from, to, () => USER)).copied).toHaveLength(3);
  });

  it('names exactly the sessions it could not remove again', async () => {
    const from = await storeWith([session(1), session(2), session(3)], 'source');
    const to = await storeWith([], 'target');
    let creates = 0;
    const stuck = session(1).agent_id;
    const failing: CopyStore = {
      location: to.location,
      list: () => to.list(),
      now: () => to.now(),
      remove: (id) => (id === stuck ? Promise.reject(new Error('EACCES')) : to.remove(id)),
      create: (state) => (++creates === 3 ? Promise.reject(new Error('refused by the target')) : to.create(state)),
    };
    const error = (await copySessions(from, failing, () => USER).catch((e: Error) => e)) as Error;
    expect(error.message).toContain(`1 could not be and stay in target: ${stuck}`);
    expect(await ids(to)).toEqual([stuck]);
  });

  it('refuses the whole copy when the target holds any of the ids', async () => {
    const from = await storeWith([session(1), session(2)], 'source');
    const to = await storeWith([session(2)], 'target');
    expect(await codeOfAsync(() => copySessions(from, to, () => USER))).toBe('E_DUPLICATE');
    expect(await ids(to)).toEqual([session(2).agent_id]);
  });
});
