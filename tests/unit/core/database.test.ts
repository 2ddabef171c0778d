import { assertDatabaseUrl, assertSchemaName } from '../../../src/core/database';
import { codeOf } from '../../helpers';

describe('assertDatabaseUrl', () => {
  it('accepts postgres:// and postgresql:// URLs with a host', () => {
    expect(assertDatabaseUrl(' postgres://h/db ', 'x')).toBe('postgres://h/db');
    expect(assertDatabaseUrl('postgresql://u@h:5433/db?sslmode=verify-full', 'x')).toContain('sslmode=verify-full');
  });

  it.each([
    'postgres://h1,h2/db',
    'postgresql://h1:5433,h2:5434/db?target_session_attrs=any',
    'postgres://u@/db?host=/run/postgresql',
    'postgres://[::1]:5433/db',
  ])('accepts the libpq URL %s (issue 20 #15)', (url) => {
    expect(assertDatabaseUrl(url, 'x')).toBe(url);
  });

  it.each(['', 'mysql://u:s3cret@h/db', 'postgres:///db', 's3cret', 42, null])(
    'refuses %p with E_USAGE and never echoes a password',
    (url) => {
      let message = '';
      try {
        assertDatabaseUrl(url, '`AGENT_SESSION_DATABASE_URL`');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(codeOf(() => assertDatabaseUrl(url, 'x'))).toBe('E_USAGE');
      expect(message).toContain('AGENT_SESSION_DATABASE_URL');
      expect(message).not.toContain('s3cret');
    },
  );
});

describe('assertSchemaName', () => {
  it.each(['agent_session', '_x', 'team2'])('accepts %p', (name) => expect(assertSchemaName(name, 'x')).toBe(name));
  it.each(['', 'Agent', 'a-b', 'a"b', 'x'.repeat(64), '1abc', undefined])('refuses %p with E_USAGE', (name) => {
    expect(codeOf(() => assertSchemaName(name, 'x'))).toBe('E_USAGE');
  });
  // Issue 20 #12: pg_dump skips information_schema (and every pg_ schema is the system's); public is every other
  // application's, where `sessions` and `migrations` are common table names.
  it.each(['information_schema', 'public', 'pg_catalog', 'pg_toast', 'pg_temp', 'pg_mine'])(
    'refuses the system or shared schema %p with E_USAGE, naming it',
    (name) => {
      expect(codeOf(() => assertSchemaName(name, '`database_schema`'))).toBe('E_USAGE');
      expect(() => assertSchemaName(name, '`database_schema`')).toThrow(name);
    },
  );
});
