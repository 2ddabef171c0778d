// The built CLI on the PostgreSQL store: selecting it, `migrate`, `config`, errors without the password, and the
// driver loaded only on that path. Real server (tests/support/test-database.ts), each file its own schema.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const dir = tempDir();
/** Prints, at exit, whether the process loaded Node's network modules (postgres.js needs net and tls). */
const probe = join(dir, 'probe.cjs');
writeFileSync(
  probe,
  // The list is taken before anything is written: process.stderr on a pipe would itself load `net`.
  "const { writeSync } = require('node:fs');\n" +
    "process.on('exit', () => { const loaded = process.moduleLoadList.filter((m) => /^NativeModule (net|tls)$/.test(m));\n" +
    "  writeSync(2, 'LOADED ' + JSON.stringify(loaded) + '\\n'); });\n",
);

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
      expect(JSON.parse(first.stdout)).toMatchObject({ schema, from: 0, to: 1 });
      const again = run(BIN.cli, ['migrate'], { cwd: dir, env: env({ AGENT_SESSION_DATABASE_SCHEMA: schema }) });
      expect(again.status).toBe(0);
      expect(again.stdout).toContain('already up to date');
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

  it('loads the driver only on the PostgreSQL path: a file-store hook and command load no net or tls', () => {
    const fileHook = run(BIN.preDelegate, [], {
      cwd: dir,
      input: '{"agent_name":"x"}',
      env: { AGENT_SESSION_DIR: join(dir, 'lazy'), NODE_OPTIONS: `--require ${probe}` },
    });
    expect(fileHook.stdout).toContain('no_existing_session');
    expect(fileHook.stderr).toContain('LOADED []');
    const pgCommand = run(BIN.cli, ['migrate'], { cwd: dir, env: env({ NODE_OPTIONS: `--require ${probe}` }) });
    expect(pgCommand.status).toBe(0);
    expect(pgCommand.stderr).toContain('LOADED ["NativeModule net","NativeModule tls"]');
  });
});
