import { SessionError, show } from './errors';

/** The schema used when none is configured: the store's tables never land in `public` by accident. */
export const DEFAULT_SCHEMA = 'agent_session';

/** A schema name we create and quote ourselves: lower-case letters, digits and `_`, as PostgreSQL folds them. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The URL as it may be printed or logged: the password (in the user-info part or a `password=` parameter) replaced
 * by `****`. A text that is not a URL is never echoed (it may be a password pasted in the wrong place).
 */
export function maskDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (parsed.password !== '') parsed.password = '****';
  for (const key of [...parsed.searchParams.keys()])
    if (/^(password|sslpassword)$/i.test(key)) parsed.searchParams.set(key, '****');
  return parsed.toString();
}

/**
 * Checks a database URL: `postgres://` or `postgresql://` with a host. Messages show it masked.
 * @param where what named it (`AGENT_SESSION_DATABASE_URL`, `--database-url`, the config file's `database_url`)
 * @throws SessionError E_USAGE
 */
export function assertDatabaseUrl(url: unknown, where: string): string {
  const text = typeof url === 'string' ? url.trim() : '';
  let parsed: URL | null = null;
  try {
    parsed = new URL(text);
  } catch {
    parsed = null;
  }
  if (parsed === null || !/^postgres(ql)?:$/.test(parsed.protocol) || parsed.host === '') {
    const got =
      typeof url === 'string' ? (parsed === null ? 'a text that is not a URL' : maskDatabaseUrl(text)) : show(url);
    throw new SessionError('E_USAGE', `Expected ${where} to be a postgres://user@host/database URL, got ${got}`);
  }
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
