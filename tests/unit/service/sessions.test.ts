import { codeOfAsync } from '../../helpers';
import { assertCoherent } from '../../../src/core/coherence';
import { Sessions } from '../../../src/service/sessions';
import type { MemoryStore } from '../../../src/store/memory-store';
import { memorySessions } from '../../support/sessions';
import { AGENT_SHELL } from '../../support/origin';

let clock: Date;
let store: MemoryStore;
let sessions: Sessions;
const MIN = 60_000;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  ({ sessions, store } = memorySessions({ now: () => clock }));
});

describe('Sessions', () => {
  it('generates ids, and retries when one is taken', async () => {
    const a = await sessions.create({ agent_name: 'a', purpose: 'p' });
    expect(a.agent_id).toBe('agent-20260108-180000-00000000');
    // Same second and a colliding random part: the store refuses, the service retries with new randomness.
    let calls = 0;
    const clashing = new Sessions({
      store: sessions.store,
      randomHex: () => (calls++ === 0 ? '00000000' : 'ffffffff'),
    });
    expect((await clashing.create({ agent_name: 'b', purpose: 'p' })).agent_id).toBe('agent-20260108-180000-ffffffff');
  });

  it('refuses an empty agent name and a bad custom id', async () => {
    expect(await codeOfAsync(() => sessions.create({ agent_name: ' ', purpose: 'p' }))).toBe('E_USAGE');
    expect(await codeOfAsync(() => sessions.create({ agent_name: 'a', purpose: 'p', id: '../x' }))).toBe('E_USAGE');
  });

  it('answers every resume reason', async () => {
    expect(await sessions.shouldResume('missing')).toMatchObject({ should_resume: false, reason: 'session_not_found' });
    store.putRaw('broken', '{');
    expect(await sessions.shouldResume('broken')).toMatchObject({ should_resume: false, reason: 'invalid_state' });
    const { agent_id } = await sessions.create({ agent_name: 'a', purpose: 'p', id: 's' });
    expect((await sessions.shouldResume(agent_id)).reason).toBe('phase_not_resumable');
    await sessions.update(agent_id, { phase: 'approval' });
    expect(await sessions.shouldResume(agent_id)).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    advance(30 * MIN);
    expect((await sessions.shouldResume(agent_id)).reason).toBe('session_resumable');
    advance(1);
    expect((await sessions.shouldResume(agent_id)).reason).toBe('session_expired');
  });

  it('newestOf picks the most recently active valid session of that agent', async () => {
    const first = await sessions.create({ agent_name: 'alpha', purpose: 'p' });
    advance(MIN);
    const second = await sessions.create({ agent_name: 'alpha', purpose: 'p' });
    advance(MIN);
    await sessions.create({ agent_name: 'beta', purpose: 'p' });
    expect((await sessions.newestOf('alpha'))?.agent_id).toBe(second.agent_id);
    advance(MIN);
    await sessions.update(first.agent_id, { phase: 'planning' });
    expect((await sessions.newestOf('alpha'))?.agent_id).toBe(first.agent_id);
    expect(await sessions.newestOf('gamma')).toBeNull();
  });

  it('lists most recently active first, filters, and keeps corrupt entries last', async () => {
    const a = await sessions.create({ agent_name: 'a', purpose: 'p', id: 'a1' });
    advance(MIN);
    await sessions.create({ agent_name: 'b', purpose: 'p', id: 'b1' });
    advance(MIN);
    await sessions.finalize(a.agent_id, 'completed');
    store.putRaw('zz-corrupt', '');
    expect((await sessions.list()).map((e) => e.id)).toEqual(['a1', 'b1', 'zz-corrupt']);
    expect((await sessions.list({ activeOnly: true })).filter((e) => e.kind === 'valid').map((e) => e.id)).toEqual([
      'b1',
    ]);
    expect((await sessions.list({ agent: 'a' })).filter((e) => e.kind === 'valid').map((e) => e.id)).toEqual(['a1']);
  });

  it('cleanup removes idle sessions of any phase and old corrupt ones, keeps the rest', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'old-active' });
    await sessions.update('old-active', { phase: 'approval' });
    advance(25 * 60 * MIN);
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'fresh' });
    store.putRaw('corrupt-old', 'x', new Date(clock.getTime() - 48 * 60 * MIN));
    store.putRaw('corrupt-new', 'x');

    const dry = await sessions.cleanup({ hours: 24, dryRun: true });
    expect(dry).toEqual({
      removed: ['old-active'],
      corruptRemoved: ['corrupt-old'],
      leftovers: 0,
      leftoverPaths: [],
      abandoned: [],
      failed: [],
      clockAhead: [],
      notOurs: [],
      capped: [],
    });
    expect(await sessions.list()).toHaveLength(4);

    const result = await sessions.cleanup({ hours: 24 });
    expect(result.removed).toEqual(['old-active']);
    expect(result.corruptRemoved).toEqual(['corrupt-old']);
    expect((await sessions.list()).map((e) => e.id).sort()).toEqual(['corrupt-new', 'fresh']);
  });

  it('cleanup with maxSessions removes the oldest finished sessions above the cap, never one waiting', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'waiting' });
    await sessions.update('waiting', { phase: 'approval' });
    for (const id of ['done-1', 'done-2', 'done-3']) {
      advance(MIN);
      await sessions.create({ agent_name: 'a', purpose: 'p', id });
      await sessions.finalize(id, 'completed');
    }
    advance(MIN);
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'working' });

    const dry = await sessions.cleanup({ hours: 24, dryRun: true, maxSessions: 3 });
    expect(dry.capped).toEqual(['done-1', 'done-2']);
    expect(dry.removed).toEqual([]);
    expect(await sessions.list()).toHaveLength(5);
    expect((await sessions.cleanup({ hours: 24, maxSessions: 3 })).capped).toEqual(['done-1', 'done-2']);
    expect((await sessions.list()).map((e) => e.id).sort()).toEqual(['done-3', 'waiting', 'working']);
    // Only finished ones are capped: at 1, the rest stay.
    expect((await sessions.cleanup({ hours: 24, maxSessions: 1 })).capped).toEqual(['done-3']);
    expect((await sessions.list()).map((e) => e.id).sort()).toEqual(['waiting', 'working']);
    expect((await sessions.cleanup({ hours: 24 })).capped).toEqual([]);
  });

  it('cleanup counts the sessions it removes as idle before it caps', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'stale' });
    advance(25 * 60 * MIN);
    for (const id of ['done-1', 'done-2']) {
      advance(MIN);
      await sessions.create({ agent_name: 'a', purpose: 'p', id });
      await sessions.finalize(id, 'completed');
    }
    const dry = await sessions.cleanup({ hours: 24, dryRun: true, maxSessions: 2 });
    expect({ removed: dry.removed, capped: dry.capped }).toEqual({ removed: ['stale'], capped: [] });
  });

  it.each([[0], [-1], [1.5], ['3'], [Number.NaN]])('cleanup refuses maxSessions %p', async (max) => {
    expect(await codeOfAsync(() => sessions.cleanup({ hours: 24, maxSessions: max as unknown as number }))).toBe(
      'E_USAGE',
    );
  });

  it('cleanup keeps a session touched after the listing (re-checked under the lock)', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'touched' });
    advance(25 * 60 * MIN);
    const realRemoveMany = store.removeMany.bind(store);
    // Simulate another process touching the session between cleanup's listing and its removal.
    jest.spyOn(store, 'removeMany').mockImplementation(async (ids, predicate) => {
      for (const id of ids) await sessions.update(id, {});
      return realRemoveMany(ids, predicate);
    });
    expect((await sessions.cleanup({ hours: 24 })).removed).toEqual([]);
    expect((await sessions.get('touched')).last_updated).toBe(clock.toISOString());
  });

  it.each([
    [
      'linked to a Claude agent that stopped',
      { stopped: true as const },
      0,
      true,
      /stopped while the session was still initializing/,
    ],
    ['linked to a running agent, idle past the resume timeout', {}, 31, true, /idle for more than 30 minutes/],
    ['linked to a running agent, fresh', {}, 29, false, null],
  ])(
    'cleanup abandons a session an older version left initializing %s',
    async (_label, link, idleMinutes, abandoned, reason) => {
      const left = await sessions.create({ agent_name: 'a', purpose: 'p', id: 'left' });
      await sessions.linkClaude(left.agent_id, { agent_id: 'a0123456789abcdef', ...link });
      await sessions.create({ agent_name: 'a', purpose: 'p', id: 'cli-made' });
      advance(idleMinutes * MIN);
      expect((await sessions.cleanup({ hours: 24, dryRun: true })).abandoned).toEqual(abandoned ? ['left'] : []);
      expect((await sessions.get('left')).phase).toBe('initializing');
      expect((await sessions.cleanup({ hours: 24 })).abandoned).toEqual(abandoned ? ['left'] : []);
      const after = await sessions.get('left');
      expect(after.phase).toBe(abandoned ? 'abandoned' : 'initializing');
      if (reason !== null) expect(after.summary).toMatch(reason);
      // A session never linked to a Claude agent is the user's: left alone.
      expect((await sessions.get('cli-made')).phase).toBe('initializing');
    },
  );

  it.each([
    ['linked to a running agent, idle past the resume timeout', {}, false],
    ['linked to a Claude agent that stopped', { stopped: true as const }, true],
  ])(
    'under Claude Code’s unattended retry (retryWatchdog), a session left initializing %s: abandoned %s (issue 42)',
    async (_label, link, abandoned) => {
      const left = await sessions.create({ agent_name: 'a', purpose: 'p', id: 'left' });
      await sessions.linkClaude(left.agent_id, { agent_id: 'a0123456789abcdef', ...link });
      // Hours asleep through a usage limit: the watchdog ends the wait with StopFailure, not this cleanup.
      advance(5 * 60 * MIN);
      const result = await sessions.cleanup({ hours: 24, retryWatchdog: true });
      expect(result.abandoned).toEqual(abandoned ? ['left'] : []);
      expect((await sessions.get('left')).phase).toBe(abandoned ? 'abandoned' : 'initializing');
    },
  );

  it('delete removes, and a missing session is E_NOT_FOUND', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'gone' });
    await sessions.delete('gone');
    expect(await codeOfAsync(() => sessions.get('gone'))).toBe('E_NOT_FOUND');
    expect(await codeOfAsync(() => sessions.delete('gone'))).toBe('E_NOT_FOUND');
  });
});

