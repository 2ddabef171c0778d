import { maskDatabaseUrl, parseDatabaseUrl } from '../../../src/core/database-url';
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

// Issue 20 #15: what libpq accepts (multi-host, unix-socket folders, IPv6), as the targets the store connects to;
// what the driver cannot honour, refused naming the part.
describe('parseDatabaseUrl', () => {
  const tcp = (host: string, port = 5432) => ({ kind: 'tcp', host, port });
  const socket = (folder: string, port = 5432) => ({ kind: 'socket', path: `${folder}/.s.PGSQL.${port}`, port });

  it.each([
    ['postgres://h1,h2/db', [tcp('h1'), tcp('h2')]],
    ['postgresql://u@h1:5433,h2:5434/db', [tcp('h1', 5433), tcp('h2', 5434)]],
    ['postgres://h1,h2/db?port=6000', [tcp('h1', 6000), tcp('h2', 6000)]],
    ['postgres://u@/db?host=/run/postgresql', [socket('/run/postgresql')]],
    ['postgres:///db?host=/var/run/postgresql&port=5433', [socket('/var/run/postgresql', 5433)]],
    ['postgresql://%2Fvar%2Frun%2Fpostgresql/db', [socket('/var/run/postgresql')]],
    ['postgres://[::1]:5433/db', [tcp('::1', 5433)]],
    ['postgres://u@h/db?target_session_attrs=any', [tcp('h')]],
  ])('accepts %s', (url, targets) => {
    expect(parseDatabaseUrl(url, 'x').targets).toEqual(targets);
  });

  it('decodes the user, password and database, and keeps the other parameters for the driver', () => {
    const parsed = parseDatabaseUrl(
      'postgres://al%40ice:p%25ss%3F@h/my%20db?sslmode=require&application_name=a%26b',
      'x',
    );
    expect(parsed).toMatchObject({ user: 'al@ice', password: 'p%ss?', database: 'my db' });
    expect(parsed.params).toEqual([
      ['sslmode', 'require'],
      ['application_name', 'a&b'],
    ]);
    expect(parseDatabaseUrl('postgres://h/?user=bob&password=pw&dbname=d', 'x')).toMatchObject({
      user: 'bob',
      password: 'pw',
      database: 'd',
      params: [],
    });
  });

  it.each([
    ['postgres://u:50%off@h/db', 'password'],
    ['postgres://u%zz@h/db', 'user'],
    ['postgres://h/d%b', 'database'],
    ['postgres://h/db?application_name=%', 'application_name'],
    ['postgres://h:99999/db', 'port'],
    ['postgres://h:x/db', 'port'],
    ['postgres://h1,h2/db?port=1,2,3', 'port'],
    ['postgres://h1,,h2/db', 'host'],
    ['postgres://[::1/db', 'host'],
    ['postgres:///db', 'host'],
    ['postgres://h/db?sslmode', 'sslmode'],
    ['postgres://h/db?sslmode=maybe', 'sslmode'],
    ['postgres://h/db?sslcert=/etc/c.pem', 'sslcert'],
    ['postgres://h/db?sslrootcert=/etc/ca.pem', 'sslrootcert'],
    ['postgres://h1,h2/db?target_session_attrs=read-write', 'target_session_attrs'],
    ['postgres://h/db?target_session_attrs=sometimes', 'target_session_attrs'],
    ['postgres://h /db', 'space'],
  ])('refuses %s with E_USAGE, naming the %s', (url, part) => {
    let message = '';
    try {
      parseDatabaseUrl(url, '`AGENT_SESSION_DATABASE_URL`');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(codeOf(() => parseDatabaseUrl(url, 'x'))).toBe('E_USAGE');
    expect(message).toContain('AGENT_SESSION_DATABASE_URL');
    expect(message).toContain(part);
    expect(message).not.toMatch(/50%off|URI malformed/);
  });

  it('masks the password of every form it accepts', () => {
    expect(maskDatabaseUrl('postgres://u:s3cret@h1:5433,h2/db')).toBe('postgres://u:****@h1:5433,h2/db');
    expect(maskDatabaseUrl('postgres://u:50%off@h/db')).toBe('postgres://u:****@h/db');
    expect(maskDatabaseUrl('postgres:///db?host=/run/pg&password=s3cret')).toBe(
      'postgres:///db?host=/run/pg&password=****',
    );
  });
});
