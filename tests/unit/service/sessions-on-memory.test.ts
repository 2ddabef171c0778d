// The service on the memory store: no disk, a fake clock for both the service and the store's write times.
// (The service's own cases in tests/unit/service/sessions.test.ts run on the file store; this shows a backend swap
// changes no decision.)
import { Sessions } from '../../../src/service/sessions';
import { MemoryStore } from '../../../src/store/memory-store';
import { codeOf } from '../../helpers';

const MIN = 60_000;
let clock: Date;
let store: MemoryStore;
let sessions: Sessions;

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  store = new MemoryStore({ now: () => clock });
  let n = 0;
  sessions = new Sessions({ store, now: () => clock, randomHex: () => (n++).toString(16).padStart(8, '0') });
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe('Sessions on a MemoryStore', () => {
  it('creates under a generated id, refuses a taken one, and moves through the machine', () => {
    const created = sessions.create({ agent_name: 'arch', purpose: 'p' });
    expect(created.agent_id).toBe('agent-20260108-180000-00000000');
    expect(codeOf(() => sessions.create({ agent_name: 'arch', purpose: 'p', id: created.agent_id }))).toBe(
      'E_DUPLICATE',
    );
    sessions.update(created.agent_id, { phase: 'approval', metadata: { task_id: 'T1' } });
    expect(codeOf(() => sessions.update(created.agent_id, { phase: 'validating' }))).toBe('E_ILLEGAL_TRANSITION');
    expect(sessions.get(created.agent_id)).toMatchObject({ phase: 'approval', metadata: { task_id: 'T1' } });
  });

  it('resumes the newest session of an agent and records the resume; a corrupt one answers invalid_state', () => {
    const older = sessions.create({ agent_name: 'arch', purpose: 'p', id: 'older' });
    sessions.update(older.agent_id, { phase: 'planning' });
    advance(MIN);
    sessions.create({ agent_name: 'arch', purpose: 'p', id: 'newer' });
    sessions.update('newer', { phase: 'approval' });
    expect(sessions.newestOf('arch')?.agent_id).toBe('newer');
    const decision = sessions.resume('newer');
    expect(decision).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    expect(sessions.get('newer').history.at(-1)).toMatchObject({
      event: 'resume',
      from_phase: 'approval',
      to_phase: 'approval',
    });
    store.putRaw('broken', '{');
    expect(sessions.shouldResume('broken')).toMatchObject({ should_resume: false, reason: 'invalid_state' });
  });

  it('cleanup removes stale sessions and old corrupt entries by their write time, and keeps fresh ones', () => {
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'stale' });
    store.putRaw('old-corrupt', 'not json');
    advance(25 * 60 * MIN);
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'fresh' });
    store.putRaw('new-corrupt', 'not json');
    const result = sessions.cleanup({ hours: 24 });
    expect(result).toEqual({
      removed: ['stale'],
      corruptRemoved: ['old-corrupt'],
      abandoned: [],
      clockAhead: [],
      notOurs: [],
      leftovers: 0,
      failed: [],
    });
    expect(
      store
        .list()
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(['fresh', 'new-corrupt']);
  });
});