describe('Sessions: a life on one store (create, moves, resume, cleanup, Claude attaches, the store clock)', () => {
  it('creates under a generated id, refuses a taken one, and moves through the machine', async () => {
    const created = await sessions.create({ agent_name: 'arch', purpose: 'p' });
    expect(created.agent_id).toBe('agent-20260108-180000-00000000');
    expect(await codeOfAsync(() => sessions.create({ agent_name: 'arch', purpose: 'p', id: created.agent_id }))).toBe(
      'E_DUPLICATE',
    );
    await sessions.update(created.agent_id, { phase: 'approval', metadata: { task_id: 'T1' } });
    expect(await codeOfAsync(() => sessions.update(created.agent_id, { phase: 'validating' }))).toBe(
      'E_ILLEGAL_TRANSITION',
    );
    expect(await sessions.get(created.agent_id)).toMatchObject({ phase: 'approval', metadata: { task_id: 'T1' } });
  });

  it('resumes the newest session of an agent and records the resume; a corrupt one answers invalid_state', async () => {
    const older = await sessions.create({ agent_name: 'arch', purpose: 'p', id: 'older' });
    await sessions.update(older.agent_id, { phase: 'planning' });
    advance(MIN);
    await sessions.create({ agent_name: 'arch', purpose: 'p', id: 'newer' });
    await sessions.update('newer', { phase: 'approval' });
    expect((await sessions.newestOf('arch'))?.agent_id).toBe('newer');
    const decision = await sessions.resume('newer');
    expect(decision).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    expect((await sessions.get('newer')).history.at(-1)).toMatchObject({
      event: 'resume',
      from_phase: 'approval',
      to_phase: 'approval',
    });
    store.putRaw('broken', '{');
    expect(await sessions.shouldResume('broken')).toMatchObject({ should_resume: false, reason: 'invalid_state' });
  });

  it('cleanup removes stale sessions and old corrupt entries by their write time, and keeps fresh ones', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'stale' });
    store.putRaw('old-corrupt', 'not json');
    advance(25 * 60 * MIN);
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'fresh' });
    store.putRaw('new-corrupt', 'not json');
    const result = await sessions.cleanup({ hours: 24 });
    expect(result).toEqual({
      removed: ['stale'],
      corruptRemoved: ['old-corrupt'],
      abandoned: [],
      clockAhead: [],
      notOurs: [],
      leftovers: 0,
      leftoverPaths: [],
      failed: [],
      capped: [],
    });
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(['fresh', 'new-corrupt']);
  });

  it('attaches racing events of one Claude agent (launch, start, stop at once) to one session, stopped as the policy says', async () => {
    const agent = { agent_id: 'a0123456789abcdef', agent_type: 'Explore', session_id: 's1' };
    const results = await Promise.all([
      sessions.attachClaudeAgent(agent),
      sessions.attachClaudeAgent(agent),
      sessions.claudeAgentStopped({ ...agent, last_message: 'done' }),
    ]);
    const states = (await store.list()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
    expect(states).toHaveLength(1);
    expect(results.map((result) => result?.state.agent_id)).toEqual(Array(3).fill(states[0]!.agent_id));
    expect(results.map((result) => result?.action)).toEqual(['created', 'linked', 'linked']);
    // Stopped while still initializing: abandoned (core/claude-link.ts stopOutcome).
    expect(states[0]).toMatchObject({ phase: 'abandoned', claude: { agent_id: agent.agent_id, last_message: 'done' } });
  });

  it('takes every time from the store clock: stamps and the resume rules', async () => {
    const created = await sessions.create({ agent_name: 'arch', purpose: 'p' });
    await sessions.update(created.agent_id, { phase: 'approval' });
    expect((await sessions.get(created.agent_id)).last_updated).toBe(clock.toISOString());
    advance(31 * MIN);
    expect((await sessions.shouldResume(created.agent_id)).reason).toBe('session_expired');
  });

  // A writer reads its clock, then waits for the lock while another stamps a later time (approve racing a hook's
  // resume): its history entry must not come before the one it waited for, or `import` of an export refuses it.
  it.each([
    ['approve', (id: string) => sessions.approve(id, { by: 'bob' })],
    ['reject', (id: string) => sessions.reject(id, { by: 'bob', reason: 'no', to: 'abandoned' })],
    ['update', (id: string) => sessions.update(id, { phase: 'executing' })],
    ['finalize', (id: string) => sessions.finalize(id, 'failed')],
    ['recordResume', (id: string) => sessions.recordResume(id)],
  ])('%s stamps no earlier than a write that took the lock first', async (_name, write) => {
    const { agent_id } = await sessions.create({ agent_name: 'a', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'approval' });
    advance(6);
    await sessions.recordResume(agent_id);
    advance(-4); // the clock this writer read before it got the lock
    const state = await write(agent_id);
    expect(() => assertCoherent(state)).not.toThrow();
    expect(state.last_updated).toBe(new Date(clock.getTime() + 4).toISOString());
  });
});

