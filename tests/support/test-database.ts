// The real PostgreSQL server the PostgreSQL suites run against: AGENT_SESSION_TEST_DATABASE_URL (default
// postgres://127.0.0.1:5432/test). Each test file gets a schema of its own with a random name, made by the store's
// own `migrate` and dropped after the file. An unreachable server fails the file under CI=true; elsewhere the file's
// tests are skipped with a loud line on stderr, never silently.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { PgStore } from '../../src/store/postgres/pg-store';

export const TEST_DATABASE_URL = process.env.AGENT_SESSION_TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test';

/** Why the test database cannot be used, or null when it answers (checked once per file, in a child process). */
function unreachable(): string | null {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const sql = require('postgres')(process.argv[1], { max: 1, connect_timeout: 3, onnotice: () => {} });
       sql\`select 1\`.then(() => sql.end(), (e) => { process.stderr.write(String(e.message)); process.exit(1); });`,
      TEST_DATABASE_URL,
    ],
    { encoding: 'utf8', timeout: 15_000, env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } },
  );
  return probe.status === 0 ? null : probe.stderr.trim() || `probe exited ${String(probe.status ?? probe.signal)}`;
}

/** A schema of one test file, on the test database. */
export interface TestDatabase {
  readonly url: string;
  /** The schema (random name) this file's stores use; migrated before the first test. */
  readonly schema: string;
  /** A store on this file's schema; closed after the file. */
  store(): PgStore;
  /** Runs SQL as the test (to plant rows, read columns): `$s` in `text` stands for the quoted schema. */
  sql(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Empties this file's tables. */
  truncate(): Promise<void>;
}

/** A fresh schema name: `agent_session_test_<random>`. */
export function freshSchemaName(): string {
  return `agent_session_test_${randomBytes(5).toString('hex')}`;
}

/**
 * `describe` on the test database: `body` gets this file's schema. Skipped loudly when the server does not answer
 * (failed under CI=true).
 */
export function describeWithDatabase(name: string, body: (db: TestDatabase) => void): void {
  const problem = unreachable();
  if (problem !== null) {
    if (process.env.CI === 'true') {
      describe(name, () => {
        it('has its PostgreSQL test database', () => {
          throw new Error(`CI=true and the test database ${TEST_DATABASE_URL} does not answer: ${problem}`);
        });
      });
      return;
    }
    process.stderr.write(
      `\n*** SKIPPED: ${name}: the PostgreSQL test database ${TEST_DATABASE_URL} does not answer (${problem}).\n` +
        '*** Start PostgreSQL or set AGENT_SESSION_TEST_DATABASE_URL; under CI=true this fails the run. ***\n\n',
    );
    describe(name, () => {
      it.skip(`needs the PostgreSQL test database (${TEST_DATABASE_URL})`, () => undefined);
    });
    return;
  }
  describe(name, () => {
    const schema = freshSchemaName();
    const admin = postgres(TEST_DATABASE_URL, { max: 2, onnotice: () => undefined });
    const stores: PgStore[] = [];
    const db: TestDatabase = {
      url: TEST_DATABASE_URL,
      schema,
      store: () => {
        const store = new PgStore({ url: TEST_DATABASE_URL, schema });
        stores.push(store);
        return store;
      },
      sql: async (text, params = []) => [
        ...(await admin.unsafe(text.replaceAll('$s', `"${schema}"`), params as never[])),
      ],
      truncate: async () => {
        await admin.unsafe(`TRUNCATE "${schema}".sessions, "${schema}".claude_agents, "${schema}".session_facts`);
      },
    };
    beforeAll(async () => {
      const store = new PgStore({ url: TEST_DATABASE_URL, schema });
      await store.migrate();
      await store.close();
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    });
    body(db);
  });
}
