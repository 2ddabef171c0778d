// The one contract every SessionStore backend passes (src/service/store.ts). Each backend's test file calls
// `describeStoreContract` with a harness; a new backend adds a harness, never its own copy of these cases.
import { withClaudeLink } from '../../src/core/claude-link';
import { SessionError } from '../../src/core/errors';
import { withHost } from '../../src/core/host';
import { withProject } from '../../src/core/project';
import { HOST_SCHEMA_VERSION } from '../../src/core/state';
import { finalizeState, newSession } from '../../src/core/session';
import type { SessionState } from '../../src/core/state';
import type { ListedSession, SessionStore } from '../../src/service/store';
import { codeOfAsync } from '../helpers';
import { AT_TERMINAL } from '../support/origin';
import { Sessions } from '../../src/service/sessions';
import { DEFAULT_LIMITS } from '../../src/core/limits';
import { computeStats, statsOfTally } from '../../src/core/views/stats';

/** What a backend gives the suite: a fresh, empty store and the means to damage it. */
export interface StoreHarness {
  readonly store: SessionStore;
  /**
   * Makes `id`'s stored content an invalid state (the file store: one that still names its id, as only those are its
   * own to remove), creating the entry when absent; with `modifiedAt`, the entry is dated as last written then (what
   * cleanup ages a corrupt entry by); with `project`, the damaged content still names that project (a newer version's
   * state), which decides whose it is.
   */
  plantCorrupt(id: string, modifiedAt?: Date, project?: string): void | Promise<void>;
  /**
   * With `multiProcess`: runs `workers` processes at once, each making `count` updates to `id` that
   * each add the metadata key `w<worker>_<i>` = i. Absent: the backend lives in one process.
   */
  concurrentUpdates?(id: string, workers: number, count: number): Promise<void>;
  /** Removes whatever the harness made (temp folders, rows) and closes the store. */
  dispose(): void | Promise<void>;
  /**
   * The project a session created without one belongs to (a file store's home: the project of the folder it is in);
   * absent: none (the session is unassigned).
   */
  readonly home?: string;
}

/** The project of the suite's sessions (each backend holds any number; see the project scoping cases). */
const P = 'github.com/acme/api';
/** Another project, sharing the store. */
const Q = 'github.com/acme/web';