describe('decisions and where they come from (issue 20)', () => {
  it('approve and reject from an agent shell are refused before the store is read (E_AGENT_SHELL)', async () => {
    const agent = memorySessions({ now: () => clock, decisionOrigin: () => AGENT_SHELL }).sessions;
    expect(await codeOfAsync(() => agent.approve('missing-session'))).toBe('E_AGENT_SHELL');
    const { agent_id } = await sessions.create({ agent_name: 'a', purpose: 'p' });
    await sessions.update(agent_id, { phase: 'approval' });
    const inAgent = new Sessions({ store: sessions.store, decisionOrigin: () => AGENT_SHELL });
    expect(await codeOfAsync(() => inAgent.reject(agent_id, { reason: 'no' }))).toBe('E_AGENT_SHELL');
    expect((await sessions.get(agent_id)).phase).toBe('approval');
    // Outside, the OS user decides when no name is claimed.
    expect((await sessions.approve(agent_id)).decisions).toEqual([
      expect.objectContaining({ by: 'tester', origin: { os_user: 'tester', terminal: true, claimed: false } }),
    ]);
  });

  it('import of an existing id is E_DUPLICATE (worded for import), and the stored session is unchanged', async () => {
    const state = await sessions.create({ agent_name: 'a', purpose: 'p', id: 'same' });
    expect(await codeOfAsync(() => sessions.importSession({ ...state, purpose: 'other' }))).toBe('E_DUPLICATE');
    expect(await sessions.get('same')).toEqual(state);
  });
});
