// Guarantee: no lost update. Many processes write one session at once; cleanup races with writers; parallel
// creates with one id. Every check reads the final state back through the strict schema. The same cases run on the
// file store and on the PostgreSQL store (the real server: tests/support/test-database.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newSession } from '../../src/core/session';
import { parseState, type SessionState } from '../../src/core/state';
import { FileStore } from '../../src/store/file-store';
import { askRelay } from '../../src/store/relay/relay-admin';
import { startRelay, type InProcessRelay } from '../support/relays';
import { describeWithDatabase, type TestDatabase } from '../support/test-database';
import { BIN, bundleWorker, makeTemp, prng, removeTemp, runBin, runNode, seedOf } from './helpers';

let dir: string;
let worker: string;

beforeAll(() => {
  dir = makeTemp();
  worker = bundleWorker(dir);
});
afterAll(() => removeTemp(dir));

/** One backend the cases run on: what its children are given, and the test's own way in. */
interface Backend {
  /** Added to every child's environment (the database, for PostgreSQL). */
  readonly env: Record<string, string>;
  /** The `--dir` given to the CLI and the worker (the file store's folder; ignored by the PostgreSQL store). */
  readonly store: string;
  create(state: SessionState): Promise<void>;
  /** The state as stored, through the strict schema; null when absent. */
  read(id: string): Promise<SessionState | null>;
}

/** Each from_phase is the previous to_phase, starting at initializing; the last to_phase is the phase. */
function expectHistoryChain(state: SessionState): void {
  let phase = 'initializing';
  for (const entry of state.history) {
    expect(entry.from_phase).toBe(phase);
    expect(entry.to_phase).not.toBe(entry.from_phase);
    phase = entry.to_phase;
  }
  expect(state.phase).toBe(phase);
}

