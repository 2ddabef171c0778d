// Sessions of two projects in one store (a team's database): every lookup that decides a resume or a relink sees only
// its project's sessions; listings, cleanup and decisions are the project's unless asked for every project; sessions of
// no project (an older store's) are never resumed until adopted.
import { newSession, applyChange } from '../../../src/core/session';
import type { SessionState } from '../../../src/core/state';
import { explainResume } from '../../../src/core/views/explain';
import { DEFAULT_LIMITS } from '../../../src/core/limits';
import { Sessions } from '../../../src/service/sessions';
import { MemoryStore } from '../../../src/store/memory-store';
import { preDelegate, subagentStop } from '../../../src/hooks/seed/seed-protocol';
import { codeOfAsync } from '../../helpers';
import { AT_TERMINAL } from '../../support/origin';

const A = 'github.com/acme/infra';
const B = 'github.com/acme/web';
let clock: Date;
let store: MemoryStore;
let a: Sessions;
let b: Sessions;

beforeEach(() => {
  clock = new Date('2026-01-08T18:00:00.000Z');
  // A store of no folder's (a database): a session without a project is unassigned.
  store = new MemoryStore({ now: () => clock, home: null });
  let n = 0;
  const open = (project: string) =>
    new Sessions({
      store,
      project,
      randomHex: () => (n++).toString(16).padStart(8, '0'),
      decisionOrigin: () => AT_TERMINAL,
    });
  a = open(A);
  b = open(B);
});

/** A parks `terraform-architect` in approval with metadata, linked to a Claude agent that stopped. */
async function parkedInA(): Promise<SessionState> {
  const made = await a.create({ agent_name: 'terraform-architect', purpose: 'p', metadata: { secret: 'A only' } });
  await a.update(made.agent_id, { phase: 'approval' });
  return a.linkClaude(made.agent_id, {
    agent_id: 'a00000000000000a1',
    agent_type: 'terraform-architect',
    stopped: true,
  });
}

/** A session as an older agent-session left it in the database: no project. */
async function unassigned(id: string): Promise<SessionState> {
  const state = applyChange(
    newSession({ agent_id: id, agent_name: 'terraform-architect', purpose: 'p' }, clock),
    { phase: 'planning' },
    clock,
  );
  await store.create(state);
  return state;
}

