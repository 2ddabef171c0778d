/** Where a database URL points: a TCP host and port, or a unix socket (`<folder>/.s.PGSQL.<port>`). */
export type DatabaseTarget = {
    readonly kind: 'tcp';
    readonly host: string;
    readonly port: number;
} | {
    readonly kind: 'socket';
    readonly path: string;
    readonly port: number;
};
/** A database URL taken apart, every part percent-decoded. */
export interface DatabaseAddress {
    /** Tried in this order; the first that accepts the connection is used (libpq's `target_session_attrs=any`). */
    readonly targets: readonly DatabaseTarget[];
    readonly user?: string;
    readonly password?: string;
    readonly database?: string;
    /** `connect_timeout` (seconds, above 0), when the URL names one. */
    readonly connectTimeoutSeconds?: number;
    /** The other parameters, in their order, for the driver (sslmode, application_name, server settings…). */
    readonly params: readonly (readonly [string, string])[];
}
/** True when `text` starts like a PostgreSQL URL (`postgres://` or `postgresql://`, any case). */
export declare function isPostgresUrl(text: string): boolean;
/**
 * Takes a `postgres://` / `postgresql://` URL apart as libpq does: `[user[:password]@][host][:port][,…][/database]
 * [?name=value&…]`, IPv6 hosts in brackets, a host or `?host=` starting with `/` as a unix-socket folder, several
 * hosts tried in order, `?host=`, `?port=`, `?user=`, `?password=`, `?dbname=` overriding the parts.
 * @param where what named it, for messages (`AGENT_SESSION_DATABASE_URL`, …)
 * @throws SessionError E_USAGE naming the part that is wrong (the URL shown with its password masked)
 */
export declare function parseDatabaseUrl(text: string, where: string): DatabaseAddress;
/**
 * The URL as it may be printed or logged: the password (in the user-info part or a `password=` / `sslpassword=`
 * parameter) replaced by `****`, control characters written as `\uXXXX`. A text that is not a URL is never echoed
 * (it may be a password pasted in the wrong place).
 */
export declare function maskDatabaseUrl(url: string): string;
