import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, projectMaker, run, tempDir } from '../helpers';

const base = tempDir();
const project = projectMaker(base);
const cli = (cwd: string, args: string[]) => run(BIN.cli, args, { cwd });
const hook = (bin: string, cwd: string, input: string, env?: Record<string, string>) =>
  run(bin, [], { cwd, input, ...(env ? { env } : {}) });

/** The hook contract: exit 0, exactly one JSON object on one line of stdout, no stack trace. */
function answerOf(result: ReturnType<typeof hook>): Record<string, unknown> {
  expect(result.status).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stdout).not.toMatch(/\s+at .*:\d+:\d+/);
  const answer = JSON.parse(result.stdout);
  expect(typeof answer === 'object' && answer !== null && !Array.isArray(answer)).toBe(true);
  return answer;
}

describe('pre-delegate (built bin, seed protocol)', () => {
  it('answers resume with the seed’s shape, by id and by name, and logs one line per decision', () => {
    const cwd = project();
    const id = cli(cwd, [
      'create',
      '--agent',
      'terraform-architect',
      '--purpose',
      'approval_workflow',
      '--metadata',
      '{"task_id":"T001"}',
    ]).stdout.trim();
    cli(cwd, ['update', id, '--phase', 'approval']);
    const byId = answerOf(
      hook(BIN.preDelegate, cwd, JSON.stringify({ agent_name: 'terraform-architect', agent_id: id, task_id: 'T001' })),
    );
    expect(byId).toMatchObject({
      should_resume: true,
      reason: 'session_resumable',
      agent_id: id,
      resume_metadata: {
        previous_phase: 'approval',
        metadata: { task_id: 'T001' },
        history: [expect.objectContaining({ to_phase: 'approval' })],
      },
    });
    const byName = answerOf(hook(BIN.preDelegate, cwd, JSON.stringify({ agent_name: 'terraform-architect' })));
    expect(byName).toMatchObject({
      should_resume: true,
      reason: 'session_resumable',
      agent_id: id,
      resume_metadata: { previous_phase: 'approval' },
    });
    // Each approved resume is recorded once in the history; the answer reports the activity before it.
    const history = JSON.parse(cli(cwd, ['get', id]).stdout).history;
    expect(history.filter((entry: { event?: string }) => entry.event === 'resume')).toHaveLength(2);
    expect((byName.resume_metadata as { last_updated: string }).last_updated).toBe(history.at(-2).timestamp);
    const log = readFileSync(join(cwd, '.claude', 'logs', 'pre_delegate.log'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/should_resume=true reason="session_resumable"/);
  });

  it('by name, leaves a session a Claude agent is running (session_running), and resumes it once that agent stopped', () => {
    const cwd = project();
    const claude = (event: Record<string, unknown>) =>
      hook(
        BIN.preDelegate,
        cwd,
        JSON.stringify({
          session_id: 's1',
          transcript_path: '/x.jsonl',
          cwd,
          agent_id: 'claude-a1',
          agent_type: 'Explore',
          ...event,
        }),
      );
    expect(claude({ hook_event_name: 'SubagentStart' }).status).toBe(0);
    const listed = JSON.parse(cli(cwd, ['list', '--json']).stdout) as { agent_id: string }[];
    expect(listed).toHaveLength(1);
    const linked = listed[0]!;
    cli(cwd, ['update', linked.agent_id, '--phase', 'planning']);
    const running = answerOf(hook(BIN.preDelegate, cwd, JSON.stringify({ agent_name: 'Explore' })));
    expect(running).toMatchObject({ should_resume: false, reason: 'session_running', agent_id: linked.agent_id });
    expect(
      JSON.parse(cli(cwd, ['get', linked.agent_id]).stdout).history.filter(
        (e: { event?: string }) => e.event === 'resume',
      ),
    ).toHaveLength(0);
    expect(
      claude({ hook_event_name: 'SubagentStop', stop_hook_active: false, last_assistant_message: 'parked' }).status,
    ).toBe(0);
    const parked = answerOf(hook(BIN.preDelegate, cwd, JSON.stringify({ agent_name: 'Explore' })));
    expect(parked).toMatchObject({ should_resume: true, reason: 'session_resumable', agent_id: linked.agent_id });
  });

  it.each([
    ['empty input', '', 'invalid_input'],
    ['garbage', 'not json at all', 'invalid_input'],
    ['an array', '[1,2,3]', 'invalid_input'],
    ['a string', '"agent"', 'invalid_input'],
    ['null', 'null', 'invalid_input'],
    ['wrong types', '{"agent_name": 7, "agent_id": {"x": 1}}', 'invalid_input'],
    ['a traversal id', '{"agent_name": "a", "agent_id": "../../../etc/passwd"}', 'invalid_input'],
    ['an absolute id', '{"agent_name": "a", "agent_id": "/tmp"}', 'invalid_input'],
    ['no agent at all', '{}', 'no_existing_session'],
    ['an unknown agent', '{"agent_name": "ghost"}', 'no_existing_session'],
    ['an unknown id', '{"agent_name": "a", "agent_id": "agent-x"}', 'session_not_found'],
    ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'invalid_input'],
  ])('%s → exit 0 and reason %s, store untouched', (_label, input, reason) => {
    const cwd = project();
    const answer = answerOf(hook(BIN.preDelegate, cwd, input));
    expect(answer).toMatchObject({ should_resume: false, reason });
    expect(readdirSync(join(cwd, '.claude'))).toEqual(['logs']);
  });

  it('answers as soon as the object arrived, although stdin stays open', async () => {
    const cwd = project();
    const child = spawn(process.execPath, [BIN.preDelegate], { cwd, env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.write('{"agent_name": "nobody"}');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ should_resume: false, reason: 'no_existing_session' });
  });

  it('answers invalid_input at the time limit, and exits, when a pipe is held open with nothing sent', async () => {
    const cwd = project();
    // A FIFO opened read-write by this process: the hook's stdin has a writer that never writes nor closes.
    const fifo = join(cwd, 'stdin.fifo');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, 'r+');
    try {
      const child = spawn(process.execPath, [BIN.preDelegate], {
        cwd,
        stdio: [fd, 'pipe', 'pipe'],
        env: { ...process.env, NODE_EXTRA_CA_CERTS: '', AGENT_SESSION_STDIN_TIMEOUT_MS: '300' },
      });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ should_resume: false, reason: 'invalid_input' });
    } finally {
      closeSync(fd);
    }
  });

  it('on a socket held open with nothing sent, answers invalid_input when the host closes stdin (no time limit)', async () => {
    // A Node host's stdin is a socket, read synchronously: a socket cannot be made non-blocking without loading
    // `net` (~6 M instructions per call, docs/seed-protocol.md), so the time limit applies to pipes and terminals only.
    const cwd = project();
    const child = spawn(process.execPath, [BIN.preDelegate], {
      cwd,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '', AGENT_SESSION_STDIN_TIMEOUT_MS: '300' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect({ stdout, exitCode: child.exitCode }).toEqual({ stdout: '', exitCode: null });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ should_resume: false, reason: 'invalid_input', error: 'empty input' });
  });

  it('answers invalid_state for a corrupt session, and error (still exit 0) when the store breaks', () => {
    const cwd = project();
    mkdirSync(join(cwd, '.claude', 'session', 'bad'), { recursive: true });
    writeFileSync(join(cwd, '.claude', 'session', 'bad', 'state.json'), '{"truncated": ');
    expect(answerOf(hook(BIN.preDelegate, cwd, '{"agent_id": "bad"}'))).toMatchObject({
      should_resume: false,
      reason: 'invalid_state',
      agent_id: 'bad',
    });
    // The store root is a file: listing it is an I/O error, which the hook turns into reason "error".
    const file = join(cwd, 'not-a-dir');
    writeFileSync(file, 'x');
    const broken = hook(BIN.preDelegate, cwd, '{"agent_id": "s"}', { AGENT_SESSION_DIR: join(file, 'sub') });
    expect(answerOf(broken)).toEqual({ should_resume: false, reason: 'error' });
  });

  it('--test passes and leaves nothing behind', () => {
    const cwd = project();
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('agent-session-selftest-'));
    const result = run(BIN.preDelegate, ['--test'], { cwd });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/=== Pre-Delegate Hook Test ===/);
    expect(result.stdout).toMatch(/should_resume: true/);
    expect(result.stdout).not.toMatch(/FAILED/);
    expect(readdirSync(join(cwd, '.claude'))).toEqual([]);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('agent-session-selftest-'))).toEqual(before);
  });
});

