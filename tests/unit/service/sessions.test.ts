import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../../helpers';
import { Sessions } from '../../../src/service/sessions';
import { FileStore } from '../../../src/store/file-store';

let dir: string;
let clock: Date;
let sessions: Sessions;
const MIN = 60_000;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  clock = new Date('2026-01-08T18:00:00.000Z');
  let n = 0;
  sessions = new Sessions({
    store: new FileStore(join(dir, 'session')),
    now: () => clock,
    randomHex: () => (n++).toString(16).padStart(8, '0'),
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Sessions', () => {
  it('generates ids, and retries when one is taken', () => {
    const a = sessions.create({ agent_name: 'a', purpose: 'p' });
    expect(a.agent_id).toBe('agent-20260108-180000-00000000');
    // Same second and a colliding random part: the store refuses, the service retries with new randomness.
    let calls = 0;
    const clashing = new Sessions({
      store: sessions.store,
      now: () => clock,
      randomHex: () => (calls++ === 0 ? '00000000' : 'ffffffff'),
    });
    expect(clashing.create({ agent_name: 'b', purpose: 'p' }).agent_id).toBe('agent-20260108-180000-ffffffff');
  });

  it('refuses an empty agent name and a bad custom id', () => {
    expect(codeOf(() => sessions.create({ agent_name: ' ', purpose: 'p' }))).toBe('E_USAGE');
    expect(codeOf(() => sessions.create({ agent_name: 'a', purpose: 'p', id: '../x' }))).toBe('E_USAGE');
  });

  it('answers every resume reason', () => {
    expect(sessions.shouldResume('missing')).toMatchObject({ should_resume: false, reason: 'session_not_found' });
    mkdirSync(join(dir, 'session', 'broken'), { recursive: true });
    writeFileSync(join(dir, 'session', 'broken', 'state.json'), '{');
    expect(sessions.shouldResume('broken')).toMatchObject({ should_resume: false, reason: 'invalid_state' });
    const { agent_id } = sessions.create({ agent_name: 'a', purpose: 'p', id: 's' });
    expect(sessions.shouldResume(agent_id).reason).toBe('phase_not_resumable');
    sessions.update(agent_id, { phase: 'approval' });
    expect(sessions.shouldResume(agent_id)).toMatchObject({ should_resume: true, reason: 'session_resumable' });
    advance(30 * MIN);
    expect(sessions.shouldResume(agent_id).reason).toBe('session_resumable');
    advance(1);
    expect(sessions.shouldResume(agent_id).reason).toBe('session_expired');
  });

  it('newestOf picks the most recently active valid session of that agent', () => {
    const first = sessions.create({ agent_name: 'alpha', purpose: 'p' });
    advance(MIN);
    const second = sessions.create({ agent_name: 'alpha', purpose: 'p' });
    advance(MIN);
    sessions.create({ agent_name: 'beta', purpose: 'p' });
    expect(sessions.newestOf('alpha')?.agent_id).toBe(second.agent_id);
    advance(MIN);
    sessions.update(first.agent_id, { phase: 'planning' });
    expect(sessions.newestOf('alpha')?.agent_id).toBe(first.agent_id);
    expect(sessions.newestOf('gamma')).toBeNull();
  });

  it('lists most recently active first, filters, and keeps corrupt entries last', () => {
    const a = sessions.create({ agent_name: 'a', purpose: 'p', id: 'a1' });
    advance(MIN);
    sessions.create({ agent_name: 'b', purpose: 'p', id: 'b1' });
    advance(MIN);
    sessions.finalize(a.agent_id, 'completed');
    mkdirSync(join(dir, 'session', 'zz-corrupt'), { recursive: true });
    expect(sessions.list().map((e) => e.id)).toEqual(['a1', 'b1', 'zz-corrupt']);
    expect(
      sessions
        .list({ activeOnly: true })
        .filter((e) => e.kind === 'valid')
        .map((e) => e.id),
    ).toEqual(['b1']);
    expect(
      sessions
        .list({ agent: 'a' })
        .filter((e) => e.kind === 'valid')
        .map((e) => e.id),
    ).toEqual(['a1']);
  });

  it('cleanup removes idle sessions of any phase and old corrupt ones, keeps the rest', () => {
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'old-active' });
    sessions.update('old-active', { phase: 'approval' });
    advance(25 * 60 * MIN);
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'fresh' });
    const corruptOld = join(dir, 'session', 'corrupt-old');
    const corruptNew = join(dir, 'session', 'corrupt-new');
    mkdirSync(corruptOld, { recursive: true });
    mkdirSync(corruptNew, { recursive: true });
    writeFileSync(join(corruptOld, 'state.json'), 'x');
    writeFileSync(join(corruptNew, 'state.json'), 'x');
    const longAgo = new Date(clock.getTime() - 48 * 60 * MIN);
    utimesSync(join(corruptOld, 'state.json'), longAgo, longAgo);
    utimesSync(corruptOld, longAgo, longAgo);
    utimesSync(join(corruptNew, 'state.json'), clock, clock);

    const dry = sessions.cleanup({ hours: 24, dryRun: true });
    expect(dry).toEqual({
      removed: ['old-active'],
      corruptRemoved: ['corrupt-old'],
      leftovers: 0,
      abandoned: [],
      failed: [],
      clockAhead: [],
      notOurs: [],
    });
    expect(sessions.list()).toHaveLength(4);

    const result = sessions.cleanup({ hours: 24 });
    expect(result.removed).toEqual(['old-active']);
    expect(result.corruptRemoved).toEqual(['corrupt-old']);
    expect(
      sessions
        .list()
        .map((e) => e.id)
        .sort(),
    ).toEqual(['corrupt-new', 'fresh']);
  });

  it('cleanup keeps a session touched after the listing (re-checked under the lock)', () => {
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'touched' });
    advance(25 * 60 * MIN);
    const store = sessions.store;
    const realRemove = store.remove.bind(store);
    // Simulate another process touching the session between cleanup's listing and its removal.
    jest.spyOn(store, 'remove').mockImplementation((id, predicate) => {
      sessions.update(id, {});
      return realRemove(id, predicate);
    });
    expect(sessions.cleanup({ hours: 24 }).removed).toEqual([]);
    expect(sessions.get('touched').last_updated).toBe(clock.toISOString());
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
    (_label, link, idleMinutes, abandoned, reason) => {
      const left = sessions.create({ agent_name: 'a', purpose: 'p', id: 'left' });
      sessions.linkClaude(left.agent_id, { agent_id: 'a0123456789abcdef', ...link });
      sessions.create({ agent_name: 'a', purpose: 'p', id: 'cli-made' });
      advance(idleMinutes * MIN);
      expect(sessions.cleanup({ hours: 24, dryRun: true }).abandoned).toEqual(abandoned ? ['left'] : []);
      expect(sessions.get('left').phase).toBe('initializing');
      expect(sessions.cleanup({ hours: 24 }).abandoned).toEqual(abandoned ? ['left'] : []);
      const after = sessions.get('left');
      expect(after.phase).toBe(abandoned ? 'abandoned' : 'initializing');
      if (reason !== null) expect(after.summary).toMatch(reason);
      // A session never linked to a Claude agent is the user's: left alone.
      expect(sessions.get('cli-made').phase).toBe('initializing');
    },
  );

  it('cleanup sweeps attach locks of killed processes, never a live one', () => {
    const root = join(dir, 'session');
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'x' });
    mkdirSync(join(root, '.locks'), { recursive: true });
    const dead = join(root, '.locks', 'agent-61.lock');
    const live = join(root, '.locks', 'type-61.lock');
    // A lock-like file in a folder that is not ours, with no owner in it: never ours to remove.
    mkdirSync(join(root, 'notes'));
    const foreign = join(root, 'notes', 'build.lock');
    writeFileSync(foreign, 'not a lock of ours');
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22).
    writeFileSync(dead, `${2 ** 22 + 1} 1 ${Date.now()} x`);
    writeFileSync(
      live,
      `${process.pid} ${readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[19]} ${Date.now()} y`,
    );
    const old = new Date(clock.getTime() - 3_600_000);
    utimesSync(dead, old, old);
    utimesSync(live, old, old);
    utimesSync(foreign, old, old);
    expect(sessions.cleanup({ hours: 24 }).leftovers).toBe(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  });

  it('delete removes, and a missing session is E_NOT_FOUND', () => {
    sessions.create({ agent_name: 'a', purpose: 'p', id: 'gone' });
    sessions.delete('gone');
    expect(codeOf(() => sessions.get('gone'))).toBe('E_NOT_FOUND');
    expect(codeOf(() => sessions.delete('gone'))).toBe('E_NOT_FOUND');
  });
});