const T0 = Date.parse('2026-01-08T18:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

/**
 * A session of project P (or `project`; null: of none) created at minute `created` and last active at minute `active`
 * (default: when created).
 */
function session(id: string, agent: string, created = 0, active = created, project: string | null = P): SessionState {
  return {
    ...newSession(
      {
        agent_id: id,
        agent_name: agent,
        purpose: 'contract',
        metadata: { n: 1 },
        ...(project === null ? {} : { project }),
      },
      at(created),
    ),
    last_updated: at(active).toISOString(),
  };
}

/** `state` at minute `minute` with `patch` merged into its metadata. */
function touched(state: SessionState, minute: number, patch: Record<string, unknown> = {}): SessionState {
  return { ...state, last_updated: at(minute).toISOString(), metadata: { ...state.metadata, ...patch } };
}

/** A valid Date from any realm (jest's globals differ from Node's own, so `instanceof Date` fails for fs times). */
function isDate(value: unknown): boolean {
  return Object.prototype.toString.call(value) === '[object Date]' && !Number.isNaN((value as Date).getTime());
}

/** Links a session to a Claude agent at minute `minute` (the link marks the session active then). */
function link(store: SessionStore, id: string, claudeAgent: string, minute: number): Promise<SessionState> {
  return store.update(id, (state) =>
    withClaudeLink(state, { agent_id: claudeAgent, agent_type: 'Explore' }, at(minute)),
  );
}

/**
 * Declares the contract cases for one backend. `make` is called before every case and must return an empty store.
 */
export function describeStoreContract(
  name: string,
  make: () => StoreHarness,
  options: {
    readonly multiProcess: boolean;
    /** The store has SessionStore.maintenance (the file store); the others must not pretend to. */
    readonly maintenance: boolean;
  },
): void {
  describe(`SessionStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: SessionStore;
    beforeEach(() => {
      harness = make();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    describe('read and create', () => {
      it('reads null for an id it does not hold, and lists an empty store as []', async () => {
        expect(await store.read('nobody')).toBeNull();
        expect(await store.list()).toEqual([]);
      });

      it('gives back what was created, and lists it as valid', async () => {
        const state = session('s1', 'alpha');
        await store.create(state);
        expect(await store.read('s1')).toEqual(state);
        expect(await store.list()).toEqual([{ kind: 'valid', id: 's1', state }]);
      });

      it.each(['../x', '.hidden', 'a/b', ''])('refuses the id %p with E_USAGE before touching anything', async (id) => {
        expect(await codeOfAsync(() => store.read(id))).toBe('E_USAGE');
        expect(await codeOfAsync(() => store.update(id, (s) => s))).toBe('E_USAGE');
        expect(await codeOfAsync(() => store.remove(id))).toBe('E_USAGE');
        expect(await codeOfAsync(() => store.create({ ...session('ok', 'alpha'), agent_id: id }))).toBe('E_USAGE');
        expect(await store.list()).toEqual([]);
      });

      it('refuses a second create of one id with E_DUPLICATE and keeps the first', async () => {
        const first = session('s1', 'alpha');
        await store.create(first);
        expect(await codeOfAsync(() => store.create(session('s1', 'beta', 5)))).toBe('E_DUPLICATE');
        expect(await store.read('s1')).toEqual(first);
        expect(await store.list()).toHaveLength(1);
      });

      it('keeps its own copy: changing the object given to create or returned by read changes nothing stored', async () => {
        const state = session('s1', 'alpha');
        const kept = structuredClone(state);
        await store.create(state);
        (state.metadata as Record<string, unknown>).n = 99;
        const read = (await store.read('s1'))!;
        (read.metadata as Record<string, unknown>).n = 42;
        read.history.push({ from_phase: 'initializing', to_phase: 'planning', timestamp: at(1).toISOString() });
        const listed = (await store.list())[0]!;
        if (listed.kind === 'valid') (listed.state.metadata as Record<string, unknown>).n = 7;
        expect(await store.read('s1')).toEqual(kept);
      });

      it('refuses a state too deep to write with E_USAGE and stores nothing', async () => {
        let deep: Record<string, unknown> = {};
        for (let i = 0; i < 20_000; i++) deep = { d: deep };
        expect(await codeOfAsync(() => store.create({ ...session('deep', 'alpha'), metadata: deep }))).toBe('E_USAGE');
        expect(await store.read('deep')).toBeNull();
      });
    });

    describe('update', () => {
      it('applies the change, returns the state written, and read agrees', async () => {
        await store.create(session('s1', 'alpha'));
        const next = await store.update('s1', (state) => touched(state, 3, { step: 'two' }));
        expect(next.metadata).toEqual({ n: 1, step: 'two' });
        expect(next.last_updated).toBe(at(3).toISOString());
        expect(await store.read('s1')).toEqual(next);
      });

      it('refuses a missing id with E_NOT_FOUND, without calling the change or creating anything', async () => {
        const change = jest.fn((state: SessionState) => state);
        expect(await codeOfAsync(() => store.update('ghost', change))).toBe('E_NOT_FOUND');
        expect(change).not.toHaveBeenCalled();
        expect(await store.read('ghost')).toBeNull();
        expect(await store.list()).toEqual([]);
      });

      it('passes on what the change throws and writes nothing, even when the change mutated its argument first', async () => {
        const state = session('s1', 'alpha');
        await store.create(state);
        const refusal = new SessionError('E_ILLEGAL_TRANSITION', 'no');
        let thrown: unknown;
        try {
          await store.update('s1', (current) => {
            (current.metadata as Record<string, unknown>).n = 666;
            current.history.push({ from_phase: 'initializing', to_phase: 'planning', timestamp: at(1).toISOString() });
            throw refusal;
          });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBe(refusal);
        expect(await store.read('s1')).toEqual(state);
      });

      it('keeps the previous state when the new one is too deep to write (E_USAGE)', async () => {
        const state = session('s1', 'alpha');
        await store.create(state);
        let deep: Record<string, unknown> = {};
        for (let i = 0; i < 20_000; i++) deep = { d: deep };
        expect(await codeOfAsync(() => store.update('s1', (current) => ({ ...current, metadata: deep })))).toBe(
          'E_USAGE',
        );
        expect(await store.read('s1')).toEqual(state);
      });

      it('refuses a corrupt session with E_CORRUPT and leaves it as it was', async () => {
        await harness.plantCorrupt('bad');
        const change = jest.fn((state: SessionState) => state);
        expect(await codeOfAsync(() => store.update('bad', change))).toBe('E_CORRUPT');
        expect(change).not.toHaveBeenCalled();
        expect(await codeOfAsync(() => store.read('bad'))).toBe('E_CORRUPT');
      });

      it('sees every earlier update: 50 read-modify-writes in a row lose nothing', async () => {
        await store.create(session('s1', 'alpha'));
        for (let i = 0; i < 50; i++) await store.update('s1', (state) => touched(state, 1 + i, { [`k${i}`]: i }));
        const state = (await store.read('s1'))!;
        for (let i = 0; i < 50; i++) expect(state.metadata[`k${i}`]).toBe(i);
      });
    });

    describe('corrupt entries', () => {
      it('are listed as corrupt with a reason and a time, next to the valid ones, and read throws E_CORRUPT', async () => {
        await store.create(session('good', 'alpha'));
        await harness.plantCorrupt('bad');
        const listed = await store.list();
        expect(listed).toHaveLength(2);
        expect(listed.find((entry) => entry.id === 'good')?.kind).toBe('valid');
        const bad = listed.find((entry) => entry.id === 'bad');
        expect(bad).toMatchObject({ kind: 'corrupt', id: 'bad' });
        if (bad?.kind !== 'corrupt') throw new Error('expected a corrupt entry');
        expect(bad.error).toEqual(expect.any(String));
        expect(bad.error.length).toBeGreaterThan(0);
        expect(isDate(bad.modifiedAt)).toBe(true);
        expect(await codeOfAsync(() => store.read('bad'))).toBe('E_CORRUPT');
      });

      it('block a create of the same id (E_DUPLICATE): nothing is overwritten', async () => {
        await harness.plantCorrupt('bad');
        expect(await codeOfAsync(() => store.create(session('bad', 'alpha')))).toBe('E_DUPLICATE');
        expect(await codeOfAsync(() => store.read('bad'))).toBe('E_CORRUPT');
      });
    });

    describe('remove', () => {
      it('removes a session and says so; a missing one is false', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        expect(await store.remove('s1')).toBe(true);
        expect(await store.read('s1')).toBeNull();
        expect(await store.remove('s1')).toBe(false);
        expect(await store.remove('never')).toBe(false);
        expect((await store.list()).map((entry) => entry.id)).toEqual(['s2']);
      });

      it('asks shouldRemove with the current state, and keeps the session when it refuses', async () => {
        await store.create(session('s1', 'alpha'));
        const state = await store.update('s1', (current) => touched(current, 2, { x: true }));
        const refuse = jest.fn((_state: SessionState | null, _modifiedAt: Date) => false);
        expect(await store.remove('s1', refuse)).toBe(false);
        expect(refuse).toHaveBeenCalledTimes(1);
        expect(refuse.mock.calls[0]![0]).toEqual(state);
        expect(isDate(refuse.mock.calls[0]![1])).toBe(true);
        expect(await store.read('s1')).toEqual(state);
        const agree = jest.fn((_state: SessionState | null, _modifiedAt: Date) => true);
        expect(await store.remove('s1', agree)).toBe(true);
        expect(agree.mock.calls[0]![0]).toEqual(state);
        expect(await store.read('s1')).toBeNull();
      });

      it('gives shouldRemove null for a corrupt entry, and removes it when it agrees', async () => {
        await harness.plantCorrupt('bad');
        const refuse = jest.fn((_state: SessionState | null, _modifiedAt: Date) => false);
        expect(await store.remove('bad', refuse)).toBe(false);
        expect(refuse.mock.calls[0]![0]).toBeNull();
        expect(isDate(refuse.mock.calls[0]![1])).toBe(true);
        expect((await store.list()).map((entry) => entry.kind)).toEqual(['corrupt']);
        expect(await store.remove('bad', () => true)).toBe(true);
        expect(await store.list()).toEqual([]);
        expect(await store.read('bad')).toBeNull();
      });

      it('dates a corrupt entry by its last write, in the listing and to shouldRemove', async () => {
        await harness.plantCorrupt('old', at(-48 * 60));
        await harness.plantCorrupt('new', at(5));
        const dated = (await store.list()).map((entry) => [entry.id, entry.kind === 'corrupt' && entry.modifiedAt]);
        expect(Object.fromEntries(dated)).toEqual({ old: at(-48 * 60), new: at(5) });
        const asked = jest.fn((_state: SessionState | null, _modifiedAt: Date) => false);
        await store.remove('old', asked);
        expect(asked.mock.calls[0]![1].getTime()).toBe(at(-48 * 60).getTime());
      });

      it('frees the id: a removed session can be created again', async () => {
        await store.create(session('s1', 'alpha'));
        await store.remove('s1');
        const again = session('s1', 'beta', 9);
        await store.create(again);
        expect(await store.read('s1')).toEqual(again);
      });

      it('removeMany removes what shouldRemove agrees on, one outcome per id in order, absent ids not removed', async () => {
        for (const [id, minute] of [
          ['old1', 1],
          ['new1', 50],
          ['old2', 2],
        ] as const)
          await store.create(session(id, 'alpha', minute));
        await harness.plantCorrupt('bad');
        const judged: (string | null)[] = [];
        const outcomes = await store.removeMany(['old1', 'new1', 'ghost', 'bad', 'old2'], (state) => {
          judged.push(state === null ? null : state.agent_id);
          return state === null || Date.parse(state.last_updated) < at(10).getTime();
        });
        expect(outcomes).toEqual([
          { id: 'old1', removed: true },
          { id: 'new1', removed: false },
          { id: 'ghost', removed: false },
          { id: 'bad', removed: true },
          { id: 'old2', removed: true },
        ]);
        expect([...judged].sort()).toEqual(['new1', 'old1', 'old2', null].sort());
        expect((await store.list()).map((entry) => entry.id)).toEqual(['new1']);
        expect(await store.removeMany([], () => true)).toEqual([]);
      });
    });

    describe('newestOf', () => {
      it('is null for an agent without sessions', async () => {
        await store.create(session('s1', 'alpha'));
        expect(await store.newestOf(P, 'beta')).toBeNull();
        expect(await store.newestOf(P, '')).toBeNull();
      });

      it('is the most recently active session of that agent, whatever other agents did later', async () => {
        await store.create(session('old', 'alpha', 0, 1));
        await store.create(session('new', 'alpha', 0, 5));
        await store.create(session('other', 'beta', 0, 9));
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('new');
        expect((await store.newestOf(P, 'beta'))?.agent_id).toBe('other');
        // An update makes the older one the newest.
        await store.update('old', (state) => touched(state, 7));
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('old');
        expect(await store.newestOf(P, 'alpha')).toEqual(await store.read('old'));
      });

      it('breaks a tie of last activity by the later creation, in either order of writing', async () => {
        await store.create(session('later-made', 'alpha', 2, 5));
        await store.create(session('earlier-made', 'alpha', 1, 5));
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('later-made');
        await store.create(session('b-early', 'beta', 1, 5));
        await store.create(session('b-late', 'beta', 2, 5));
        expect((await store.newestOf(P, 'beta'))?.agent_id).toBe('b-late');
      });

      it('answers one of the sessions when activity and creation are equal', async () => {
        await store.create(session('t1', 'alpha', 3, 3));
        await store.create(session('t2', 'alpha', 3, 3));
        expect(['t1', 't2']).toContain((await store.newestOf(P, 'alpha'))?.agent_id);
      });

      it('ignores corrupt entries, including a newest session that became corrupt', async () => {
        await store.create(session('older', 'alpha', 0, 1));
        await store.create(session('newest', 'alpha', 0, 8));
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('newest');
        await harness.plantCorrupt('newest');
        await harness.plantCorrupt('stray');
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('older');
      });

      it('follows removals: the next newest, then none', async () => {
        await store.create(session('a1', 'alpha', 0, 1));
        await store.create(session('a2', 'alpha', 0, 2));
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('a2');
        await store.remove('a2');
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('a1');
        await store.remove('a1');
        expect(await store.newestOf(P, 'alpha')).toBeNull();
      });

      it.each([
        ['written last', false],
        ['written first', true],
      ])(
        'skips sessions active later than notAfter (a clock ahead, %s), answering the newest at or before it',
        async (_label, aheadFirst) => {
          if (aheadFirst) await store.create(session('ahead', 'alpha', 0, 60));
          await store.create(session('sane', 'alpha', 0, 2));
          await store.create(session('edge', 'alpha', 0, 4));
          if (!aheadFirst) await store.create(session('ahead', 'alpha', 0, 60));
          expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('ahead');
          expect((await store.newestOf(P, 'alpha', at(4).getTime()))?.agent_id).toBe('edge');
          expect((await store.newestOf(P, 'alpha', at(3).getTime()))?.agent_id).toBe('sane');
          expect(await store.newestOf(P, 'alpha', at(1).getTime())).toBeNull();
          // The bound does not stick: without it the newest is answered again.
          expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('ahead');
        },
      );
    });

    describe('newestPerAgent', () => {
      it('is [] for an empty store', async () => {
        expect(await store.newestPerAgent(P)).toEqual([]);
      });

      it('holds the newest valid session of each agent that was looked up, one per agent', async () => {
        await store.create(session('a-old', 'alpha', 0, 1));
        await store.create(session('a-new', 'alpha', 0, 5));
        await store.create(session('b-only', 'beta', 0, 2));
        await store.create(session('c-old', 'gamma', 0, 1));
        await store.create(session('c-new', 'gamma', 0, 7));
        for (const agent of ['alpha', 'beta', 'gamma']) await store.newestOf(P, agent);
        await harness.plantCorrupt('c-new');
        const ids = (await store.newestPerAgent(P)).map((state) => state.agent_id);
        expect([...ids].sort()).toEqual(['a-new', 'b-only', 'c-old']);
        await store.update('a-old', (state) => touched(state, 9));
        expect((await store.newestPerAgent(P)).find((state) => state.agent_name === 'alpha')).toEqual(
          await store.read('a-old'),
        );
      });
    });

    describe('query', () => {
      it('keeps the phases and agent asked, newest first, at most the limit, corrupt entries besides', async () => {
        const moved = (state: SessionState, phase: SessionState['phase']): SessionState => ({
          ...state,
          phase,
          resume_ready: true,
        });
        await store.create(moved(session('q-a1', 'alpha', 0, 1), 'planning'));
        await store.create(moved(session('q-a2', 'alpha', 0, 3), 'investigating'));
        await store.create(moved(session('q-b1', 'beta', 0, 2), 'planning'));
        await store.create(moved(session('q-other', 'alpha', 0, 9, Q), 'planning'));
        await harness.plantCorrupt('q-bad');
        const ids = async (query: Parameters<SessionStore['query']>[1], scope = { project: P }) =>
          (await store.query(scope, query)).map((entry) => (entry.kind === 'valid' ? entry.id : `corrupt:${entry.id}`));
        expect(await ids({})).toEqual(['q-a2', 'q-b1', 'q-a1', 'corrupt:q-bad']);
        expect(await ids({ phases: ['planning'] })).toEqual(['q-b1', 'q-a1', 'corrupt:q-bad']);
        expect(await ids({ agent: 'alpha' })).toEqual(['q-a2', 'q-a1', 'corrupt:q-bad']);
        expect(await ids({ limit: 2 })).toEqual(['q-a2', 'q-b1', 'corrupt:q-bad']);
        expect((await store.query(undefined, { phases: ['planning'], limit: 1 }))[0]?.id).toBe('q-other');
        // A session changed since an earlier query is answered as it is now.
        await store.update('q-a1', (state) => ({ ...touched(state, 20), phase: 'approval' }));
        expect(await ids({ phases: ['planning'] })).toEqual(['q-b1', 'corrupt:q-bad']);
        expect(await ids({ phases: ['approval'] })).toEqual(['q-a1', 'corrupt:q-bad']);
      });
    });

    describe('page and stats', () => {
      it('page answers what query does, with how many valid sessions it keeps in all', async () => {
        const moved = (state: SessionState, phase: SessionState['phase']): SessionState => ({ ...state, phase });
        for (let i = 0; i < 6; i++)
          await store.create(
            moved(session(`pg-${i}`, i % 2 === 0 ? 'alpha' : 'beta', 0, i), i < 4 ? 'approval' : 'planning'),
          );
        await store.create(moved(session('pg-other', 'alpha', 0, 9, Q), 'approval'));
        await harness.plantCorrupt('pg-bad');
        const cases: [Parameters<SessionStore['page']>[0], Parameters<SessionStore['page']>[1], number][] = [
          [{ project: P }, { phases: ['approval'], limit: 2 }, 4],
          [{ project: P }, { phases: ['approval'], agent: 'beta', limit: 1 }, 2],
          [{ project: P }, { limit: 3 }, 6],
          [undefined, { phases: ['approval'], limit: 1 }, 5],
          [{ project: Q }, { phases: ['planning'] }, 0],
        ];
        for (const [scope, query, total] of cases) {
          const page = await store.page(scope, query);
          expect({ entries: page.entries, total: page.total }).toEqual({
            entries: await store.query(scope, query),
            total,
          });
        }
      });

      it('aged answers the sessions of the scope active before or after the window, and every corrupt entry', async () => {
        await store.create(session('old-1', 'alpha', 0, 1));
        await store.create(session('new-1', 'alpha', 0, 30));
        await store.create(session('ahead-1', 'beta', 0, 500));
        await store.create(session('old-q', 'alpha', 0, 2, Q));
        await harness.plantCorrupt('aged-bad', at(5));
        const window = { before: at(10), after: at(100) };
        const seen = async (scope: Parameters<SessionStore['aged']>[0]) =>
          (await store.aged(scope, window))
            .map((entry) => (entry.kind === 'valid' ? `${entry.id}@${entry.last_updated}` : `corrupt:${entry.id}`))
            .sort();
        expect(await seen({ project: P })).toEqual([
          `ahead-1@${at(500).toISOString()}`,
          'corrupt:aged-bad',
          `old-1@${at(1).toISOString()}`,
        ]);
        expect(await seen(undefined)).toEqual([
          `ahead-1@${at(500).toISOString()}`,
          'corrupt:aged-bad',
          `old-1@${at(1).toISOString()}`,
          `old-q@${at(2).toISOString()}`,
        ]);
        const corrupt = (await store.aged({ project: Q }, window)).find((entry) => entry.kind === 'corrupt');
        expect(corrupt === undefined ? null : isDate(corrupt.modifiedAt)).toBe(true);
      });

      it('stats counts exactly what a full read of the sessions counts, per agent, project and since', async () => {
        const service = (project: string): Sessions =>
          new Sessions({ store, project, decisionOrigin: () => AT_TERMINAL });
        const p = service(P);
        const q = service(Q);
        const made: string[] = [];
        const make = async (on: Sessions, agent: string): Promise<string> => {
          const id = (await on.create({ agent_name: agent, purpose: 'stats' })).agent_id;
          made.push(id);
          return id;
        };
        // A session approved, then completed; one rejected, then failed; one interrupted; one resumed twice with an
        // error; one abandoned in another project; one left in approval; one corrupt.
        const approved = await make(p, 'alpha');
        await p.update(approved, { phase: 'approval' });
        await p.approve(approved);
        await p.finalize(approved, 'completed');
        const rejected = await make(p, 'beta');
        await p.update(rejected, { phase: 'approval' });
        await p.reject(rejected, { reason: 'no', to: 'planning' });
        await p.finalize(rejected, 'failed');
        const interrupted = await make(p, 'alpha');
        await p.update(interrupted, { phase: 'investigating' });
        await p.interrupt(interrupted, { error: 'rate_limit' });
        const resumed = await make(p, 'beta');
        await p.update(resumed, { phase: 'planning', error: 'boom' });
        await p.recordResume(resumed);
        await p.recordResume(resumed);
        const other = await make(q, 'alpha');
        await q.finalize(other, 'abandoned');
        const waiting = await make(p, 'gamma');
        await p.update(waiting, { phase: 'approval' });
        await harness.plantCorrupt('stats-bad');
        const now = await store.now();
        const limits = DEFAULT_LIMITS;
        const activeSince = new Date(now.getTime() - limits.resumeTimeoutMinutes * 60_000 - 1000);
        const cases: { scope: Parameters<SessionStore['stats']>[0]; agent?: string; since?: Date }[] = [
          { scope: { project: P } },
          { scope: undefined },
          { scope: { project: P }, agent: 'alpha' },
          { scope: undefined, since: new Date(now.getTime() + 60_000) },
          { scope: { project: Q } },
        ];
        for (const { scope, agent, since } of cases) {
          const answer = await store.stats(scope, {
            activeSince,
            ...(agent === undefined ? {} : { agent }),
            ...(since === undefined ? {} : { since }),
          });
          const options = { now, limits, ...(since === undefined ? {} : { since }) };
          const got = statsOfTally(answer.tally, answer.live, options);
          const listed = await store.list(scope);
          const states = listed.flatMap((entry) =>
            entry.kind === 'valid' && (agent === undefined || entry.state.agent_name === agent) ? [entry.state] : [],
          );
          expect(got.stats).toEqual(computeStats(states, options));
          // Each project's figures as those of its own sessions (only projects with a session counted).
          const projects = [
            ...new Set(
              states
                .filter((state) => since === undefined || Date.parse(state.created_at) >= since.getTime())
                .map((state) => state.project ?? null),
            ),
          ];
          expect(got.projects.map((one) => one.project).sort()).toEqual(projects.sort());
          for (const one of got.projects)
            expect(one.overall).toEqual(
              computeStats(
                states.filter((state) => (state.project ?? null) === one.project),
                options,
              ).overall,
            );
          expect(answer.corrupt.map((entry) => entry.id)).toEqual(
            listed.filter((entry) => entry.kind === 'corrupt').map((entry) => entry.id),
          );
        }
        // Not vacuous: the figures count what was made.
        const all = statsOfTally((await store.stats(undefined, { activeSince })).tally, [], { now, limits }).stats;
        expect(all.overall).toMatchObject({ sessions: made.length, completed: 1, failed: 1, abandoned: 1 });
        expect(all.overall).toMatchObject({ approvals: 1, rejections: 1, interruptions: 1, resumes: 2 });
        expect(all.overall.median_duration_seconds).not.toBeNull();
      });
    });

    describe('stats medians', () => {
      it('gives the median of two middle durations as the views compute it from the sessions (1 ms and 18 ms)', async () => {
        // `(a + b) / 2` would give 0.0095 here (rounded: 0.01); PostgreSQL's percentile_cont and core's rawMedian give
        // 0.009499999999999998 (0.009), on every store alike.
        for (const [id, ms] of [
          ['agent-median-1', 1],
          ['agent-median-2', 18],
        ] as const)
          await store.create(
            finalizeState(session(id, 'alpha'), 'completed', undefined, new Date(at(0).getTime() + ms)),
          );
        const now = await store.now();
        const options = { now, limits: DEFAULT_LIMITS };
        const answer = await store.stats({ project: P }, { activeSince: at(0) });
        const got = statsOfTally(answer.tally, answer.live, options).stats;
        const states = (await store.list({ project: P })).flatMap((entry) =>
          entry.kind === 'valid' ? [entry.state] : [],
        );
        expect(got.overall.median_duration_seconds).toBe(computeStats(states, options).overall.median_duration_seconds);
        expect(got.overall.median_duration_seconds).toBe(0.009);
        expect(got.agents.alpha?.median_duration_seconds).toBe(0.009);
      });
    });

    describe('idsContaining', () => {
      it('answers the equal id alone, else the ids holding the part (of any project, corrupt too), at most `limit`', async () => {
        await store.create(session('agent-1-aaaa1111', 'alpha'));
        await store.create(session('agent-2-aaaa2222', 'alpha', 0, 0, Q));
        await store.create(session('agent-3-bbbb1111', 'beta'));
        await store.create(session('agent-3', 'beta'));
        await harness.plantCorrupt('agent-4-cccc1111');
        expect(await store.idsContaining('zzzz', 5)).toEqual([]);
        expect(await store.idsContaining('aaaa2222', 5)).toEqual(['agent-2-aaaa2222']);
        expect((await store.idsContaining('aaaa', 5)).sort()).toEqual(['agent-1-aaaa1111', 'agent-2-aaaa2222']);
        expect((await store.idsContaining('1111', 5)).sort()).toEqual([
          'agent-1-aaaa1111',
          'agent-3-bbbb1111',
          'agent-4-cccc1111',
        ]);
        expect(await store.idsContaining('1111', 2)).toHaveLength(2);
        // An id that is also part of others is answered alone.
        expect(await store.idsContaining('agent-3', 1)).toEqual(['agent-3']);
      });
    });

    describe('findByClaudeAgent', () => {
      it('is null for a Claude agent no session is linked to', async () => {
        await store.create(session('s1', 'alpha'));
        expect(await store.findByClaudeAgent(P, 'a0000000000000001')).toBeNull();
      });

      it('finds the linked session, and follows a relink to another Claude agent', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        expect(await store.findByClaudeAgent(P, 'claude-1')).toEqual(await store.read('s1'));
        await link(store, 's1', 'claude-2', 2);
        expect(await store.findByClaudeAgent(P, 'claude-1')).toBeNull();
        expect((await store.findByClaudeAgent(P, 'claude-2'))?.agent_id).toBe('s1');
      });

      it('follows the link when it moves to another session', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        await link(store, 's1', 'claude-9', 2);
        await link(store, 's2', 'claude-1', 3);
        expect((await store.findByClaudeAgent(P, 'claude-1'))?.agent_id).toBe('s2');
      });

      it('answers the most recently active session when several are linked to one Claude agent', async () => {
        for (const id of ['s1', 's2', 's3']) await store.create(session(id, 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        await link(store, 's2', 'claude-1', 4);
        await link(store, 's3', 'claude-1', 2);
        expect((await store.findByClaudeAgent(P, 'claude-1'))?.agent_id).toBe('s2');
        await store.update('s1', (state) => touched(state, 9));
        expect((await store.findByClaudeAgent(P, 'claude-1'))?.agent_id).toBe('s1');
      });

      it('ignores a linked session that became corrupt or was removed', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        await link(store, 's2', 'claude-1', 2);
        await harness.plantCorrupt('s2');
        expect((await store.findByClaudeAgent(P, 'claude-1'))?.agent_id).toBe('s1');
        await store.remove('s1');
        expect(await store.findByClaudeAgent(P, 'claude-1')).toBeNull();
      });
    });

    describe('attachedTo', () => {
      it('is null for a Claude agent never attached', async () => {
        await store.create(session('s1', 'alpha'));
        expect(await store.attachedTo(P, 'claude-0')).toBeNull();
      });

      it('still answers the session after a later Claude agent resumed it (relink), where findByClaudeAgent does not', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        expect(await store.attachedTo(P, 'claude-1')).toEqual(await store.read('s1'));
        await link(store, 's1', 'claude-2', 2);
        expect(await store.findByClaudeAgent(P, 'claude-1')).toBeNull();
        expect((await store.attachedTo(P, 'claude-1'))?.agent_id).toBe('s1');
        expect((await store.attachedTo(P, 'claude-1'))?.claude?.agent_id).toBe('claude-2');
        expect((await store.attachedTo(P, 'claude-2'))?.agent_id).toBe('s1');
      });

      it('answers the current link when the attached session was removed or is corrupt', async () => {
        await store.create(session('s1', 'alpha'));
        await store.create(session('s2', 'alpha'));
        await link(store, 's1', 'claude-1', 1);
        await link(store, 's2', 'claude-1', 2);
        await harness.plantCorrupt('s2');
        expect((await store.attachedTo(P, 'claude-1'))?.agent_id).toBe('s1');
        await store.remove('s1');
        expect(await store.attachedTo(P, 'claude-1')).toBeNull();
      });
    });

    describe('lockClaudeAgent', () => {
      it('runs the work once and gives back its result, with or without an agent type', async () => {
        let runs = 0;
        expect(await store.lockClaudeAgent('claude-1', 'Explore', async () => ++runs)).toBe(1);
        expect(await store.lockClaudeAgent('claude-1', '', async () => ++runs)).toBe(2);
      });

      it('passes on what the work throws and releases the locks, so the next attach runs', async () => {
        const boom = new SessionError('E_CORRUPT', 'boom');
        await expect(
          store.lockClaudeAgent('claude-1', 'Explore', async () => {
            throw boom;
          }),
        ).rejects.toThrow(boom);
        expect(await store.lockClaudeAgent('claude-1', 'Explore', async () => 'again')).toBe('again');
      });

      it('lets the work write the store (find, relink or create under the locks)', async () => {
        await store.create(session('s1', 'alpha'));
        const linked = await store.lockClaudeAgent('claude-1', 'alpha', () => link(store, 's1', 'claude-1', 3));
        expect(await store.findByClaudeAgent(P, 'claude-1')).toEqual(linked);
      });

      /** Work that says when it starts and ends, and yields to the event loop in between (where a rival could run). */
      function traced(log: string[], name: string): () => Promise<string> {
        return async () => {
          log.push(`start ${name}`);
          await new Promise((resolve) => setImmediate(resolve));
          log.push(`end ${name}`);
          return name;
        };
      }

      it.each([
        ['one Claude agent id', ['claude-1', 'claude-1', 'claude-1'], ['Explore', 'Plan', '']],
        ['one agent type', ['claude-1', 'claude-2', 'claude-3'], ['Explore', 'Explore', 'Explore']],
      ])('runs concurrent callers of %s one at a time, in the order they came', async (_what, ids, types) => {
        const log: string[] = [];
        const names = ['a', 'b', 'c'];
        const results = await Promise.all(
          names.map((name, i) => store.lockClaudeAgent(ids[i]!, types[i]!, traced(log, name))),
        );
        expect(results).toEqual(names);
        expect(log).toEqual(names.flatMap((name) => [`start ${name}`, `end ${name}`]));
      });

      it('lets callers of other Claude agent ids and types run meanwhile', async () => {
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        // The first work waits for the second: serialized, the two would wait for ever (the test times out).
        const first = store.lockClaudeAgent('claude-1', 'Explore', async () => {
          await released;
          return 'first';
        });
        const second = store.lockClaudeAgent('claude-2', 'Plan', async () => {
          release();
          return 'second';
        });
        expect(await Promise.all([first, second])).toEqual(['first', 'second']);
      });

      it('a work that fails lets the callers queued behind it run', async () => {
        const log: string[] = [];
        const failing = store.lockClaudeAgent('claude-1', 'Explore', async () => {
          await new Promise((resolve) => setImmediate(resolve));
          throw new SessionError('E_CORRUPT', 'boom');
        });
        const next = store.lockClaudeAgent('claude-1', 'Explore', traced(log, 'next'));
        await expect(failing).rejects.toThrow('boom');
        expect(await next).toBe('next');
        expect(log).toEqual(['start next', 'end next']);
      });

      it('makes a read, a pause and a write of 10 racing callers one step each: no update is lost', async () => {
        await store.create(session('s1', 'alpha'));
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.lockClaudeAgent(`claude-${i}`, 'alpha', async () => {
              const seen = Number((await store.read('s1'))!.metadata.n);
              await new Promise((resolve) => setImmediate(resolve));
              return store.update('s1', (state) => ({ ...state, metadata: { ...state.metadata, n: seen + 1 } }));
            }),
          ),
        );
        expect((await store.read('s1'))!.metadata.n).toBe(11);
      });
    });

    describe('hosts', () => {
      it("keeps each session's host (schema v6), and answers the newest of an agent name whatever its host", async () => {
        const codex = withHost(session('x1', 'alpha', 0, 3), 'codex');
        await store.create(session('c1', 'alpha', 0, 1));
        await store.create(codex);
        expect(codex).toMatchObject({ host: 'codex', schema_version: HOST_SCHEMA_VERSION });
        expect(await store.read('x1')).toEqual(codex);
        expect((await store.read('c1'))?.host).toBeUndefined();
        // The store does not filter by host: the service does (Sessions answers one host), on what the store gives.
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('x1');
        expect((await store.newestPerAgent(P)).map((state) => state.agent_id)).toEqual(['x1']);
        const updated = await store.update('x1', (state) => touched(state, 4, { more: true }));
        expect(updated).toMatchObject({ host: 'codex', metadata: { n: 1, more: true } });
        expect((await store.list({ project: P })).map((entry) => entry.id).sort()).toEqual(['c1', 'x1']);
      });
    });

    describe('project scoping', () => {
      it("answers every lookup with its project's sessions only, whatever another project did later", async () => {
        await store.create(session('p1', 'alpha', 0, 1));
        await store.create(session('q1', 'alpha', 0, 5, Q));
        await store.create(session('q2', 'beta', 0, 6, Q));
        await link(store, 'p1', 'claude-p', 2);
        await link(store, 'q1', 'claude-q', 7);
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('p1');
        expect((await store.newestOf(Q, 'alpha'))?.agent_id).toBe('q1');
        expect(await store.newestOf(P, 'beta')).toBeNull();
        expect((await store.newestPerAgent(P)).map((state) => state.agent_id)).toEqual(['p1']);
        expect((await store.newestPerAgent(Q)).map((state) => state.agent_id).sort()).toEqual(['q1', 'q2']);
        expect(await store.findByClaudeAgent(P, 'claude-q')).toBeNull();
        expect(await store.attachedTo(P, 'claude-q')).toBeNull();
        expect((await store.attachedTo(Q, 'claude-q'))?.agent_id).toBe('q1');
        expect((await store.findByClaudeAgent(P, 'claude-p'))?.agent_id).toBe('p1');
        expect(await store.newestOf('github.com/acme/other', 'alpha')).toBeNull();
        expect((await store.list({ project: P })).map((entry) => entry.id)).toEqual(['p1']);
        expect((await store.list()).map((entry) => entry.id).sort()).toEqual(['p1', 'q1', 'q2']);
      });

      it("keeps each session's project: what was created reads back with it", async () => {
        await store.create(session('q1', 'alpha', 0, 1, Q));
        expect((await store.read('q1'))?.project).toBe(Q);
        expect(await store.read('q1')).toEqual(session('q1', 'alpha', 0, 1, Q));
        const [listed] = await store.list({ project: Q });
        expect(listed?.kind === 'valid' ? listed.state : null).toEqual(session('q1', 'alpha', 0, 1, Q));
      });

      it("answers a Claude agent id linked in two projects with each project's own session", async () => {
        await store.create(session('p1', 'alpha'));
        await store.create(session('q1', 'alpha', 0, 0, Q));
        await link(store, 'p1', 'claude-x', 1);
        await link(store, 'q1', 'claude-x', 3);
        expect((await store.findByClaudeAgent(P, 'claude-x'))?.agent_id).toBe('p1');
        expect((await store.attachedTo(P, 'claude-x'))?.agent_id).toBe('p1');
        expect((await store.findByClaudeAgent(Q, 'claude-x'))?.agent_id).toBe('q1');
        expect((await store.attachedTo(Q, 'claude-x'))?.agent_id).toBe('q1');
      });

      it("follows a session given another project: its old project's lookups no longer answer it", async () => {
        await store.create(session('moved', 'alpha', 0, 2, Q));
        await link(store, 'moved', 'claude-m', 3);
        expect((await store.newestOf(Q, 'alpha'))?.agent_id).toBe('moved');
        await store.update('moved', (state) => withProject(state, P));
        expect(await store.newestOf(Q, 'alpha')).toBeNull();
        expect(await store.newestPerAgent(Q)).toEqual([]);
        expect(await store.attachedTo(Q, 'claude-m')).toBeNull();
        expect((await store.newestOf(P, 'alpha'))?.agent_id).toBe('moved');
        expect((await store.attachedTo(P, 'claude-m'))?.agent_id).toBe('moved');
        expect((await store.newestPerAgent(P)).map((state) => state.agent_id)).toEqual(['moved']);
      });

      it("treats a session created without a project as unassigned (or as its home project's)", async () => {
        await store.create(session('none', 'alpha', 0, 4, null));
        await link(store, 'none', 'claude-n', 5);
        const home = harness.home;
        expect((await store.read('none'))?.project).toBe(home);
        if (home === undefined) {
          // Unassigned: listed when asked for, never the answer of a lookup.
          expect(await store.newestOf(P, 'alpha')).toBeNull();
          expect(await store.newestPerAgent(P)).toEqual([]);
          expect(await store.attachedTo(P, 'claude-n')).toBeNull();
          expect(await store.findByClaudeAgent(P, 'claude-n')).toBeNull();
          expect(await store.list({ project: P })).toEqual([]);
          expect((await store.list({ project: P, unassigned: true })).map((entry) => entry.id)).toEqual(['none']);
        } else {
          expect((await store.newestOf(home, 'alpha'))?.agent_id).toBe('none');
          expect((await store.attachedTo(home, 'claude-n'))?.agent_id).toBe('none');
          expect((await store.list({ project: home })).map((entry) => entry.id)).toEqual(['none']);
        }
        expect((await store.list()).map((entry) => entry.id)).toEqual(['none']);
      });

      it('lists a corrupt entry, whose project cannot be read, in every scope', async () => {
        await store.create(session('q1', 'alpha', 0, 1, Q));
        await harness.plantCorrupt('bad');
        expect((await store.list({ project: P })).map((entry) => entry.id)).toEqual(['bad']);
        expect((await store.list({ project: Q })).map((entry) => entry.id).sort()).toEqual(['bad', 'q1']);
      });

      it('keeps a corrupt entry that names a project to that project, in list and query alike', async () => {
        await store.create(session('p1', 'alpha', 0, 1));
        await harness.plantCorrupt('bad-q', undefined, Q);
        await harness.plantCorrupt('bad-p', undefined, P);
        const ids = (entries: readonly ListedSession[]) => entries.map((entry) => entry.id).sort();
        expect(ids(await store.list({ project: P }))).toEqual(['bad-p', 'p1']);
        expect(ids(await store.query({ project: P }, {}))).toEqual(['bad-p', 'p1']);
        expect(ids(await store.query({ project: P }, { phases: ['planning'] }))).toEqual(['bad-p']);
        expect(ids(await store.query({ project: Q }, {}))).toEqual(['bad-q']);
        expect(ids(await store.query(undefined, {}))).toEqual(['bad-p', 'bad-q', 'p1']);
      });
    });

    describe('now and close', () => {
      it('answers a valid time, and closing twice is harmless', async () => {
        const now = await store.now();
        expect(isDate(now)).toBe(true);
        await store.close();
        await store.close();
      });
    });

    // The optional part of the port: run on the stores that have it, and checked absent on the others.
    if (options.maintenance)
      describe('maintenance', () => {
        it('sweep finds no leftovers after ordinary writes and keeps every session', async () => {
          for (const id of ['s1', 's2', 's3']) await store.create(session(id, 'alpha'));
          await store.update('s2', (state) => touched(state, 4));
          await link(store, 's3', 'claude-1', 5);
          await harness.plantCorrupt('bad');
          expect(await store.maintenance!.sweep(0, at(60 * 24))).toEqual([]);
          expect((await store.list()).map((entry) => entry.id).sort()).toEqual(['bad', 's1', 's2', 's3']);
        });

        it('claims every session the store made, and allows removing', async () => {
          await store.create(session('s1', 'alpha'));
          expect(await store.maintenance!.notOurs('s1')).toBeNull();
          await expect(store.maintenance!.assertRemovable()).resolves.not.toThrow();
          expect(await store.maintenance!.foreignEntries()).toEqual([]);
          expect(await store.remove('s1')).toBe(true);
        });
      });
    else
      it('has no maintenance: nothing of a folder to sweep, and removing needs no permission', async () => {
        expect(store.maintenance).toBeUndefined();
        await store.create(session('s1', 'alpha'));
        expect(await store.remove('s1')).toBe(true);
      });

    // Declared only for backends that processes share; a one-process backend has no such writers.
    if (options.multiProcess)
      describe('concurrent writers in separate processes', () => {
        it('lose no update to one session', async () => {
          if (harness.concurrentUpdates === undefined) throw new Error(`${name}: multiProcess needs concurrentUpdates`);
          const workers = 3;
          const count = 15;
          await store.create(session('shared', 'alpha'));
          await harness.concurrentUpdates('shared', workers, count);
          const state = (await store.read('shared'))!;
          for (let w = 0; w < workers; w++)
            for (let i = 0; i < count; i++) expect(state.metadata[`w${w}_${i}`]).toBe(i);
          expect(Object.keys(state.metadata)).toHaveLength(workers * count + 1);
        });
      });
  });
}
