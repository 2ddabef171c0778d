// The built bins on the PostgreSQL store, as users run them: every CLI command and both hooks (both protocols), a
// missing table (hooks fail open, the CLI says to migrate), moving a store over (file → PostgreSQL → file), and two
// machines whose clocks and time zones disagree sharing one store. Real server (tests/support/test-database.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, gitRepository, projectMaker, run, tempDir } from '../helpers';
import { describeWithDatabase, freshSchemaName } from '../support/test-database';

const base = tempDir();
const project = projectMaker(base);

describeWithDatabase('the bins on PostgreSQL', (db) => {
  afterEach(() => db.truncate());
  const pgEnv = (extra: Record<string, string> = {}) => ({
    AGENT_SESSION_DATABASE_URL: db.url,
    AGENT_SESSION_DATABASE_SCHEMA: db.schema,
    ...extra,
  });
  const cli = (cwd: string, args: string[], extra: Record<string, string> = {}) =>
    run(BIN.cli, args, { cwd, env: { CLAUDE_PROJECT_DIR: cwd, ...pgEnv(extra) } });
  const hook = (bin: string, cwd: string, input: unknown, extra: Record<string, string> = {}) =>
    run(bin, [], { cwd, input: JSON.stringify(input), env: { CLAUDE_PROJECT_DIR: cwd, ...pgEnv(extra) } });
  const ok = (result: ReturnType<typeof run>) => {
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return result.stdout;
  };

  it('runs every command on the shared store and writes nothing into the project folder', async () => {
    const cwd = project();
    const id = ok(cli(cwd, ['create', '--agent', 'planner', '--purpose', 'e2e', '--metadata', '{"task":"T1"}'])).trim();
    ok(cli(cwd, ['update', id, '--phase', 'approval', '--metadata', '{"step":2}']));
    expect(JSON.parse(ok(cli(cwd, ['get', id])))).toMatchObject({
      phase: 'approval',
      metadata: { task: 'T1', step: 2 },
    });
    expect(ok(cli(cwd, ['should-resume', id]))).toBe('true session_resumable\n');
    const listed = JSON.parse(ok(cli(cwd, ['list', '--json'])));
    expect(listed.map((entry: { id?: string; agent_id?: string }) => entry.agent_id ?? entry.id)).toEqual([id]);
    ok(cli(cwd, ['finalize', id, 'completed', '--summary', 'done']));
    const stats = JSON.parse(ok(cli(cwd, ['stats', '--json'])));
    expect(stats.overall).toMatchObject({ sessions: 1, completed: 1 });
    expect(JSON.parse(ok(cli(cwd, ['cleanup', '--hours', '0', '--dry-run', '--json']))).removed).toEqual([id]);
    expect((await db.sql(`SELECT phase FROM $s.sessions WHERE id = $1`, [id]))[0]).toEqual({ phase: 'completed' });
    ok(cli(cwd, ['delete', id]));
    expect(cli(cwd, ['get', id]).status).toBe(3);
    expect(existsSync(join(cwd, '.claude', 'session'))).toBe(false);
  });

  it('answers both hook protocols from the shared store: seed resume and stop, Claude Code start and stop', async () => {
    const cwd = project();
    const id = ok(cli(cwd, ['create', '--agent', 'reviewer', '--purpose', 'e2e'])).trim();
    ok(cli(cwd, ['update', id, '--phase', 'planning']));
    const answer = JSON.parse(ok(hook(BIN.preDelegate, cwd, { agent_name: 'reviewer' })));
    expect(answer).toMatchObject({ should_resume: true, reason: 'session_resumable', agent_id: id });
    ok(hook(BIN.subagentStop, cwd, { task_info: { agent_id: id }, agent_output: 'reviewed', exit_code: 0 }));
    expect(JSON.parse(ok(cli(cwd, ['get', id]))).phase).toBe('completed');

    const claude = { session_id: 's1', transcript_path: join(cwd, 't.jsonl'), cwd, agent_id: 'a0000000000000e2e' };
    ok(hook(BIN.preDelegate, cwd, { ...claude, agent_type: 'explorer', hook_event_name: 'SubagentStart' }));
    const linked = JSON.parse(ok(cli(cwd, ['list', '--json', '--agent', 'explorer'])));
    expect(linked).toHaveLength(1);
    ok(
      hook(BIN.subagentStop, cwd, {
        ...claude,
        agent_type: 'explorer',
        hook_event_name: 'SubagentStop',
        last_assistant_message: 'explored',
        stop_hook_active: false,
      }),
    );
    const [entry] = JSON.parse(ok(cli(cwd, ['list', '--json', '--agent', 'explorer'])));
    const state = JSON.parse(ok(cli(cwd, ['get', entry.agent_id ?? entry.id])));
    expect(state.claude).toMatchObject({ agent_id: 'a0000000000000e2e', stopped_at: expect.any(String) });
    // All of it in the database, nothing in the project folder.
    const rows = await db.sql(`SELECT id, claude_agent_id FROM $s.sessions ORDER BY created_at`);
    expect(rows.map((row) => row.id)).toContain(id);
    expect(rows.map((row) => row.claude_agent_id)).toContain('a0000000000000e2e');
    expect(existsSync(join(cwd, '.claude', 'session'))).toBe(false);
  });

  it("has the hooks' loader make a code cache with the PostgreSQL path after a call that used it, read from then on", () => {
    const cwd = project();
    const caches = join(base, `code-cache-${Date.now()}`);
    const cacheFiles = () => (existsSync(caches) ? readdirSync(caches) : []);
    const settled = (test: (files: string[]) => boolean) => {
      for (let i = 0; i < 300 && !test(cacheFiles()); i++) spawnSync('sleep', ['0.1']);
      return test(cacheFiles());
    };
    const call = (debug: boolean) =>
      hook(
        BIN.preDelegate,
        cwd,
        { agent_name: 'cached' },
        {
          AGENT_SESSION_CACHE_DIR: caches,
          ...(debug ? { AGENT_SESSION_DEBUG: '1' } : {}),
        },
      );
    ok(call(false));
    // The first call found no cache and used the database: the maker writes the -database cache (and only that).
    expect(settled((files) => files.length === 1 && files[0]!.endsWith('-database.v8'))).toBe(true);
    // The next call reads it (the loader says nothing in debug mode then) and has nothing more made.
    const next = call(true);
    expect({ status: next.status, stderr: next.stderr }).toEqual({ status: 0, stderr: '' });
    spawnSync('sleep', ['1']);
    expect(cacheFiles()).toHaveLength(1);
  });

  it('on a schema without tables: hooks fail open and log "run agent-session migrate"; the CLI exits 5 saying so', () => {
    const cwd = project();
    const missing = { AGENT_SESSION_DATABASE_SCHEMA: freshSchemaName() };
    const seed = hook(BIN.preDelegate, cwd, { agent_name: 'x' }, missing);
    expect(seed.status).toBe(0);
    expect(JSON.parse(seed.stdout)).toMatchObject({ should_resume: false });
    const claude = hook(
      BIN.preDelegate,
      cwd,
      {
        session_id: 's',
        transcript_path: '/t',
        cwd,
        agent_id: 'a1',
        agent_type: 'x',
        hook_event_name: 'SubagentStart',
      },
      missing,
    );
    expect({ status: claude.status, stdout: claude.stdout }).toEqual({ status: 0, stdout: '' });
    const log = readFileSync(join(cwd, '.claude', 'logs', 'pre_delegate.log'), 'utf8');
    expect(log).toContain('agent-session migrate');
    const listed = cli(cwd, ['list'], missing);
    expect(listed.status).toBe(5);
    expect(listed.stderr).toMatch(/^agent-session: .*run `agent-session migrate`\n$/);
  });

  it('moves a store over and back: file → PostgreSQL → file gives identical sessions; a second copy is refused', () => {
    const cwd = project();
    const files = join(cwd, 'files');
    const fileCli = (args: string[]) => run(BIN.cli, [...args, '--dir', files], { cwd });
    const ids = ['alpha', 'beta', 'gamma'].map((agent) =>
      ok(fileCli(['create', '--agent', agent, '--purpose', 'move', '--metadata', '{"z":1,"a":[1,{"b":null}]}'])).trim(),
    );
    ok(fileCli(['update', ids[0]!, '--phase', 'approval', '--error', 'once']));
    ok(fileCli(['finalize', ids[1]!, 'failed', '--summary', 'no']));
    const there = JSON.parse(ok(cli(cwd, ['copy', '--from', files, '--to', db.url, '--json'])));
    expect(there).toMatchObject({ copied: 3, skipped: [] });
    const again = cli(cwd, ['copy', '--from', files, '--to', db.url]);
    expect(again.status).toBe(4);
    const back = join(cwd, 'back');
    expect(JSON.parse(ok(cli(cwd, ['copy', '--from', db.url, '--to', back, '--json']))).copied).toBe(3);
    for (const id of ids) {
      const original = JSON.parse(readFileSync(join(files, id, 'state.json'), 'utf8'));
      expect(JSON.parse(readFileSync(join(back, id, 'state.json'), 'utf8'))).toEqual(original);
    }
  });

  it('copy is all or nothing: a state PostgreSQL refuses part-way leaves none of the copy, and the rerun is not refused for it', () => {
    const cwd = project();
    const files = join(cwd, 'files');
    const fileCli = (args: string[]) => run(BIN.cli, [...args, '--dir', files], { cwd });
    for (const n of [1, 2, 3, 4])
      ok(fileCli(['create', '--agent', `a${n}`, '--purpose', 'p', '--id', `agent-20261128-00000${n}-0000000${n}`]));
    // jsonb refuses a NUL character; the file store keeps it. The newest id: listed after the others.
    ok(
      fileCli([
        'create',
        '--agent',
        'bad',
        '--purpose',
        'p',
        '--id',
        'agent-20261128-000009-00000009',
        '--metadata',
        '{"a":"x\\u0000y"}',
      ]),
    );
    const copied = cli(cwd, ['copy', '--from', files, '--to', db.url]);
    expect(copied.status).not.toBe(0);
    expect(copied.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(ok(cli(cwd, ['list', '--all-projects', '--json'])))).toEqual([]);
    // Without the refused one, the rerun copies every other session.
    rmSync(join(files, 'agent-20261128-000009-00000009'), { recursive: true });
    expect(JSON.parse(ok(cli(cwd, ['copy', '--from', files, '--to', db.url, '--json'])))).toMatchObject({ copied: 4 });
  });

  describe('two machines: different working folders, time zones and clocks, one store', () => {
    // Machine A's clock is 40 minutes behind (the test hook AGENT_SESSION_TEST_CLOCK_OFFSET_MS, read only by the
    // assembly), in Auckland; machine B's is right, in Los Angeles. Each has its own clone of one repository, in a
    // folder of its own (logs, config), cloned over ssh on A and over https (with a token) on B: one project.
    const machineA = { TZ: 'Pacific/Auckland', AGENT_SESSION_TEST_CLOCK_OFFSET_MS: String(-40 * 60_000) };
    const machineB = { TZ: 'America/Los_Angeles', AGENT_SESSION_TEST_CLOCK_OFFSET_MS: '0' };
    const clones = (): [string, string] => [
      gitRepository(project(), 'git@github.com:acme/planner.git'),
      gitRepository(project(), 'https://ci:secret-token@GitHub.com/acme/planner'),
    ];

    it('A parks a plan in approval, B resumes and finalizes it; stats from either sees both', async () => {
      const [a, b] = clones();
      const id = ok(cli(a, ['create', '--agent', 'planner', '--purpose', 'two machines'], machineA)).trim();
      ok(cli(a, ['update', id, '--phase', 'planning'], machineA));
      ok(cli(a, ['update', id, '--phase', 'approval'], machineA));
      const resumed = JSON.parse(ok(hook(BIN.preDelegate, b, { agent_name: 'planner' }, machineB)));
      expect(resumed).toMatchObject({ should_resume: true, reason: 'session_resumable', agent_id: id });
      ok(cli(b, ['finalize', id, 'completed', '--summary', 'approved on B'], machineB));
      for (const [cwd, machine] of [
        [a, machineA],
        [b, machineB],
      ] as const) {
        const stats = JSON.parse(ok(cli(cwd, ['stats', '--json'], machine)));
        expect(stats.overall).toMatchObject({ sessions: 1, completed: 1, resumes: 1 });
      }
      // Every time was stamped by the database's clock: none is 40 minutes behind.
      const state = JSON.parse(ok(cli(a, ['get', id], machineA)));
      // Both clones name the project alike, and no credential of B's remote is stored.
      expect(state.project).toBe('github.com/acme/planner');
      expect(JSON.stringify(await db.sql(`SELECT project, state FROM $s.sessions`))).not.toContain('secret-token');
      for (const stamp of [
        state.created_at,
        state.last_updated,
        ...state.history.map((h: { timestamp: string }) => h.timestamp),
      ])
        expect(Math.abs(Date.parse(stamp) - Date.now())).toBeLessThan(5 * 60_000);
    });

    it('(control) the same steps on one shared folder of files: B finds the plan expired by the clock of A', () => {
      const [a, b] = clones();
      const shared = join(base, `shared-${Math.random().toString(16).slice(2)}`);
      mkdirSync(shared);
      const fileEnv = (machine: Record<string, string>) => ({ ...machine, AGENT_SESSION_DIR: shared });
      const fileCli = (cwd: string, args: string[], machine: Record<string, string>) =>
        run(BIN.cli, args, { cwd, env: fileEnv(machine) });
      const id = ok(fileCli(a, ['create', '--agent', 'planner', '--purpose', 'control'], machineA)).trim();
      ok(fileCli(a, ['update', id, '--phase', 'approval'], machineA));
      const answer = run(BIN.preDelegate, [], {
        cwd: b,
        input: JSON.stringify({ agent_name: 'planner' }),
        env: fileEnv(machineB),
      });
      expect(JSON.parse(answer.stdout)).toMatchObject({ should_resume: false, reason: 'session_expired' });
    });
  });
});
