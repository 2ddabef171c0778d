import { DEFAULT_PROJECT } from '../../../src/core/project';
import { codeOfAsync } from '../../helpers';
import { newSession } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { preDelegate } from '../../../src/hooks/seed/seed-protocol';
import type { Sessions } from '../../../src/service/sessions';
import type { MemoryStore } from '../../../src/store/memory-store';
import { memorySessions } from '../../support/sessions';

// Issue 10 item 5: a session whose last_updated is far ahead of the clock must not shadow the agent's real sessions.
let store: MemoryStore;
let sessions: Sessions;
const NOW = new Date('2026-01-08T18:00:00.000Z');
const FUTURE = '2098-01-01T00:00:00.000Z';

function skewed(id: string, agent = 'arch'): SessionState {
  const state = newSession({ agent_id: id, agent_name: agent, purpose: 'p' }, NOW);
  return {
    ...state,
    phase: 'planning',
    resume_ready: true,
    last_updated: FUTURE,
    history: [{ from_phase: 'initializing', to_phase: 'planning', timestamp: FUTURE }],
  };
}

beforeEach(() => {
  ({ sessions, store } = memorySessions({ now: () => NOW }));
});

describe('a session ahead of the clock', () => {
  it.each([
    ['written after the real one (the pointer names it)', true],
    ['written before the real one', false],
  ])('never shadows the agent by name: %s', async (_label, skewedLast) => {
    if (!skewedLast) await store.create(skewed('future'));
    const real = await sessions.create({ agent_name: 'arch', purpose: 'p', id: 'real' });
    await sessions.update(real.agent_id, { phase: 'planning' });
    if (skewedLast) await store.create(skewed('future'));
    // The store's own order still puts the skewed one first: only the service's lookup skips it.
    expect((await store.newestOf(DEFAULT_PROJECT, 'arch'))?.agent_id).toBe('future');
    expect((await sessions.newestOf('arch'))?.agent_id).toBe('real');
    expect(await preDelegate(sessions, { agent_name: 'arch' })).toMatchObject({
      should_resume: true,
      agent_id: 'real',
    });
  });

  it('is the only session: no session for the name', async () => {
    await store.create(skewed('future'));
    expect(await sessions.newestOf('arch')).toBeNull();
    expect(await preDelegate(sessions, { agent_name: 'arch' })).toMatchObject({
      should_resume: false,
      reason: 'no_existing_session',
    });
  });

  it('a session within the skew bound still counts', async () => {
    await store.create({ ...skewed('near'), last_updated: new Date(NOW.getTime() + 30_000).toISOString() });
    expect((await sessions.newestOf('arch'))?.agent_id).toBe('near');
  });

  it('is stale to cleanup, and reported as ahead of the clock', async () => {
    await store.create(skewed('future'));
    await sessions.create({ agent_name: 'arch', purpose: 'p', id: 'real' });
    expect(await sessions.cleanup({ hours: 24, dryRun: true })).toMatchObject({
      removed: ['future'],
      clockAhead: ['future'],
    });
    expect(await sessions.cleanup({ hours: 24 })).toMatchObject({ removed: ['future'], clockAhead: ['future'] });
    expect(await store.read('future')).toBeNull();
    expect(await store.read('real')).not.toBeNull();
  });

  // Issue 30 item 5: a clock stepped back leaves the sessions just written a few minutes ahead of it; they are not
  // stale (one ahead by more than the horizon is, whose idle time is unknown).
  it.each([
    [3 * 60_000, 24, false],
    [23 * 3_600_000, 24, false],
    [25 * 3_600_000, 24, true],
    [3 * 60_000, 0.01, true],
    [30_000, 0, false],
  ])('ahead by %i ms with a horizon of %p h: removed %p', async (aheadMs, hours, removed) => {
    await store.create({ ...skewed('stepped'), last_updated: new Date(NOW.getTime() + aheadMs).toISOString() });
    const expected = removed ? ['stepped'] : [];
    expect(await sessions.cleanup({ hours, dryRun: true })).toMatchObject({ removed: expected, clockAhead: expected });
    expect(await sessions.cleanup({ hours })).toMatchObject({ removed: expected, clockAhead: expected });
    expect((await store.read('stepped')) === null).toBe(removed);
  });

  it('is marked in the listing', async () => {
    await store.create(skewed('future'));
    await sessions.create({ agent_name: 'arch', purpose: 'p', id: 'real' });
    const marks = Object.fromEntries(
      (await sessions.list()).map((entry) => [entry.id, entry.kind === 'valid' && entry.clockAhead]),
    );
    expect(marks).toEqual({ future: true, real: false });
  });

  it.each([
    ['last_updated', (s: SessionState): SessionState => ({ ...s, last_updated: FUTURE })],
    ['created_at', (s: SessionState): SessionState => ({ ...s, created_at: FUTURE, last_updated: FUTURE })],
    [
      'a history timestamp',
      (s: SessionState): SessionState => ({ ...s, history: [{ ...s.history[0]!, timestamp: FUTURE }] }),
    ],
  ])('is refused by import: %s in the future', async (_label, change) => {
    const at = NOW.toISOString();
    const base: SessionState = {
      ...skewed('imp'),
      last_updated: at,
      history: [{ from_phase: 'initializing', to_phase: 'planning', timestamp: at }],
    };
    expect(await codeOfAsync(() => sessions.importSession(base))).toBeUndefined();
    expect(await codeOfAsync(() => sessions.importSession(change({ ...base, agent_id: 'imp2' })))).toBe('E_CORRUPT');
    expect(await store.read('imp2')).toBeNull();
  });
});
