// What a bin evaluates when it loads, every call pays. An `Intl` formatter made at load starts ICU: the full UTC date
// class of @date-fns/utc made three and cost +121 M instructions (~30 ms) on every CLI call, `--version` included.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';

describe('bin bundles', () => {
  it.each(Object.entries(BIN))(
    '%s makes no Intl formatter (ICU stays unloaded unless a command needs it)',
    (_, bin) => {
      // The loader (`<bin>.cjs`) reads its bundle from `<bin>.bundle` beside it.
      expect(readFileSync(bin.replace(/\.cjs$/, '.bundle'), 'utf8')).not.toMatch(/new Intl\.\w+/);
    },
  );
});

// zod (its core and schemas) costs a hook call ~20 M instructions when evaluated: the hooks parse with the functions
// generated from the schemas (src/**/*-parsers.ts) and load zod only to word a rejection. zod sets
// `globalThis.__zod_globalConfig` when its core is evaluated; a preload reports it at exit.
describe('zod in the hooks', () => {
  const dir = tempDir();
  const probe = join(dir, 'zod-probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => process.stderr.write(`ZOD ${globalThis.__zod_globalConfig !== undefined}\\n`));\n",
  );
  const store = join(dir, 'store');
  const env = {
    AGENT_SESSION_DIR: store,
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
    NODE_OPTIONS: `--require ${probe}`,
  };
  const cli = (...args: string[]) => {
    const result = run(BIN.cli, [...args], { cwd: dir, env: { ...env, NODE_OPTIONS: '' } });
    expect(result.status).toBe(0);
    return result.stdout.trim();
  };
  const parked = (agent: string) => {
    const id = cli('create', '--agent', agent, '--purpose', 'p');
    cli('update', id, '--phase', 'approval');
    return id;
  };
  const claude = (event: string, fields: Record<string, unknown>) =>
    JSON.stringify({ hook_event_name: event, session_id: 's', transcript_path: join(dir, 't'), cwd: dir, ...fields });
  const zodEvaluated = (bin: string, input: string, extra: Record<string, string> = {}) => {
    const result = run(bin, [], { cwd: dir, input, env: { ...env, ...extra } });
    expect(result.status).toBe(0);
    return /^ZOD (true|false)$/m.exec(result.stderr)?.[1];
  };

  it.each([
    [
      'pre-delegate approving a resume by id',
      () => [BIN.preDelegate, JSON.stringify({ agent_name: 'a1', agent_id: parked('a1') })],
    ],
    ['pre-delegate by agent name', () => (parked('a2'), [BIN.preDelegate, JSON.stringify({ agent_name: 'a2' })])],
    ['pre-delegate with no session', () => [BIN.preDelegate, JSON.stringify({ agent_name: 'nobody' })]],
    ['subagent-stop finalizing', () => [BIN.subagentStop, JSON.stringify({ task_info: { agent_id: parked('a3') } })]],
    [
      'Claude Code PreToolUse',
      () => (
        parked('a4'),
        [BIN.preDelegate, claude('PreToolUse', { tool_name: 'Agent', tool_input: { subagent_type: 'a4' } })]
      ),
    ],
    [
      'Claude Code SubagentStart',
      () => [BIN.preDelegate, claude('SubagentStart', { agent_id: 'a0f1', agent_type: 'a5' })],
    ],
    [
      'Claude Code SubagentStop',
      () => [BIN.subagentStop, claude('SubagentStop', { agent_id: 'a0f1', agent_type: 'a5' })],
    ],
  ] as const)('%s: answered without evaluating zod', (_what, make: () => readonly string[]) => {
    const [bin, input] = make() as [string, string];
    expect(zodEvaluated(bin, input)).toBe('false');
  });

  it('with a config file and settings in the environment: answered without evaluating zod', () => {
    writeFileSync(join(dir, 'agent-session.json'), JSON.stringify({ resume_timeout_minutes: 45, log_level: 'info' }));
    const input = JSON.stringify({ agent_name: 'a6', agent_id: parked('a6') });
    expect(zodEvaluated(BIN.preDelegate, input, { AGENT_SESSION_MAX_ERRORS: '4' })).toBe('false');
    rmSync(join(dir, 'agent-session.json'));
  });

  it('a rejected input is worded by zod (the probe sees it evaluated)', () => {
    const result = run(BIN.preDelegate, [], { cwd: dir, input: '{"agent_name":5}', env });
    expect(JSON.parse(result.stdout)).toEqual({
      should_resume: false,
      reason: 'invalid_input',
      error: 'agent_name: Invalid input: expected string, received number',
    });
    expect(result.stderr).toContain('ZOD true');
  });
});