describe('lookups that decide a resume or a relink', () => {
  it('new sessions belong to the service\u2019s project', async () => {
    expect((await a.create({ agent_name: 'x', purpose: 'p' })).project).toBe(A);
    expect((await b.attachClaudeAgent({ agent_id: 'a1', agent_type: 'x' }))?.state.project).toBe(B);
  });

  it('by name, newest per agent and parked: only the project\u2019s own', async () => {
    const parked = await parkedInA();
    expect((await a.parkedOf('terraform-architect'))?.agent_id).toBe(parked.agent_id);
    expect(await b.newestOf('terraform-architect')).toBeNull();
    expect(await b.parkedOf('terraform-architect')).toBeNull();
    expect(await b.parkedSessions()).toEqual([]);
    expect(await b.resumeNewestOf('terraform-architect')).toBeNull();
    expect(await preDelegate(b, { agent_name: 'terraform-architect' })).toEqual({
      should_resume: false,
      reason: 'no_existing_session',
    });
  });

  it('by id: another project\u2019s session is `other_project`, one of none `unassigned`; neither is recorded', async () => {
    const parked = await parkedInA();
    const older = await unassigned('older');
    expect(await b.shouldResume(parked.agent_id)).toMatchObject({ should_resume: false, reason: 'other_project' });
    expect(await b.resume(parked.agent_id)).toMatchObject({ should_resume: false, reason: 'other_project' });
    expect(await a.resume(older.agent_id)).toMatchObject({ should_resume: false, reason: 'unassigned' });
    expect(await preDelegate(b, { agent_name: 'terraform-architect', agent_id: parked.agent_id })).toEqual({
      should_resume: false,
      reason: 'other_project',
      agent_id: parked.agent_id,
    });
    expect(await store.read(parked.agent_id)).toEqual(parked);
    expect(await store.read('older')).toEqual(older);
    expect((await a.resume(parked.agent_id)).should_resume).toBe(true);
  });

  it('by Claude agent id and by type: B\u2019s agent never relinks A\u2019s session, even under A\u2019s agent id', async () => {
    const parked = await parkedInA();
    expect(await b.findByClaudeAgent('a00000000000000a1')).toBeNull();
    const same = await b.attachClaudeAgent({ agent_id: 'a00000000000000a1', agent_type: 'terraform-architect' });
    expect(same).toMatchObject({ action: 'created', state: { project: B } });
    const other = await b.attachClaudeAgent({ agent_id: 'a00000000000000b1', agent_type: 'terraform-architect' });
    expect(other).toMatchObject({ action: 'created', state: { project: B } });
    const stopped = await b.claudeAgentStopped({ agent_id: 'a00000000000000a1', agent_type: 'terraform-architect' });
    expect(stopped?.state.agent_id).toBe(same!.state.agent_id);
    expect(await store.read(parked.agent_id)).toEqual(parked);
    // A's own agents still find and resume it.
    const resumed = await a.attachClaudeAgent({ agent_id: 'a00000000000000a2', agent_type: 'terraform-architect' });
    expect(resumed).toMatchObject({ action: 'relinked', state: { agent_id: parked.agent_id } });
  });

  it('a seed stop from another project finalizes nothing', async () => {
    const parked = await parkedInA();
    expect(await subagentStop(b, { task_info: { agent_id: parked.agent_id }, exit_code: 0 })).toEqual({
      finalized: false,
      reason: 'other_project',
      agent_id: parked.agent_id,
    });
    await unassigned('older');
    expect(await subagentStop(a, { agent_id: 'older' })).toMatchObject({ finalized: false, reason: 'unassigned' });
    expect((await store.read(parked.agent_id))?.phase).toBe('approval');
  });

  it("an interruption from another project records nothing on this one's session (seed stop, StopFailure)", async () => {
    const parked = await parkedInA();
    const interrupted = { task_info: { agent_id: parked.agent_id }, interrupted: { error: 'rate_limit' } };
    expect(await subagentStop(b, interrupted)).toEqual({
      finalized: false,
      reason: 'other_project',
      agent_id: parked.agent_id,
    });
    const failed = await b.claudeAgentFailed({
      agent_id: 'a00000000000000a1',
      agent_type: 'terraform-architect',
      error: 'rate_limit',
    });
    expect(failed?.state.project).toBe(B);
    expect(failed?.state.agent_id).not.toBe(parked.agent_id);
    expect(await store.read(parked.agent_id)).toEqual(parked);
  });
});

