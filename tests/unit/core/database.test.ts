import { assertDatabaseUrl, assertSchemaName, maskDatabaseUrl } from '../../../src/core/database';
import { codeOf } from '../../helpers';

describe('maskDatabaseUrl', () => {
  it.each([
    ['postgres://alice:s3cret@db.example:5432/app', 'postgres://alice:****@db.example:5432/app'],
    ['postgresql://alice:p%40ss@h/app?sslmode=require', 'postgresql://alice:****@h/app?sslmode=require'],
    ['postgres://h/app?user=bob&password=hunter2', 'postgres://h/app?user=bob&password=****'],
    ['postgres://127.0.0.1:5432/test', 'postgres://127.0.0.1:5432/test'],
    ['not a url s3cret', '(not a URL)'],
  ])('%s → %s', (url, masked) => {
    expect(maskDatabaseUrl(url)).toBe(masked);
    expect(maskDatabaseUrl(url)).not.toMatch(/s3cret|hunter2|p%40ss/);
  });
});

describe('assertDatabaseUrl', () => {
  it('accepts postgres:// and postgresql:// URLs with a host', () => {
    expect(assertDatabaseUrl(' postgres://h/db ', 'x')).toBe('postgres://h/db');
    expect(assertDatabaseUrl('postgresql://u@h:5433/db?sslmode=verify-full', 'x')).toContain('sslmode=verify-full');
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
