// The Codex wiring through the built bins: `init --host codex` on a temp project (.codex/hooks.json and the exec-policy
// rule: idempotent, earlier forms updated, uninstalled exactly), and the hook bins run with `--host codex` on the
// payloads captured from Codex 0.169.0 (tests/fixtures/codex): park, the parked overview, the interruption, and a
// Claude Code session of the same agent name left alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, run } from '../../helpers';

const FIXTURES = resolve(__dirname, '../../fixtures/codex');
const DIST = resolve(__dirname, '../../../dist');
/** A user's own hook, kept by every change. */
const MINE = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo mine"}]}]}}';
let project: string;

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'agent-session-codex-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/**
 * A folder holding a stand-in `codex` that answers `--version` as `answer` says (exit 1 when null): the Codex init
 * finds on the PATH, which decides the rows it wires (core/events.ts `since`).
 */
function codexOnPath(answer: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-codex-bin-'));
  writeFileSync(join(dir, 'codex'), `#!/bin/sh\n${answer === null ? 'exit 1' : `echo "${answer}"`}\n`, { mode: 0o755 });
  return dir;
}
const NEWEST = codexOnPath('codex-cli 0.171.0');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return cliWith(NEWEST, ...args);
}

function cliWith(codexDir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return run(BIN.cli, args, { cwd: project, env: { PATH: `${codexDir}:${process.env.PATH ?? ''}` } });
}

function hook(bin: 'pre-delegate' | 'subagent-stop', name: string, patch: Record<string, unknown> = {}) {
  mkdirSync(join(project, '.codex'), { recursive: true });
  const file = /-\d+\.\d+\.\d+$/.test(name) ? name : `${name}-0.169.0`;
  const payload = {
    ...(JSON.parse(readFileSync(join(FIXTURES, `${file}.json`), 'utf8')) as Record<string, unknown>),
    cwd: project,
    ...patch,
  };
  const result = spawnSync(process.execPath, [join(DIST, `${bin}.cjs`), '--host', 'codex'], {
    input: JSON.stringify(payload),
    cwd: project,
    encoding: 'utf8',
    // A project folder apart from HOME (~/.claude is never a project's); `.codex/` makes it one outside git, as init does.
    env: { PATH: process.env.PATH ?? '', HOME: join(project, 'home') },
  });
  expect(result.status).toBe(0);
  return result.stdout === '' ? null : (JSON.parse(result.stdout) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const hooksJson = (): Record<string, any> => JSON.parse(readFileSync(join(project, '.codex', 'hooks.json'), 'utf8'));
const rulesFile = () => join(project, '.codex', 'rules', 'agent-session.rules');
const sessions = () =>
  JSON.parse(cli('--dir', join(project, '.claude', 'session'), 'list', '--json').stdout) as Record<string, unknown>[];

describe('init --host codex', () => {
  it('wires seven hooks with absolute node commands and --host codex, and the rule of the recording command', () => {
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex', 'hooks.json'), MINE);
    const first = cli('init', '--host', 'codex');
    expect(first.status).toBe(0);
    const hooks = hooksJson().hooks;
    const pre = `"${process.execPath}" "${join(DIST, 'pre-delegate.cjs')}" --host codex`;
    const stop = `"${process.execPath}" "${join(DIST, 'subagent-stop.cjs')}" --host codex`;
    expect(Object.keys(hooks).sort()).toEqual([
      'PermissionRequest',
      'PostModelRequest',
      'PreToolUse',
      'SessionStart',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
    expect(hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'echo mine' }] }]);
    expect(hooks.SubagentStart).toEqual([{ hooks: [{ type: 'command', command: pre, timeout: 30 }] }]);
    expect(hooks.PermissionRequest).toEqual([{ hooks: [{ type: 'command', command: pre, timeout: 30 }] }]);
    expect(hooks.PostModelRequest).toEqual([{ hooks: [{ type: 'command', command: stop, timeout: 30 }] }]);
    // Codex 0.141.0+ matches its spawn_agent by the alias `Agent`.
    expect(hooks.PreToolUse).toEqual([
      { matcher: 'Task|Agent|SendMessage', hooks: [{ type: 'command', command: pre, timeout: 30 }] },
    ]);
    // The recording entry, the store and its pin (tests/e2e/codex/codex-rule.test.ts: what the rule lets through).
    const words = [
      process.execPath,
      join(DIST, 'agent-session.cjs'),
      'record',
      '--dir',
      join(project, '.claude', 'session'),
    ];
    const pattern = `pattern = [${words.map((w) => JSON.stringify(w)).join(', ')}, "--pin", `;
    expect(readFileSync(rulesFile(), 'utf8')).toMatch(
      new RegExp(`${pattern.replace(/[[\]\\/.*+?^${}()|]/g, '\\$&')}"[0-9a-f]{16}"\\]`),
    );
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(false);

    const again = cli('init', '--host', 'codex');
    expect(again.stdout).toContain('already has the agent-session hooks');
    expect(again.stdout).toContain('(already there)');
    expect(hooksJson().hooks).toEqual(hooks);
  });

  it.each([
    ['codex-cli 0.140.0', 'the codex on the PATH is 0.140.0'],
    [null, 'no codex on the PATH answered `codex --version`'],
  ])(
    'leaves out PreToolUse for a Codex before 0.141.0 (%s), says so, and wires it once one fires it',
    (answer, why) => {
      const older = cliWith(codexOnPath(answer), 'init', '--host', 'codex');
      expect(older.status).toBe(0);
      expect(older.stdout).toContain(`Not wiring PreToolUse: it needs Codex 0.141.0 or later, and ${why}`);
      expect(Object.keys(hooksJson().hooks)).not.toContain('PreToolUse');
      expect(Object.keys(hooksJson().hooks)).toContain('SubagentStart');
      const first = cliWith(codexOnPath('codex-cli 0.141.0'), 'init', '--host', 'codex');
      expect(first.stdout).not.toContain('Not wiring');
      expect(first.stdout).toContain('+ PreToolUse');
      expect(Object.keys(hooksJson().hooks)).toContain('PreToolUse');
    },
  );

  it('updates the hooks an earlier init wrote with another node, never doubling them', () => {
    cli('init', '--host', 'codex');
    const file = join(project, '.codex', 'hooks.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').split(JSON.stringify(process.execPath).slice(1, -1)).join('/old/node'),
    );
    const result = cli('init', '--host', 'codex');
    expect(result.stdout).toContain('~ SubagentStart');
    expect(hooksJson().hooks.SubagentStart).toHaveLength(1);
    expect(JSON.stringify(hooksJson())).not.toContain('/old/node');
  });

  it('--uninstall removes exactly its hooks and its rule file', () => {
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex', 'hooks.json'), MINE);
    cli('init', '--host', 'codex');
    const result = cli('init', '--host', 'codex', '--uninstall');
    expect(result.status).toBe(0);
    expect(hooksJson()).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } });
    expect(existsSync(rulesFile())).toBe(false);
  });
});

