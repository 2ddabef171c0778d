import { SessionError } from '../../core/errors';
/** The schema version this build reads and writes. */
export declare const LATEST_VERSION: number;
/** What `migrate` did: the version found, the version left, the migrations applied. */
export interface MigrationResult {
    readonly schema: string;
    readonly from: number;
    readonly to: number;
    readonly applied: readonly string[];
}
/** `schema` quoted for SQL text (the name is checked by assertSchemaName: no quote can occur in it). */
export declare function quoteSchema(schema: string): string;
/** Runs one statement inside the migration's transaction. */
export type RunStatement = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
/**
 * Creates or upgrades the store's tables in `schema`: `run` runs each statement inside one transaction (the caller's),
 * first taking a transaction-level advisory lock (so two `migrate` runs at once wait for each other instead of racing
 * on CREATE), and records each step in `<schema>.migrations`. Running it again changes nothing.
 * @throws SessionError E_REFUSED when the database was set up by a newer agent-session
 */
export declare function migrate(run: RunStatement, schema: string, 
/** The version to stop at (tests: a store as an older version left it); default the latest. */
target?: number): Promise<MigrationResult>;
/** The refusal of a database whose schema a newer agent-session made. */
export declare function newerThanBinary(schema: string, found: number): SessionError;
/** The refusal of a schema that `migrate` has not set up (or not up to this version). */
export declare function notMigrated(schema: string, found: number | null): SessionError;
