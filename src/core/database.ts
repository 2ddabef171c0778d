import { isPostgresUrl, maskDatabaseUrl, parseDatabaseUrl } from './database-url';
import { SessionError, show } from './errors';

/** The schema used when none is configured: the store's tables never land in `public` by accident. */
export const DEFAULT_SCHEMA = 'agent_session';

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
export const WAIT_LIMITS: { readonly hook: WaitLimits; readonly relay: WaitLimits; readonly command: WaitLimits } = {
  // Well under Claude Code's 30 s hook timeout: a hook that gets no answer in time fails open, and every prompt
  // waits this long at most while a table is locked or the server does not answer.
  hook: { connectMs: 5_000, statementMs: 5_000, totalMs: 5_000 },
  // The relay (README "Shared store") waits for the database on a hook's behalf: a hook's bounds per connect and per
  // statement (an attach's whole transaction is one), but no total: it lives for many hooks.
  relay: { connectMs: 5_000, statementMs: 5_000, totalMs: Infinity },
  // Longer (a person waits for a command, and a cleanup may be large) but bounded: never for ever.
  command: { connectMs: 10_000, statementMs: 30_000, totalMs: Infinity },
};

/** A schema name we create and quote ourselves: lower-case letters, digits and `_`, as PostgreSQL folds them. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a database URL: a libpq `postgres://` or `postgresql://` URL the driver can connect with (database-url.ts).
 * Messages show it masked.
 * @param where what named it (`AGENT_SESSION_DATABASE_URL`, `--database-url`, the config file's `database_url`)
 * @returns the URL, trimmed
 * @throws SessionError E_USAGE naming the part that is wrong
 */
export function assertDatabaseUrl(url: unknown, where: string): string {
  if (typeof url !== 'string')
    throw new SessionError('E_USAGE', `Expected ${where} to be a postgres://user@host/database URL, got ${show(url)}`);
  const text = url.trim();
  if (!isPostgresUrl(text)) {
    const masked = maskDatabaseUrl(text);
    const got = masked === '(not a URL)' ? 'a text that is not a URL' : masked;
    throw new SessionError('E_USAGE', `Expected ${where} to be a postgres://user@host/database URL, got ${got}`);
  }
  parseDatabaseUrl(text, where);
  return text;
}

/**
 * Checks a schema name (`AGENT_SESSION_DATABASE_SCHEMA`, the config file's `database_schema`).
 * @throws SessionError E_USAGE
 */
export function assertSchemaName(name: unknown, where: string): string {
  if (typeof name !== 'string' || !SCHEMA_NAME.test(name))
    throw new SessionError(
      'E_USAGE',
      `Expected ${where} to be a schema name (lower-case letters, digits and _, at most 63), got ${show(name)}`,
    );
  const why = notOurs(name);
  if (why !== null)
    throw new SessionError(
      'E_USAGE',
      `Expected ${where} to be a schema of agent-session's own, got ${show(name)} (${why})`,
    );
  return name;
}

// --- internal ---

/** Why a schema name is not one for the store's tables, or null when it is. */
function notOurs(name: string): string | null {
  // pg_dump leaves information_schema and every pg_ schema out: sessions kept there would be missing from backups.
  if (name === 'information_schema') return 'a system schema, which pg_dump leaves out of backups';
  if (name.startsWith('pg_'))
    return 'the pg_ prefix is reserved for system schemas, which pg_dump leaves out of backups';
  // `sessions` and `migrations` are common table names: another application's would be taken for ours.
  if (name === 'public')
    return "every application's default schema, where other tables named sessions or migrations may be";
  return null;
}