describe('decisions, listings, cleanup', () => {
  it('approve and reject refuse another project\u2019s session (E_OTHER_PROJECT) unless across projects', async () => {
    const parked = await parkedInA();
    expect(await codeOfAsync(() => b.approve(parked.agent_id))).toBe('E_OTHER_PROJECT');
    expect(await codeOfAsync(() => b.reject(parked.agent_id, { reason: 'no' }))).toBe('E_OTHER_PROJECT');
    expect(await store.read(parked.agent_id)).toEqual(parked);
    expect((await b.approve(parked.agent_id, {}, { allProjects: true })).phase).toBe('executing');
  });

  it('list and listing: the project\u2019s, unassigned ones counted; every one with allProjects', async () => {
    const parked = await parkedInA();
    await b.create({ agent_name: 'web', purpose: 'p' });
    await unassigned('older');
    const mine = await a.listing();
    expect(mine.entries.map((entry) => entry.id)).toEqual([parked.agent_id]);
    expect(mine.unassigned).toBe(1);
    const every = await a.listing({ allProjects: true });
    expect(every.entries).toHaveLength(3);
    expect(every.unassigned).toBe(0);
    const reasons = Object.fromEntries(
      every.entries.map((entry) => [entry.id, entry.kind === 'valid' ? entry.reason : null]),
    );
    expect(reasons.older).toBe('unassigned');
    expect(Object.values(reasons)).toContain('other_project');
  });

  it('cleanup removes the project\u2019s stale sessions only, every project\u2019s with allProjects', async () => {
    const parked = await parkedInA();
    const theirs = await b.create({ agent_name: 'web', purpose: 'p' });
    await unassigned('older');
    clock = new Date(clock.getTime() + 48 * 3_600_000);
    expect((await b.cleanup({ hours: 24 })).removed).toEqual([theirs.agent_id]);
    expect(await store.read(parked.agent_id)).not.toBeNull();
    expect([...(await b.cleanup({ hours: 24, allProjects: true })).removed].sort()).toEqual(
      [parked.agent_id, 'older'].sort(),
    );
  });

  // Issue 30 item 4: an entry this version cannot read (a newer version's schema, one bad field) that names another
  // project is that project's to judge, with its own horizon: this project's cleanup leaves it alone.
  it.each([
    ['a newer schema version', (state: SessionState) => ({ ...state, schema_version: 99 })],
    ['one bad field', (state: SessionState) => ({ ...state, error_count: 'many' })],
  ])('cleanup leaves alone an unreadable session that names another project (%s)', async (_label, damage) => {
    const parked = await parkedInA();
    const mine = await b.create({ agent_name: 'web', purpose: 'p' });
    const stored = (await store.read(parked.agent_id))!;
    store.putRaw(parked.agent_id, JSON.stringify(damage(stored)), clock);
    store.putRaw(mine.agent_id, JSON.stringify(damage((await store.read(mine.agent_id))!)), clock);
    const none = { ...stored, agent_id: 'nameless', project: undefined };
    store.putRaw('nameless', JSON.stringify(damage(none)), clock);
    store.putRaw('torn', '{"agent_id": "torn", "project": "github.com/acm', clock);
    clock = new Date(clock.getTime() + 48 * 3_600_000);
    const dry = await b.cleanup({ hours: 24, dryRun: true });
    const result = await b.cleanup({ hours: 24 });
    for (const run of [dry, result]) {
      expect([...run.corruptRemoved].sort()).toEqual([mine.agent_id, 'nameless', 'torn'].sort());
      expect(run.removed).toEqual([]);
    }
    expect((await store.list()).map((entry) => entry.id)).toEqual([parked.agent_id]);
    expect((await a.list()).map((entry) => entry.id)).toEqual([parked.agent_id]);
    expect((await b.list()).map((entry) => entry.id)).toEqual([]);
    // Asked for every project, it is removed as another project's valid session would be.
    expect((await b.cleanup({ hours: 24, allProjects: true })).corruptRemoved).toEqual([parked.agent_id]);
  });

  it('adopt gives the project to the ids named or to every unassigned one; an unknown id changes nothing', async () => {
    await unassigned('older-1');
    await unassigned('older-2');
    const theirs = await b.create({ agent_name: 'web', purpose: 'p' });
    expect(await codeOfAsync(() => a.adopt({ ids: ['older-1', 'nobody'] }))).toBe('E_NOT_FOUND');
    expect((await store.read('older-1'))?.project).toBeUndefined();
    expect(await codeOfAsync(() => a.adopt({}))).toBe('E_USAGE');
    expect(await a.adopt({ ids: [theirs.agent_id] })).toEqual({ adopted: [theirs.agent_id], already: [] });
    expect(await a.adopt({ unassigned: true })).toEqual({ adopted: ['older-1', 'older-2'], already: [] });
    expect(await a.adopt({ ids: ['older-1'] })).toEqual({ adopted: [], already: ['older-1'] });
    // Adopting is not activity.
    expect((await store.read('older-1'))?.last_updated).toBe(clock.toISOString());
    expect((await a.resumeNewestOf('terraform-architect'))?.should_resume).toBe(true);
  });

  it('import keeps the project an export names, and gives its own to one that names none', async () => {
    const theirs = newSession({ agent_id: 'x1', agent_name: 'w', purpose: 'p', project: B }, clock);
    expect((await a.importSession(theirs)).project).toBe(B);
    const older = newSession({ agent_id: 'x2', agent_name: 'w', purpose: 'p' }, clock);
    expect((await a.importSession(older)).project).toBe(A);
  });

  it('the explanation names the project rule only when it fails', () => {
    const mine = newSession({ agent_id: 'x', agent_name: 'w', purpose: 'p', project: A }, clock);
    const ready = applyChange(mine, { phase: 'planning' }, clock);
    expect(explainResume(ready, clock, DEFAULT_LIMITS, A).checks.map((check) => check.rule)).not.toContain('project');
    const verdict = explainResume(ready, clock, DEFAULT_LIMITS, B);
    expect(verdict).toMatchObject({ should_resume: false, reason: 'other_project' });
    expect(verdict.checks[0]).toMatchObject({ rule: 'project', ok: false, value: A });
  });
});