describe('init --host codex and a rules file it did not write (issue 30, item 7)', () => {
  const OWN = '# my own rules\nprefix_rule(pattern=["npm","test"], decision="allow")\n';

  it('backs the file up before replacing it, and --uninstall then removes only its own', () => {
    mkdirSync(join(project, '.codex', 'rules'), { recursive: true });
    writeFileSync(rulesFile(), OWN);
    const result = cli('init', '--host', 'codex');
    expect(result.status).toBe(0);
    const backups = readdirSync(join(project, '.codex', 'rules')).filter((name) => name.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(project, '.codex', 'rules', backups[0]!), 'utf8')).toBe(OWN);
    expect(result.stdout).toContain(`backup: ${join(project, '.codex', 'rules', backups[0]!)}`);
    expect(readFileSync(rulesFile(), 'utf8')).toContain('"record"');

    expect(cli('init', '--host', 'codex', '--uninstall').status).toBe(0);
    expect(existsSync(rulesFile())).toBe(false);
    expect(readFileSync(join(project, '.codex', 'rules', backups[0]!), 'utf8')).toBe(OWN);
  });

  it.each([
    ['a user’s own rules', OWN],
    ['ours with a rule added', null],
  ])('--uninstall leaves %s alone, and says so', (_label, text) => {
    if (text === null) {
      cli('init', '--host', 'codex');
      writeFileSync(rulesFile(), `${readFileSync(rulesFile(), 'utf8')}prefix_rule(pattern=["ls"], decision="allow")\n`);
    } else {
      mkdirSync(join(project, '.codex', 'rules'), { recursive: true });
      writeFileSync(rulesFile(), text);
    }
    const before = readFileSync(rulesFile(), 'utf8');
    const result = cli('init', '--host', 'codex', '--uninstall');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('not written by init');
    expect(readFileSync(rulesFile(), 'utf8')).toBe(before);
  });

  it('--dry-run neither backs up nor writes', () => {
    mkdirSync(join(project, '.codex', 'rules'), { recursive: true });
    writeFileSync(rulesFile(), OWN);
    expect(cli('init', '--host', 'codex', '--dry-run').status).toBe(0);
    expect(readdirSync(join(project, '.codex', 'rules'))).toEqual(['agent-session.rules']);
    expect(readFileSync(rulesFile(), 'utf8')).toBe(OWN);
  });
});

