// The built CLI on the PostgreSQL store: selecting it, `migrate`, `config`, errors without the password, and the
// driver loaded only on that path. Real server (tests/support/test-database.ts), each file its own schema.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';
import { writeDriverProbe } from '../support/driver-probe';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const dir = tempDir();
const probe = writeDriverProbe(dir);

describeWithDatabase('the CLI on PostgreSQL', (db) => {
  const env = (extra: Record<string, string> = {}) => ({
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    ...extra,
  });

  it('migrate creates a fresh schema once; a second run changes nothing (exit 0 both)', async () => {
    const schema = freshSchemaName();
    try {
      const first = run(BIN.cli, ['migrate', '--json'], {
        cwd: dir,
        env: env({ AGENT_SESSION_DATABASE_SCHEMA: schema }),
      });
      expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
      expect(JSON.parse(first.stdout)).toMatchObject({ schema, from: 0, to: 3 });
      const again = run(BIN.cli, ['migrate'], { cwd: dir, env: env({ AGENT_SESSION_DATABASE_SCHEMA: schema }) });
      expect(again.status).toBe(0);
      expect(again.stdout).toContain('already up to date');
    } finally {
      await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  it('migrate words what it applied as migrations, not as a count of sessions', async () => {
    const schema = freshSchemaName();
    try {
      const first = run(BIN.cli, ['migrate'], { cwd: dir, env: env({ AGENT_SESSION_DATABASE_SCHEMA: schema }) });
      expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
      expect(first.stdout).toContain('applied 3 migrations: #1 ');
      expect(first.stdout).not.toMatch(/applied \d+ sessions/);
    } finally {
      await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  // Issue 20 #13: a table altered by hand made every attach fail while migrate said "already up to date".
  it('migrate refuses tables altered by hand (exit 4, one line naming the column); hooks and commands point to it', async () => {
    const schema = freshSchemaName();
    const extra = env({ AGENT_SESSION_DATABASE_SCHEMA: schema });
    try {
      expect(run(BIN.cli, ['migrate'], { cwd: dir, env: extra }).status).toBe(0);
      await db.sql(`ALTER TABLE "${schema}".sessions DROP COLUMN phase`);
      const again = run(BIN.cli, ['migrate'], { cwd: dir, env: extra });
      expect(again.status).toBe(4);
      expect(again.stderr.trim().split('\n')).toHaveLength(1);
      expect(again.stderr).toContain('phase');
      const create = run(BIN.cli, ['create', '--agent', 'a', '--purpose', 'p'], { cwd: dir, env: extra });
      expect(create.status).toBe(5);
      expect(create.stderr).toContain('agent-session migrate');
    } finally {
      await db.sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  it('--database-url selects it over the environment, and config shows it with the password masked', () => {
    const url = db.url.replace('://', '://someone:s3cret@');
    const result = run(BIN.cli, ['config', '--json', '--database-url', url], { cwd: dir, env: env() });
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain('s3cret');
    const shown = JSON.parse(result.stdout);
    expect(shown.store).toEqual({ kind: 'postgres', url: url.replace('s3cret', '****'), schema: db.schema });
    expect(shown.settings.database_url.source).toEqual({ kind: 'option', option: '--database-url' });
    const text = run(BIN.cli, ['config'], { cwd: dir, env: env({ AGENT_SESSION_DATABASE_URL: url }) });
    expect(text.stdout).toMatch(/^Store: +PostgreSQL postgres:\/\/someone:\*\*\*\*@/);
    expect(text.stdout).not.toContain('s3cret');
  });

  // Issue 20 #15: libpq URLs refused as "not a URL" (several hosts with ports, a unix-socket folder in ?host=).
  describe('libpq URLs', () => {
    const test = new URL(db.url);
    const port = test.port === '' ? '5432' : test.port;
    const socketThere = existsSync(`/var/run/postgresql/.s.PGSQL.${port}`);
    const listsWith = (url: string) => {
      const result = run(BIN.cli, ['list', '--json'], { cwd: dir, env: env({ AGENT_SESSION_DATABASE_URL: url }) });
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual(expect.any(Array));
    };

    it('runs on several hosts, the first refusing', () => {
      listsWith(`postgres://127.0.0.1:1,${test.hostname}:${port}${test.pathname}`);
    });

    (socketThere ? it : it.skip)(
      'runs on a unix-socket folder in ?host= (skipped when /var/run/postgresql has no socket)',
      () => listsWith(`postgres://${test.pathname}?host=/var/run/postgresql&port=${port}`),
    );
  });

  it('config names the file store when no database is set', () => {
    const result = run(BIN.cli, ['config', '--json', '--dir', join(dir, 'files')], { cwd: dir });
    expect(JSON.parse(result.stdout).store).toEqual({ kind: 'files', root: join(dir, 'files') });
  });

  it.each([
    [['migrate'], {}, 2],
    [['migrate', '--database-url', 'mysql://u:s3cret@h/db'], {}, 2],
    [['migrate'], { AGENT_SESSION_DATABASE_URL: 'postgres://u:s3cret@127.0.0.1:1/x' }, 5],
    [['migrate'], { AGENT_SESSION_DATABASE_SCHEMA: 'Not-A-Schema' }, 2],
  ])('%p with %p: one line on stderr, exit %p, no password, no stack', (args, extra, status) => {
    const result = run(BIN.cli, args, {
      cwd: dir,
      env: { AGENT_SESSION_DATABASE_URL: undefined, ...(Object.keys(extra).length ? env(extra) : {}) } as never,
    });
    expect(result.status).toBe(status);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/s3cret|\n\s+at /);
  });

  it('loads the driver only on the PostgreSQL path: a file-store hook loads neither net, tls nor postgres.cjs', () => {
    const fileHook = run(BIN.preDelegate, [], {
      cwd: dir,
      input: '{"agent_name":"x"}',
      env: { AGENT_SESSION_DIR: join(dir, 'lazy'), NODE_OPTIONS: `--require ${probe}` },
    });
    expect(fileHook.stdout).toContain('no_existing_session');
    expect(fileHook.stderr).toContain('LOADED []');
    expect(fileHook.stderr).toContain('DRIVER []');
    const pgCommand = run(BIN.cli, ['migrate'], { cwd: dir, env: env({ NODE_OPTIONS: `--require ${probe}` }) });
    expect(pgCommand.status).toBe(0);
    expect(pgCommand.stderr).toContain('LOADED ["NativeModule net","NativeModule tls"]');
    expect(pgCommand.stderr).toContain(`DRIVER ${JSON.stringify([join(BIN.cli, '..', 'postgres.cjs')])}`);
  });
});
