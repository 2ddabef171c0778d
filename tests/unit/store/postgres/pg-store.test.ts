// PostgreSQL-specific behaviour of PgStore, on the real server (tests/support/test-database.ts); the behaviour every
// backend shares is the contract suite's (tests/contract/pg-store.test.ts).
import { existsSync } from 'node:fs';
import { SessionError } from '../../../../src/core/errors';
import { newSession } from '../../../../src/core/session';
import type { SessionState } from '../../../../src/core/state';
import { PgStore } from '../../../../src/store/postgres/pg-store';
import { LATEST_VERSION } from '../../../../src/store/postgres/schema';
import { describeWithDatabase, freshSchemaName, TEST_DATABASE_URL } from '../../../support/test-database';

/** The code of what `work` rejects with (undefined when it resolves). */
async function rejection(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return error instanceof SessionError ? error.code : `not a SessionError: ${String(error)}`;
  }
  return undefined;
}

const T0 = new Date('2026-01-08T18:00:00.000Z');
const session = (id: string, agent = 'alpha'): SessionState =>
  newSession({ agent_id: id, agent_name: agent, purpose: 'pg', metadata: { n: 1 } }, T0);

describeWithDatabase('PgStore on PostgreSQL', (db) => {
  afterEach(() => db.truncate());

  describe('migrate', () => {
    it('is idempotent and recorded: a second run applies nothing', async () => {
      const again = await db.store().migrate();
      expect(again).toEqual({ schema: db.schema, from: LATEST_VERSION, to: LATEST_VERSION, applied: [] });
      const rows = await db.sql('SELECT version FROM $s.migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual([1, 2, 3]);
    });

    it('runs once when four processes migrate a fresh schema at once (advisory lock, one transaction)', async () => {
      const schema = freshSchemaName();
      const stores = Array.from({ length: 4 }, () => new PgStore({ url: TEST_DATABASE_URL, schema }));
      try {
        const results = await Promise.all(stores.map((store) => store.migrate()));
        expect(results.filter((result) => result.applied.length > 0)).toHaveLength(1);
        expect(results.every((result) => result.to === LATEST_VERSION)).toBe(true);
        await stores[0]!.create(session('after'));
        expect((await stores[1]!.read('after'))?.agent_id).toBe('after');
      } finally {
        await Promise.all(stores.map((store) => store.close()));
        await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    });

    it('refuses a schema made by a newer agent-session (E_REFUSED), for migrate and every read, changing nothing', async () => {
      const schema = freshSchemaName();
      const store = new PgStore({ url: TEST_DATABASE_URL, schema });
      try {
        await store.migrate();
        await db.sql(`INSERT INTO "${schema}".migrations (version, name) VALUES (${LATEST_VERSION + 1}, 'future')`);
        const fresh = new PgStore({ url: TEST_DATABASE_URL, schema });
        try {
          expect(await rejection(() => fresh.migrate())).toBe('E_REFUSED');
          expect(await rejection(() => fresh.read('x'))).toBe('E_REFUSED');
          expect(await rejection(() => fresh.create(session('x')))).toBe('E_REFUSED');
        } finally {
          await fresh.close();
        }
        const rows = await db.sql(`SELECT count(*)::int AS n FROM "${schema}".sessions`);
        expect(rows[0]!.n).toBe(0);
      } finally {
        await store.close();
        await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    });

    // Issue 20 #13: migrate said "already up to date" on a table altered by hand while every attach failed.
    it.each([
      ['a dropped column', 'ALTER TABLE $t.sessions DROP COLUMN phase', 'phase'],
      ['a column of another type', 'ALTER TABLE $t.sessions ALTER COLUMN error_count TYPE text', 'error_count'],
      ['a dropped table', 'DROP TABLE $t.claude_agents', 'claude_agents'],
      ['a dropped primary key', 'ALTER TABLE $t.claude_agents DROP CONSTRAINT claude_agents_pkey', 'claude_agent_id'],
    ])('refuses tables altered by hand (%s) with E_REFUSED, naming what is wrong', async (_name, alter, named) => {
      const schema = freshSchemaName();
      const store = new PgStore({ url: TEST_DATABASE_URL, schema });
      try {
        await store.migrate();
        await db.sql(alter.replaceAll('$t', `"${schema}"`));
        let message = '';
        await store.migrate().catch((error: Error) => (message = error.message));
        expect(await rejection(() => store.migrate())).toBe('E_REFUSED');
        expect(message).toContain(named);
      } finally {
        await store.close();
        await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    });

    it('says "run agent-session migrate" (E_IO) on a schema without tables, and creates none itself', async () => {
      const schema = freshSchemaName();
      const store = new PgStore({ url: TEST_DATABASE_URL, schema });
      try {
        let message = '';
        await store.create(session('x')).catch((error: Error) => (message = error.message));
        expect(message).toContain('agent-session migrate');
        expect(await rejection(() => store.list())).toBe('E_IO');
        const found = await db.sql('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
        expect(found).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });

  describe('rows', () => {
    it('keeps the indexed columns equal to the document it writes', async () => {
      const store = db.store();
      await store.create(session('s1'));
      await store.update('s1', (state) => ({
        ...state,
        phase: 'planning',
        last_updated: '2026-01-08T18:05:00.000Z',
        claude: { agent_id: 'a1', agent_type: 'alpha', linked_at: '2026-01-08T18:05:00.000Z' },
      }));
      const [row] = await db.sql(
        `SELECT agent_name, phase, version::int AS version, last_activity, claude_agent_id, state->>'phase' AS doc_phase
         FROM $s.sessions WHERE id = 's1'`,
      );
      expect(row).toEqual({
        agent_name: 'alpha',
        phase: 'planning',
        version: 2,
        last_activity: new Date('2026-01-08T18:05:00.000Z'),
        claude_agent_id: 'a1',
        doc_phase: 'planning',
      });
    });

    it('refuses a text PostgreSQL cannot hold in jsonb (a NUL character) with E_USAGE and keeps the old state', async () => {
      const store = db.store();
      await store.create(session('s1'));
      expect(await rejection(() => store.create({ ...session('s2'), metadata: { bad: 'a\u0000b' } }))).toBe('E_USAGE');
      expect(await store.read('s2')).toBeNull();
      const code = await rejection(() => store.update('s1', (state) => ({ ...state, metadata: { bad: '\u0000' } })));
      expect(code).toBe('E_USAGE');
      expect((await store.read('s1'))?.metadata).toEqual({ n: 1 });
    });
  });

  describe('several connections at once', () => {
    it('lose no update: 4 connections × 25 read-modify-writes of one session (compare-and-swap on version)', async () => {
      const stores = Array.from({ length: 4 }, () => db.store());
      await stores[0]!.create(session('shared'));
      await Promise.all(
        stores.map(async (store, w) => {
          for (let i = 0; i < 25; i++)
            await store.update('shared', (state) => ({ ...state, metadata: { ...state.metadata, [`w${w}_${i}`]: i } }));
        }),
      );
      const state = (await stores[0]!.read('shared'))!;
      expect(Object.keys(state.metadata)).toHaveLength(101);
      const [row] = await db.sql(`SELECT version::int AS version FROM $s.sessions WHERE id = 'shared'`);
      expect(row!.version).toBe(101);
    });

    it('let exactly one of 6 parallel creates of one id win; the others get E_DUPLICATE', async () => {
      const stores = Array.from({ length: 6 }, () => db.store());
      const codes = await Promise.all(
        stores.map((store, i) => rejection(() => store.create(session('same', `agent${i}`)))),
      );
      expect(codes.filter((code) => code === undefined)).toHaveLength(1);
      expect(codes.filter((code) => code === 'E_DUPLICATE')).toHaveLength(5);
      expect(await stores[0]!.list()).toHaveLength(1);
    });

    it('serialize lockClaudeAgent across connections, per Claude agent and per agent type', async () => {
      const [a, b, c] = [db.store(), db.store(), db.store()];
      const spans: { who: string; from: number; to: number }[] = [];
      const hold = (store: PgStore, who: string, agent: string, type: string) =>
        store.lockClaudeAgent(agent, type, async () => {
          const from = Date.now();
          await new Promise((done) => setTimeout(done, 150));
          spans.push({ who, from, to: Date.now() });
        });
      // a and b share the Claude agent id; b and c share the agent type.
      await Promise.all([
        hold(a, 'a', 'agent-1', 'Explore'),
        hold(b, 'b', 'agent-1', 'Plan'),
        hold(c, 'c', 'agent-2', 'Plan'),
      ]);
      const span = (who: string) => spans.find((s) => s.who === who)!;
      const apart = (x: string, y: string) => span(x).to <= span(y).from || span(y).to <= span(x).from;
      expect(apart('a', 'b')).toBe(true);
      expect(apart('b', 'c')).toBe(true);
    });

    it('run the work of lockClaudeAgent in one transaction: its writes are undone when it throws', async () => {
      const store = db.store();
      await store.create(session('kept'));
      const boom = new SessionError('E_CORRUPT', 'boom');
      const thrown = await store
        .lockClaudeAgent('agent-1', 'alpha', async () => {
          await store.create(session('undone'));
          await store.update('kept', (state) => ({ ...state, metadata: { n: 2 } }));
          expect((await store.read('undone'))?.agent_id).toBe('undone');
          throw boom;
        })
        .catch((error: unknown) => error);
      expect(thrown).toBe(boom);
      expect(await store.read('undone')).toBeNull();
      expect((await store.read('kept'))?.metadata).toEqual({ n: 1 });
    });
  });

  describe('removeBatch (cleanup)', () => {
    it('removes, in one transaction per batch, what shouldRemove agrees on, skipping rows another writer holds', async () => {
      const [store, other] = [db.store(), db.store()];
      for (let i = 0; i < 8; i++) await store.create({ ...session(`b${i}`), metadata: { n: i } });
      await db.sql(`INSERT INTO $s.sessions (id, state) VALUES ('broken', '{"torn": true}')`);
      let releaseHeld: () => void = () => undefined;
      const held = new Promise<void>((done) => (releaseHeld = done));
      // `other` holds b1's row (inside an attach transaction) while the batch runs.
      const holding = other.lockClaudeAgent('a1', '', async () => {
        await other.update('b1', (state) => state);
        await held;
      });
      await new Promise((done) => setTimeout(done, 200));
      const judged: (string | null)[] = [];
      const removed = await store.removeBatch(['b0', 'b1', 'b2', 'b3', 'broken', 'absent'], (state) => {
        judged.push(state?.agent_id ?? null);
        return state === null || (state.metadata.n as number) % 2 === 0;
      });
      releaseHeld();
      await holding;
      expect(removed.sort()).toEqual(['b0', 'b2', 'broken']);
      expect(judged.sort()).toEqual(['b0', 'b2', 'b3', null]);
      expect((await store.list()).map((entry) => entry.id).sort()).toEqual(['b1', 'b3', 'b4', 'b5', 'b6', 'b7']);
    });
  });

  describe('the clock', () => {
    it("is the server's: now() agrees with clock_timestamp() and moves forward", async () => {
      const store = db.store();
      const first = await store.now();
      const [row] = await db.sql('SELECT clock_timestamp() AS now');
      const second = await store.now();
      expect(Math.abs((row!.now as Date).getTime() - first.getTime())).toBeLessThan(1_000);
      expect(second.getTime()).toBeGreaterThanOrEqual(first.getTime());
    });
  });

  describe('errors', () => {
    it('an unreachable server is E_IO, naming the store with the password masked', async () => {
      const store = new PgStore({ url: 'postgres://someone:s3cret@127.0.0.1:1/test', schema: db.schema });
      let error: unknown;
      try {
        await store.read('x');
      } catch (caught) {
        error = caught;
      } finally {
        await store.close();
      }
      expect(error).toBeInstanceOf(SessionError);
      expect((error as SessionError).code).toBe('E_IO');
      expect((error as SessionError).message).toContain('someone:****@127.0.0.1:1');
      expect((error as SessionError).message).not.toContain('s3cret');
    });
  });

  // Issue 20 #15: libpq URLs the driver could not connect with, or refused as "not a URL".
  describe('libpq URLs', () => {
    const test = new URL(TEST_DATABASE_URL);
    const database = test.pathname.slice(1);
    const port = test.port === '' ? '5432' : test.port;
    const socketFolder = '/var/run/postgresql';
    const socketThere = existsSync(`${socketFolder}/.s.PGSQL.${port}`);
    const withStore = async (url: string, work: (store: PgStore) => Promise<void>) => {
      const store = new PgStore({ url, schema: db.schema });
      try {
        await work(store);
      } finally {
        await store.close();
      }
    };

    (socketThere ? it : it.skip)(
      `reaches the server through its unix socket (?host=${socketFolder}; skipped when the socket is not there)`,
      async () => {
        await db.store().create(session('by-socket'));
        for (const url of [
          `postgres:///${database}?host=${socketFolder}&port=${port}`,
          `postgresql://${encodeURIComponent(socketFolder)}:${port}/${database}`,
        ])
          await withStore(url, async (store) => expect((await store.read('by-socket'))?.agent_id).toBe('by-socket'));
      },
    );

    it('tries several hosts in order: the first refusing, the second the server', async () => {
      await db.store().create(session('by-second'));
      await withStore(`postgres://127.0.0.1:1,${test.hostname}:${port}/${database}`, async (store) => {
        expect((await store.read('by-second'))?.agent_id).toBe('by-second');
      });
    });

    it('gives up (E_IO) when every host of several refuses, instead of retrying for ever', async () => {
      await withStore('postgres://127.0.0.1:1,127.0.0.1:2/test', async (store) => {
        expect(await rejection(() => store.read('x'))).toBe('E_IO');
      });
    });
  });
});
