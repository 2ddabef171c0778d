// The service on the memory store: no disk, a fake clock for both the service and the store's write times.
// (The service's own cases in tests/unit/service/sessions.test.ts run on the file store; this shows a backend swap
// changes no decision.)
import { Sessions } from '../../../src/service/sessions';
import { MemoryStore } from '../../../src/store/memory-store';
import { codeOfAsync } from '../../helpers';

const MIN = 60_000;
let clock: Date;
let store: MemoryStore;
let sessions: Sessions;

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  store = new MemoryStore({ now: () => clock });
  let n = 0;
  sessions = new Sessions({ store, randomHex: () => (n++).toString(16).padStart(8, '0') });
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe('Sessions on a MemoryStore', () => {
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
      failed: [],
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
});
