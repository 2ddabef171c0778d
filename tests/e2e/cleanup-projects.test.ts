// Issue 30 item 4: one store, two projects. Project B's `cleanup` leaves alone a session it cannot read (a newer
// version's schema, one bad field) when it names project A, on the file store and on PostgreSQL; it removes its own
// project's unreadable sessions and those naming none. The built CLI, each project in its own temp dir.
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';
import { describeWithDatabase } from '../support/test-database';

const base = tempDir();
const project = projectMaker(base);
const OLD = new Date('2020-01-01T00:00:00Z');

type Damage = (state: Record<string, unknown>) => Record<string, unknown>;
const DAMAGES: [string, Damage][] = [
  ['a newer schema version', (state) => ({ ...state, schema_version: 99, host: 'someday' })],
  ['one bad field', (state) => ({ ...state, error_count: 'many' })],
];

const ok = (result: ReturnType<typeof run>) => {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  return result.stdout;
};

describe.each(DAMAGES)('file store, %s', (_label, damage) => {
  it("B's cleanup removes its own and none's unreadable sessions, never A's", () => {
    const cwd = project();
    const shared = join(cwd, 'shared');
    const cli = (who: string, args: string[]) =>
      run(BIN.cli, args, { cwd, env: { AGENT_SESSION_DIR: shared, AGENT_SESSION_PROJECT: who } });
    const ids = { a: 'agent-20261128-000000-a0000001', b: 'agent-20261128-000000-b0000001' };
    ok(cli('projA', ['create', '--agent', 'a', '--purpose', 'p', '--id', ids.a]));
    ok(cli('projB', ['create', '--agent', 'b', '--purpose', 'p', '--id', ids.b]));
    const none = 'agent-20261128-000000-c0000001';
    ok(cli('projB', ['create', '--agent', 'c', '--purpose', 'p', '--id', none]));
    for (const id of [ids.a, ids.b, none]) {
      const file = join(shared, id, 'state.json');
      const state = JSON.parse(readFileSync(file, 'utf8'));
      if (id === none) delete state.project;
      writeFileSync(file, JSON.stringify(damage(state)));
      utimesSync(file, OLD, OLD);
    }
    expect(JSON.parse(readFileSync(join(shared, ids.a, 'state.json'), 'utf8')).project).toBe('projA');
    const dry = JSON.parse(ok(cli('projB', ['cleanup', '--hours', '1', '--dry-run', '--json'])));
    const real = JSON.parse(ok(cli('projB', ['cleanup', '--hours', '1', '--json'])));
    for (const result of [dry, real]) expect([...result.corrupt_removed].sort()).toEqual([ids.b, none].sort());
    expect(existsSync(join(shared, ids.a, 'state.json'))).toBe(true);
    expect(existsSync(join(shared, ids.b))).toBe(false);
    // A's own cleanup, with its own horizon, is the one that removes it.
    expect(JSON.parse(ok(cli('projA', ['cleanup', '--hours', '1', '--json']))).corrupt_removed).toEqual([ids.a]);
  });
});

describeWithDatabase('PostgreSQL store', (db) => {
  afterEach(() => db.truncate());

  it.each(DAMAGES)("B's cleanup removes its own unreadable rows, never A's (%s)", async (_label, damage) => {
    const cwd = project();
    const cli = (who: string, args: string[]) =>
      run(BIN.cli, args, {
        cwd,
        env: {
          AGENT_SESSION_DATABASE_URL: db.url,
          AGENT_SESSION_DATABASE_SCHEMA: db.schema,
          AGENT_SESSION_PROJECT: who,
          AGENT_SESSION_RELAY: 'off',
        },
      });
    const ids = { a: 'agent-20261128-000000-a0000002', b: 'agent-20261128-000000-b0000002' };
    ok(cli('projA', ['create', '--agent', 'a', '--purpose', 'p', '--id', ids.a]));
    ok(cli('projB', ['create', '--agent', 'b', '--purpose', 'p', '--id', ids.b]));
    for (const id of [ids.a, ids.b]) {
      const [row] = await db.sql(`SELECT state::text AS state FROM $s.sessions WHERE id = $1`, [id]);
      const state = damage(JSON.parse(row!.state as string));
      await db.sql(
        `UPDATE $s.sessions SET state = $2::text::jsonb, written_at = $3, last_activity = $3 WHERE id = $1`,
        [id, JSON.stringify(state), OLD],
      );
    }
    const dry = JSON.parse(ok(cli('projB', ['cleanup', '--hours', '1', '--dry-run', '--json'])));
    const real = JSON.parse(ok(cli('projB', ['cleanup', '--hours', '1', '--json'])));
    for (const result of [dry, real]) expect(result.corrupt_removed).toEqual([ids.b]);
    const left = await db.sql(`SELECT id FROM $s.sessions ORDER BY id`);
    expect(left.map((row) => row.id)).toEqual([ids.a]);
    expect(JSON.parse(ok(cli('projA', ['cleanup', '--hours', '1', '--json']))).corrupt_removed).toEqual([ids.a]);
  });
});
