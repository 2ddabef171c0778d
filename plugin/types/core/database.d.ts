/** The schema used when none is configured: the store's tables never land in `public` by accident. */
export declare const DEFAULT_SCHEMA = "agent_session";
/** How long the PostgreSQL store waits for the database (README "Shared store"). */
export interface WaitLimits {
    /** Connecting to one host: accepting the connection, then the handshake. */
    readonly connectMs: number;
    /** One statement, or one transaction (a lock wait included). */
    readonly statementMs: number;
    /** All the database work of one store, from its opening (Infinity: no such bound). */
    readonly totalMs: number;
}
/** The bounds of the hooks, of the relay that serves them, and of everything else (commands, the library). */
export declare const WAIT_LIMITS: {
    readonly hook: WaitLimits;
    readonly relay: WaitLimits;
    readonly command: WaitLimits;
};
/**
 * Checks a database URL: a libpq `postgres://` or `postgresql://` URL the driver can connect with (database-url.ts).
 * Messages show it masked.
 * @param where what named it (`AGENT_SESSION_DATABASE_URL`, `--database-url`, the config file's `database_url`)
 * @returns the URL, trimmed
 * @throws SessionError E_USAGE naming the part that is wrong
 */
export declare function assertDatabaseUrl(url: unknown, where: string): string;
/**
 * Checks a schema name (`AGENT_SESSION_DATABASE_SCHEMA`, the config file's `database_schema`).
 * @throws SessionError E_USAGE
 */
export declare function assertSchemaName(name: unknown, where: string): string;