describe('the hook bins with --host codex, on payloads Codex sent', () => {
  it('parks a sub-agent, lists it for the main agent in Codex words, carries an interruption, leaves Claude Code alone', () => {
    const start = hook('pre-delegate', 'subagent-start');
    const context = start!.hookSpecificOutput.additionalContext as string;
    expect(start!.hookSpecificOutput.hookEventName).toBe('SubagentStart');
    const id = /recorded in session (agent-\S+) /.exec(context)![1]!;
    expect(context).toContain(`${process.execPath} ${join(DIST, 'agent-session.cjs')} record --dir`);
    expect(hook('pre-delegate', 'user-prompt-submit-subagent')).toBeNull();
    expect(cli('--dir', join(project, '.claude', 'session'), 'update', id, '--phase', 'approval').status).toBe(0);
    expect(hook('subagent-stop', 'subagent-stop')).toBeNull();
    expect(sessions()).toEqual([
      expect.objectContaining({ agent_id: id, host: 'codex', phase: 'approval', resumable_now: true }),
    ]);

    const overview = hook('pre-delegate', 'user-prompt-submit')!.hookSpecificOutput.additionalContext as string;
    expect(overview).toContain('A spawn_agent with the same agent_type resumes');
    expect(overview).toContain(`session ${id}, phase approval`);
    expect(overview).toContain('Codex agent');
    expect(overview).not.toContain('SendMessage');

    // A Claude Code hook (no --host) of the same agent name does not take the Codex session.
    const claude = spawnSync(process.execPath, [join(DIST, 'pre-delegate.cjs')], {
      input: JSON.stringify({
        hook_event_name: 'SubagentStart',
        cwd: project,
        agent_id: 'a1b2c3d4e5f6a7b8c',
        agent_type: 'terraform-architect',
      }),
      cwd: project,
      encoding: 'utf8',
      // A project folder apart from HOME (~/.claude is never a project's); `.codex/` makes it one outside git, as init does.
      env: { PATH: process.env.PATH ?? '', HOME: join(project, 'home') },
    });
    expect(JSON.parse(claude.stdout).hookSpecificOutput.additionalContext).not.toContain(id);

    // The next Codex delegation resumes it; its failed model request interrupts it (no SubagentStop follows).
    const resumed = hook('pre-delegate', 'subagent-start', { agent_id: '01a213e0-ffff-7000-8000-000000000001' });
    expect(resumed!.hookSpecificOutput.additionalContext).toContain(`resumes session ${id}`);
    expect(
      hook('subagent-stop', 'post-model-request-completed', { agent_id: '01a213e0-ffff-7000-8000-000000000001' }),
    ).toBeNull();
    expect(
      hook('subagent-stop', 'post-model-request-failed', { agent_id: '01a213e0-ffff-7000-8000-000000000001' }),
    ).toBeNull();
    const state = JSON.parse(readFileSync(join(project, '.claude', 'session', id, 'state.json'), 'utf8'));
    expect(state).toMatchObject({
      host: 'codex',
      phase: 'approval',
      interruption: { count: 1, error: 'invalid_request', waiting: true },
    });
    const story = cli('--dir', join(project, '.claude', 'session'), 'show', id).stdout;
    expect(story).toMatch(/^Host +codex$/m);
    expect(story).toMatch(/^Codex agent +01a213e0-ffff-7000-8000-000000000001 \(terraform-architect\), interrupted/m);
    expect(story).toContain('codex agent  01a213e0-ffff-7000-8000-000000000001 linked (resumed the session)');
    expect(story).not.toContain('Claude agent');
    const hosts = sessions()
      .map((s) => s.host)
      .sort();
    expect(hosts).toEqual(['claude-code', 'codex']);
    const log = readFileSync(join(project, '.claude', 'logs', 'subagent_stop.log'), 'utf8');
    expect(log).toContain('codex event="PostModelRequest" model_request_ok');
    expect(log).toContain('codex event="PostModelRequest" linked interruption="recorded" kind="invalid_request"');
  });

  it('offers a parked session for resume at the spawn_agent PreToolUse (matcher Agent), before its SubagentStart attaches it: one session', () => {
    // Nothing parked: the spawn is not answered.
    expect(hook('pre-delegate', 'pre-tool-use-agent-0.171.0')).toBeNull();
    const start = hook('pre-delegate', 'subagent-start');
    const id = /recorded in session (agent-\S+) /.exec(start!.hookSpecificOutput.additionalContext as string)![1]!;
    expect(cli('--dir', join(project, '.claude', 'session'), 'update', id, '--phase', 'approval').status).toBe(0);
    hook('subagent-stop', 'subagent-stop');

    const offer = hook('pre-delegate', 'pre-tool-use-agent-0.171.0');
    expect(offer!.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    const offered = offer!.hookSpecificOutput.additionalContext as string;
    expect(offered).toContain('sub-agent "terraform-architect" had a resumable session when this delegation was made');
    expect(offered).toContain(`- Session id: ${id}`);
    expect(offered).toContain('Previous Codex agent id');
    expect(sessions()).toHaveLength(1);
    const resumed = hook('pre-delegate', 'subagent-start', { agent_id: '01a2505a-bc34-7661-bf7a-89dd549309e3' });
    expect(resumed!.hookSpecificOutput.additionalContext).toContain(`resumes session ${id}`);
    expect(sessions()).toEqual([expect.objectContaining({ agent_id: id, host: 'codex' })]);
    // The spawn's message is the task the session is resumed for, said once (Codex gives no short description).
    expect(sessions()[0]!.task).toBe('Plan the network change.');
    const log = readFileSync(join(project, '.claude', 'logs', 'pre_delegate.log'), 'utf8');
    expect(log).toContain('codex event="PreToolUse" nothing_to_resume agent="terraform-architect"');
    expect(log).toContain(`codex event="PreToolUse" resume_offered agent="terraform-architect" session="${id}"`);
  });
});