/** A file store in a fresh temp folder. */
function fileBackend(): Backend & { dispose(): void } {
  const store = join(makeTemp(), 'store');
  const files = new FileStore(store);
  return {
    env: {},
    store,
    create: async (state) => files.create(state),
    read: async (id) => {
      try {
        return parseState(JSON.parse(readFileSync(join(store, id, 'state.json'), 'utf8')));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    dispose: () => removeTemp(join(store, '..')),
  };
}

/** The PostgreSQL store on this file's schema. */
function pgBackend(db: TestDatabase): Backend {
  const pg = db.store();
  return {
    env: { AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema },
    store: join(dir, 'unused-store-folder'),
    create: (state) => pg.create(state),
    read: (id) => pg.read(id),
  };
}

describe('file store', () => {
  let backend: ReturnType<typeof fileBackend>;
  beforeEach(() => (backend = fileBackend()));
  afterEach(() => backend.dispose());
  describeConcurrency(() => backend);
});

describeWithDatabase('PostgreSQL store', (db) => {
  let backend: Backend;
  beforeEach(() => (backend = pgBackend(db)));
  afterEach(() => db.truncate());
  describeConcurrency(() => backend);
});

// The workers reach the database through a relay (the hooks' way, src/store/relay/), the CLI directly, side by side.
describeWithDatabase('PostgreSQL store, the workers through the relay', (db) => {
  let backend: Backend;
  let relay: InProcessRelay;
  beforeAll(async () => {
    relay = await startRelay(db.url, db.schema, dir);
  });
  afterAll(async () => {
    // The workers' calls went through it (had one gone direct, they would not be here).
    const status = await askRelay(relay.place, relay.store, '$status');
    expect(status.running && (status.value as { requests: number }).requests).toBeGreaterThan(400);
    await relay.stop();
  });
  beforeEach(() => {
    const direct = pgBackend(db);
    backend = {
      ...direct,
      env: { ...direct.env, AGENT_SESSION_WORKER_STORE: 'relay', AGENT_SESSION_WORKER_RELAY_DIR: relay.place.dir },
    };
  });
  afterEach(() => db.truncate());
  describeConcurrency(() => backend);
});

/** The cases, on the backend `current()` gives for each test. */
function describeConcurrency(current: () => Backend): void {
  describe('concurrent writers', () => {
    it('8 processes x 50 mixed updates on one session: nothing lost, error_count exact, history a chain', async () => {
      const workers = 8;
      const updates = 50;
      const { store, env } = current();
      const created = runBin(
        BIN.cli,
        ['create', '--agent', 'stress', '--purpose', 'p', '--id', 'shared', '--dir', store],
        { dir, env },
      );
      expect(created.status).toBe(0);
      const results = await Promise.all(
        Array.from({ length: workers }, (_, w) =>
          runNode(worker, ['updates', store, 'shared', String(w), String(updates)], dir, env),
        ),
      );
      for (const result of results) {
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
      }
      const expectedErrors = results.reduce(
        (sum, result) => sum + (JSON.parse(result.stdout) as { errors: number }).errors,
        0,
      );
      const state = (await current().read('shared'))!;
      for (let w = 0; w < workers; w++) {
        for (let i = 0; i < updates; i++) expect(state.metadata[`w${w}_${i}`]).toBe(i);
      }
      expect(Object.keys(state.metadata)).toHaveLength(workers * updates);
      expect(state.error_count).toBe(expectedErrors);
      expect(state.error_count).toBe(workers * Math.ceil(updates / 5));
      expect(state.last_error).not.toBeNull();
      expectHistoryChain(state);
      // At most one history entry per phase-changing update (a move to the same phase adds none).
      expect(state.history.length).toBeLessThanOrEqual(workers * Math.ceil(updates / 3));
    });

    it('8 CLI processes x 10 updates each through the built bin: nothing lost', async () => {
      const workers = 8;
      const updates = 10;
      const { store, env } = current();
      expect(
        runBin(BIN.cli, ['create', '--agent', 'stress', '--purpose', 'p', '--id', 'cli', '--dir', store], { dir, env })
          .status,
      ).toBe(0);
      const phases = ['investigating', 'planning', 'approval', 'executing'];
      const chains = Array.from({ length: workers }, async (_, w) => {
        for (let i = 0; i < updates; i++) {
          const args = ['update', 'cli', '--dir', store, '--metadata', JSON.stringify({ [`c${w}_${i}`]: i })];
          if (i % 2 === 0) args.push('--phase', phases[(w + i) % phases.length]!);
          if (i % 3 === 0) args.push('--error', `e${w}.${i}`);
          const result = await runNode(BIN.cli, args, dir, env);
          expect(result.stderr).toBe('');
          expect(result.status).toBe(0);
        }
      });
      await Promise.all(chains);
      const state = (await current().read('cli'))!;
      expect(Object.keys(state.metadata)).toHaveLength(workers * updates);
      expect(state.error_count).toBe(workers * Math.ceil(updates / 3));
      expectHistoryChain(state);
    });

    it('cleanup racing with writers never removes a session touched inside its window', async () => {
      const random = prng(seedOf('cleanup race'));
      const backend = current();
      const { store, env } = backend;
      const old = new Date(Date.now() - 48 * 3_600_000);
      let touchedTotal = 0;
      let removedTotal = 0;
      for (let round = 0; round < 4; round++) {
        const ids = Array.from({ length: 60 }, (_, i) => `r${round}-s${i}`);
        for (const id of ids)
          await backend.create(newSession({ agent_id: id, agent_name: 'stale', purpose: 'p' }, old));
        const subsets = Array.from({ length: 4 }, () => ids.filter(() => random() < 0.3).sort(() => random() - 0.5));
        const [touches, cleanups] = await Promise.all([
          Promise.all(subsets.map((subset) => runNode(worker, ['touch', store, subset.join(',')], dir, env))),
          Promise.all(
            Array.from({ length: 3 }, () =>
              // Every project's: the sessions made here name none (the store is no project's folder).
              runNode(BIN.cli, ['cleanup', '--hours', '24', '--all-projects', '--json', '--dir', store], dir, env),
            ),
          ),
        ]);
        const touched = new Set<string>();
        for (const result of touches) {
          expect(result.status).toBe(0);
          for (const id of (JSON.parse(result.stdout) as { touched: string[] }).touched) touched.add(id);
        }
        const removed = new Set<string>();
        for (const result of cleanups) {
          expect(result.stderr).toBe('');
          expect(result.status).toBe(0);
          for (const id of (JSON.parse(result.stdout) as { removed: string[] }).removed) {
            expect(removed.has(id)).toBe(false); // two cleanups never both remove one session
            removed.add(id);
          }
        }
        for (const id of touched) {
          expect(removed.has(id)).toBe(false);
          expect((await backend.read(id))?.agent_id).toBe(id);
        }
        // Every stale session nobody touched is gone, and each one present was touched.
        for (const id of ids) expect((await backend.read(id)) !== null).toBe(touched.has(id));
        touchedTotal += touched.size;
        removedTotal += removed.size;
      }
      process.stdout.write(
        `[stress] cleanup race: 4 rounds, ${touchedTotal} sessions touched and kept, ${removedTotal} removed\n`,
      );
      expect(touchedTotal).toBeGreaterThan(0);
      expect(removedTotal).toBeGreaterThan(0);
    });

    it('parallel create with the same --id: exactly one wins, the others are refused with exit 4', async () => {
      const { store, env } = current();
      for (let round = 0; round < 8; round++) {
        const id = `same-${round}`;
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, p) =>
            runNode(BIN.cli, ['create', '--agent', `p${p}`, '--purpose', 'race', '--id', id, '--dir', store], dir, env),
          ),
        );
        const winners = results.flatMap((result, p) => (result.status === 0 ? [p] : []));
        expect(winners).toHaveLength(1);
        for (const result of results) expect([0, 4]).toContain(result.status);
        expect((await current().read(id))?.agent_name).toBe(`p${winners[0]}`);
      }
    });
  });
}
