import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOfAsync } from '../../helpers';
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
    store: new FileStore(join(dir, 'session'), { now: () => clock }),
    randomHex: () => (n++).toString(16).padStart(8, '0'),
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
    mkdirSync(join(dir, 'session', 'broken'), { recursive: true });
    writeFileSync(join(dir, 'session', 'broken', 'state.json'), '{');
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
    mkdirSync(join(dir, 'session', 'zz-corrupt'), { recursive: true });
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

    const dry = await sessions.cleanup({ hours: 24, dryRun: true });
    expect(dry).toEqual({
      removed: ['old-active'],
      corruptRemoved: ['corrupt-old'],
      leftovers: 0,
      abandoned: [],
      failed: [],
      clockAhead: [],
      notOurs: [],
    });
    expect(await sessions.list()).toHaveLength(4);

    const result = await sessions.cleanup({ hours: 24 });
    expect(result.removed).toEqual(['old-active']);
    expect(result.corruptRemoved).toEqual(['corrupt-old']);
    expect((await sessions.list()).map((e) => e.id).sort()).toEqual(['corrupt-new', 'fresh']);
  });

  it('cleanup keeps a session touched after the listing (re-checked under the lock)', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'touched' });
    advance(25 * 60 * MIN);
    const store = sessions.store;
    const realRemove = store.remove.bind(store);
    // Simulate another process touching the session between cleanup's listing and its removal.
    jest.spyOn(store, 'remove').mockImplementation(async (id, predicate) => {
      await sessions.update(id, {});
      return realRemove(id, predicate);
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

  it('cleanup sweeps attach locks of killed processes, never a live one', async () => {
    const root = join(dir, 'session');
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'x' });
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
    expect((await sessions.cleanup({ hours: 24 })).leftovers).toBe(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  });

  it('delete removes, and a missing session is E_NOT_FOUND', async () => {
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'gone' });
    await sessions.delete('gone');
    expect(await codeOfAsync(() => sessions.get('gone'))).toBe('E_NOT_FOUND');
    expect(await codeOfAsync(() => sessions.delete('gone'))).toBe('E_NOT_FOUND');
  });
});