describe('subagent-stop (built bin, seed protocol)', () => {
  it('finalizes completed, or failed on a non-zero exit code', () => {
    const cwd = project();
    const a = cli(cwd, ['create', '--agent', 'x', '--purpose', 'p']).stdout.trim();
    const b = cli(cwd, ['create', '--agent', 'x', '--purpose', 'p']).stdout.trim();
    expect(
      answerOf(
        hook(
          BIN.subagentStop,
          cwd,
          JSON.stringify({ task_info: { agent_id: a, agent: 'x' }, agent_output: 'Done: 3 files changed' }),
        ),
      ),
    ).toEqual({ finalized: true, agent_id: a, outcome: 'completed' });
    expect(answerOf(hook(BIN.subagentStop, cwd, JSON.stringify({ agent_id: b, exit_code: 1 })))).toEqual({
      finalized: true,
      agent_id: b,
      outcome: 'failed',
    });
    expect(JSON.parse(cli(cwd, ['get', a]).stdout)).toMatchObject({
      phase: 'completed',
      summary: 'Done: 3 files changed',
    });
    expect(JSON.parse(cli(cwd, ['get', b]).stdout)).toMatchObject({ phase: 'failed' });
    expect(answerOf(hook(BIN.subagentStop, cwd, JSON.stringify({ agent_id: b })))).toEqual({
      finalized: false,
      reason: 'already_final',
      agent_id: b,
    });
    expect(
      readFileSync(join(cwd, '.claude', 'logs', 'subagent_stop.log'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(3);
  });

  it.each([
    ['', 'invalid_input'],
    ['[]', 'invalid_input'],
    ['{}', 'no_agent_id'],
    ['{"task_info": {"agent_id": "../../x"}}', 'invalid_input'],
    ['{"task_info": {"agent_id": "nope"}}', 'session_not_found'],
    ['{"agent_id": 12}', 'invalid_input'],
  ])('%p → exit 0 and reason %s', (input, reason) => {
    const cwd = project();
    expect(answerOf(hook(BIN.subagentStop, cwd, input))).toMatchObject({ finalized: false, reason });
  });
});
