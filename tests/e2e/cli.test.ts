import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);
const cli = (cwd: string, args: string[], env?: Record<string, string | undefined>) =>
  run(BIN.cli, args, { cwd, ...(env ? { env } : {}) });

function expectOneLineError(result: ReturnType<typeof cli>, status: number): void {
  expect(result.status).toBe(status);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-session: /);
  expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('agent-session CLI (built bin)', () => {
  it('runs the seed quick start', () => {
    const cwd = project();
    const created = cli(cwd, [
      'create',
      '--agent',
      'terraform-architect',
      '--purpose',
      'approval_workflow',
      '--metadata',
      '{"task_id":"T001"}',
    ]);
    expect(created.status).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^agent-\d{8}-\d{6}-[0-9a-f]{8}$/);
    expect(created.stdout).toBe(`${id}\n`);
    expect(existsSync(join(cwd, '.claude', 'session', id, 'state.json'))).toBe(true);

    expect(cli(cwd, ['update', id, '--phase', 'approval']).status).toBe(0);
    const yes = cli(cwd, ['should-resume', id]);
    expect([yes.status, yes.stdout]).toEqual([0, 'true session_resumable\n']);
    expect(JSON.parse(cli(cwd, ['should-resume', id, '--json']).stdout)).toEqual({
      should_resume: true,
      reason: 'session_resumable',
      agent_id: id,
    });

    const listed = cli(cwd, ['list', '--active-only']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`${id.slice(-8)}\\s+terraform-architect\\s+approval\\s+yes\\s+0\\s+\\d+ seconds? ago`),
    );

    const done = cli(cwd, ['finalize', id, 'completed', '--summary', 'Terraform applied']);
    expect(done.status).toBe(0);
    const state = JSON.parse(cli(cwd, ['get', id]).stdout);
    expect(state).toMatchObject({ phase: 'completed', summary: 'Terraform applied', resume_ready: false });
    expect(typeof state.duration_seconds).toBe('number');
    const no = cli(cwd, ['should-resume', id]);
    expect([no.status, no.stdout]).toEqual([1, 'false phase_not_resumable\n']);
    expect(cli(cwd, ['list', '--active-only']).stdout).toBe('No sessions found\n');
    expect(cli(cwd, ['cleanup', '--hours', '24']).stdout).toBe('Removed 0 sessions idle for more than 24h\n');
  });

  it('create --json, --id, and refuses a duplicate without overwriting', () => {
    const cwd = project();
    const state = JSON.parse(cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 'my-id', '--json']).stdout);
    // The session belongs to the project (its folder's, without a git remote): version 5 says so.
    expect(state).toMatchObject({
      agent_id: 'my-id',
      phase: 'initializing',
      schema_version: 5,
      project: expect.stringMatching(/^path:\//),
    });
    cli(cwd, ['update', 'my-id', '--metadata', '{"keep":1}']);
    expectOneLineError(cli(cwd, ['create', '--agent', 'b', '--purpose', 'p', '--id', 'my-id']), 4);
    expect(JSON.parse(cli(cwd, ['get', 'my-id']).stdout)).toMatchObject({ agent_name: 'a', metadata: { keep: 1 } });
  });

  it('refuses metadata nested too deeply to be written (exit 2, nothing changed)', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's']);
    const before = cli(cwd, ['get', 's']).stdout;
    const deep = `{"d":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expectOneLineError(cli(cwd, ['update', 's', '--metadata', deep]), 2);
    expectOneLineError(cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--metadata', deep]), 2);
    expect(cli(cwd, ['get', 's']).stdout).toBe(before);
    // No half-created session or staging folder is left (`.agents` holds the per-agent pointers).
    const kept = ['.agents', '.gitignore'];
    expect(readdirSync(join(cwd, '.claude', 'session')).filter((name) => !kept.includes(name))).toEqual(['s']);
    expect(cli(cwd, ['update', 's', '--metadata', `{"d":${'['.repeat(99)}${']'.repeat(99)}}`]).status).toBe(0);
  });

  it('a store root that is a file is an I/O error to every command (exit 5), not an empty store', () => {
    const cwd = project();
    const file = join(cwd, 'not-a-folder');
    writeFileSync(file, 'x');
    for (const args of [['list'], ['cleanup'], ['stats'], ['get', 's']])
      expectOneLineError(cli(cwd, [...args, '--dir', file]), 5);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('update merges metadata, counts errors, and with no option only touches', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's', '--metadata', '{"a":1}']);
    cli(cwd, ['update', 's', '--phase', 'investigating', '--metadata', '{"findings":["x"]}', '--error', 'timeout']);
    const before = JSON.parse(cli(cwd, ['get', 's']).stdout);
    expect(before).toMatchObject({
      phase: 'investigating',
      metadata: { a: 1, findings: ['x'] },
      error_count: 1,
      last_error: { message: 'timeout' },
    });
    expect(cli(cwd, ['update', 's']).status).toBe(0);
    const after = JSON.parse(cli(cwd, ['get', 's']).stdout);
    expect({ ...after, last_updated: before.last_updated }).toEqual(before);
    expect(Date.parse(after.last_updated)).toBeGreaterThanOrEqual(Date.parse(before.last_updated));
  });

  it.each([
    ['unknown command', 2, ['dance']],
    ['no command', 2, []],
    ['missing --agent', 2, ['create', '--purpose', 'p']],
    ['bad phase', 2, ['update', 's', '--phase', 'dancing']],
    ['metadata not JSON', 2, ['update', 's', '--metadata', '{oops']],
    ['metadata not an object', 2, ['update', 's', '--metadata', '[1,2]']],
    ['traversal id', 2, ['get', '../../etc']],
    ['absolute id', 2, ['update', '/etc', '--phase', 'planning']],
    ['long id', 2, ['get', 'x'.repeat(10_000)]],
    ['bad outcome', 2, ['finalize', 's', 'exploded']],
    ['hours not a number', 2, ['cleanup', '--hours', 'abc']],
    ['negative hours', 2, ['cleanup', '--hours', '-3']],
    ['hex hours', 2, ['cleanup', '--hours', '0x10']],
    ['unknown option', 2, ['list', '--colour']],
    ['empty --agent for list', 2, ['list', '--agent', '']],
    ['blank --agent for list', 2, ['list', '--agent', '  ']],
    ['missing session', 3, ['get', 'nope']],
    ['update missing session', 3, ['update', 'nope', '--phase', 'planning']],
    ['illegal transition', 4, ['update', 's', '--phase', 'validating']],
  ])('%s → exit %i, one line on stderr, nothing changed', (_label, status, args) => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's']);
    const file = join(cwd, '.claude', 'session', 's', 'state.json');
    const before = readFileSync(file, 'utf8');
    expectOneLineError(cli(cwd, args), status);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(join(cwd, '.claude', 'session')).filter((name) => !name.startsWith('.'))).toEqual(['s']);
  });

  it('a final session is never revived or re-finalized (exit 4)', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's']);
    cli(cwd, ['update', 's', '--phase', 'abandoned']);
    expect(JSON.parse(cli(cwd, ['get', 's']).stdout)).toMatchObject({
      phase: 'abandoned',
      finalized_at: expect.any(String),
    });
    expectOneLineError(cli(cwd, ['update', 's', '--phase', 'approval']), 4);
    expectOneLineError(cli(cwd, ['finalize', 's', 'completed']), 4);
  });

  it('reports a corrupt session with exit 4, lists it as corrupt, and cleanup never crashes', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 'good']);
    mkdirSync(join(cwd, '.claude', 'session', 'bad'));
    writeFileSync(join(cwd, '.claude', 'session', 'bad', 'state.json'), '[1]');
    expectOneLineError(cli(cwd, ['get', 'bad']), 4);
    const should = cli(cwd, ['should-resume', 'bad']);
    expect([should.status, should.stdout]).toEqual([1, 'false invalid_state\n']);
    const listed = cli(cwd, ['list']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/bad\s+-\s+corrupt/);
    expect(listed.stdout).toMatch(/good\s+a\s+initializing/);
    expect(listed.stderr).toMatch(/corrupt session bad/);
    const json = JSON.parse(cli(cwd, ['list', '--json']).stdout);
    expect(json).toEqual([
      expect.objectContaining({ agent_id: 'good', resumable_now: false, resume_reason: 'phase_not_resumable' }),
      expect.objectContaining({ agent_id: 'bad', corrupt: true }),
    ]);
    const active = cli(cwd, ['list', '--active-only', '--json']);
    expect(JSON.parse(active.stdout).map((e: { agent_id: string }) => e.agent_id)).toEqual(['good']);
    expect(cli(cwd, ['cleanup']).status).toBe(0);
  });

  it('read-only commands create no folder', () => {
    const cwd = join(base, `bare-${Date.now()}`);
    mkdirSync(cwd);
    for (const args of [['list'], ['get', 'x'], ['should-resume', 'x'], ['cleanup'], ['list', '--json']])
      cli(cwd, args);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('honours --dir and AGENT_SESSION_DIR, and the resume limits from the environment', () => {
    const cwd = project();
    const dir = join(cwd, 'elsewhere');
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's', '--dir', dir]);
    cli(cwd, ['update', 's', '--phase', 'planning', '--error', 'e'], { AGENT_SESSION_DIR: dir });
    expect(existsSync(join(dir, 's', 'state.json'))).toBe(true);
    expect(cli(cwd, ['should-resume', 's'], { AGENT_SESSION_DIR: dir }).stdout).toBe('true session_resumable\n');
    expect(cli(cwd, ['should-resume', 's'], { AGENT_SESSION_DIR: dir, AGENT_SESSION_MAX_ERRORS: '1' }).stdout).toBe(
      'false too_many_errors\n',
    );
    expectOneLineError(
      cli(cwd, ['should-resume', 's'], { AGENT_SESSION_DIR: dir, AGENT_SESSION_MAX_ERRORS: 'many' }),
      2,
    );
  });

  it('expires sessions idle for more than the timeout, and cleanup removes old ones', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 'old']);
    cli(cwd, ['update', 'old', '--phase', 'approval']);
    const file = join(cwd, '.claude', 'session', 'old', 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.last_updated = new Date(Date.now() - 31 * 60_000).toISOString();
    writeFileSync(file, JSON.stringify(state));
    expect(cli(cwd, ['should-resume', 'old']).stdout).toBe('false session_expired\n');
    expect(cli(cwd, ['cleanup', '--hours', '0.5', '--dry-run']).stdout).toBe(
      'Would remove 1 session idle for more than 0.5h:\n  old\n',
    );
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(cli(cwd, ['cleanup', '--hours', '0.5', '--json']).stdout)).toMatchObject({
      removed: ['old'],
      corrupt_removed: [],
    });
    expect(existsSync(file)).toBe(false);
  });

  it('delete removes a session and says not found afterwards', () => {
    const cwd = project();
    cli(cwd, ['create', '--agent', 'a', '--purpose', 'p', '--id', 's']);
    expect(cli(cwd, ['delete', 's']).stdout).toBe('Deleted session s\n');
    expectOneLineError(cli(cwd, ['delete', 's']), 3);
  });

  it('prints help and version on stdout with exit 0', () => {
    const cwd = project();
    const help = cli(cwd, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/should-resume/);
    expect(cli(cwd, ['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
