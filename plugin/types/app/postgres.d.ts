import type { Config } from '../core/config';
import { type WaitLimits } from '../core/database';
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
export declare function openPgStore(url: string, schema: string, limits: WaitLimits): PgStore;
/** The PostgreSQL store's module (see above). @throws SessionError E_IO when the driver's file is missing */
export declare function loadPgStore(): typeof import('../store/postgres/pg-store');
/**
 * Creates or upgrades the PostgreSQL store's tables (`agent-session migrate`, `init --database-url`).
 * @throws SessionError E_USAGE when no database is configured; E_REFUSED for a schema a newer version made; E_IO
 */
export declare function migrateStore(config: Config): Promise<MigrationResult>;
/** The configured database. @throws SessionError E_USAGE when there is none */
export declare function databaseOf(config: Config, what: string): {
    url: string;
    schema: string;
};
/** How the PostgreSQL store names itself (PgStore's `location`). */
export declare function pgLocation(url: string, schema: string): string;
