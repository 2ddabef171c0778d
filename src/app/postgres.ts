import type { Config } from '../core/config';
import { WAIT_LIMITS, type WaitLimits } from '../core/database';
import { maskDatabaseUrl } from '../core/database-url';
import { SessionError } from '../core/errors';
import type { PgStore } from '../store/postgres/pg-store';
import type { MigrationResult } from '../store/postgres/schema';

/**
 * The PostgreSQL store, opened on its path only. Its module, and with it the driver, is required here: a process on
 * the file store never loads or evaluates postgres.js (tests/e2e/postgres-cli.test.ts). In the built bins the driver
 * is not even in the bundle: its `postgres` import is required from dist/postgres.cjs (scripts/build.mjs,
 * tests/e2e/pg-driver-file.test.ts).
 */

/**
 * A PostgreSQL store with the given waits.
 * @throws SessionError E_IO when the driver's file is missing (a bin copied out of dist/ alone)
 */
export function openPgStore(url: string, schema: string, limits: WaitLimits): PgStore {
  return new (loadPgStore().PgStore)({ url, schema, limits });
}

/** The PostgreSQL store's module (see above). @throws SessionError E_IO when the driver's file is missing */
export function loadPgStore(): typeof import('../store/postgres/pg-store') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
    return require('../store/postgres/pg-store') as typeof import('../store/postgres/pg-store');
  } catch (error) {
    // A bin copied out of dist/ alone: one clear line instead of Node's require stack.
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    const first = (error as Error).message.split('\n')[0];
    throw new SessionError('E_IO', `Expected the PostgreSQL driver (dist/postgres.cjs beside the bin), got: ${first}`);
  }
}

/**
 * Creates or upgrades the PostgreSQL store's tables (`agent-session migrate`, `init --database-url`).
 * @throws SessionError E_USAGE when no database is configured; E_REFUSED for a schema a newer version made; E_IO
 */
export async function migrateStore(config: Config): Promise<MigrationResult> {
  const { url, schema } = databaseOf(config, 'to migrate');
  const store = openPgStore(url, schema, WAIT_LIMITS.command);
  try {
    return await store.migrate();
  } finally {
    await store.close();
  }
}

/** The configured database. @throws SessionError E_USAGE when there is none */
export function databaseOf(config: Config, what: string): { url: string; schema: string } {
  if (config.database_url === null)
    throw new SessionError(
      'E_USAGE',
      `Expected a database ${what}: set AGENT_SESSION_DATABASE_URL, \`database_url\` in the config file, or pass --database-url`,
    );
  return { url: config.database_url, schema: config.database_schema };
}

/** How the PostgreSQL store names itself (PgStore's `location`). */
export function pgLocation(url: string, schema: string): string {
  return `${maskDatabaseUrl(url)} (schema ${schema})`;
}
