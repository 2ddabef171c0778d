// `agent-session init` on a temp project, through the built CLI.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkHookOutput } from '../../support/claude-hook-output';
import { DIST, fixture, hookEnv, eachProject, runHookBin } from './helpers';

const CLI = join(DIST, 'agent-session.cjs');
const each = eachProject();

/**
 * A folder holding a stand-in `claude` that answers `--version` as `answer` says (exit 1 when null): the Claude Code
 * init finds on the PATH, which decides the events it wires (an older one takes an unknown event for an invalid setting).
 */
function claudeOnPath(answer: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-claude-'));
  const script = answer === null ? 'exit 1' : `echo "${answer}"`;
  writeFileSync(join(dir, 'claude'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}
const NEWEST = claudeOnPath('2.1.337 (Claude Code)');

function init(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return initWith(NEWEST, ...args);
}

function initWith(claudeDir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = hookEnv(each.project);
  const result = spawnSync(process.execPath, [CLI, 'init', '--project', each.project.dir, ...args], {
    env: { ...env, PATH: `${claudeDir}:${env.PATH ?? ''}` },
    cwd: each.project.dir,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// settings.json read back as JSON; the cases walk into it loosely and compare with toEqual.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readSettings = (): Record<string, any> => JSON.parse(readFileSync(each.settingsFile, 'utf8'));
const backupDir = (): string => join(each.project.dir, '.claude', 'agent-session-backups');
const backups = (): string[] =>
  existsSync(backupDir()) ? readdirSync(backupDir()).filter((f) => f.startsWith('settings.local.json.bak-')) : [];

const USER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo bash-guard' }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: 'echo user-stop', timeout: 5 }] }],
  },
};

it('wires the nine hooks with absolute node commands and a timeout, keeping every existing setting', () => {
  writeFileSync(each.settingsFile, JSON.stringify(USER_SETTINGS, null, 2));
  chmodSync(each.settingsFile, 0o640);
  const run = init();
  expect(run.status).toBe(0);
  const settings = readSettings();
  expect(settings.model).toBe('opus');
  expect(settings.permissions).toEqual(USER_SETTINGS.permissions);
  expect(settings.hooks.PreToolUse[0]).toEqual(USER_SETTINGS.hooks.PreToolUse[0]);
  expect(settings.hooks.SubagentStop[0]).toEqual(USER_SETTINGS.hooks.SubagentStop[0]);
  const pre = join(DIST, 'pre-delegate.cjs');
  const stop = join(DIST, 'subagent-stop.cjs');
  const expected: [string, string | undefined, string][] = [
    ['PreToolUse', 'Task|Agent|SendMessage', pre],
    ['PermissionRequest', undefined, pre],
    ['SubagentStart', undefined, pre],
    ['SubagentStop', undefined, stop],
    // A sub-agent killed by an API error or a usage limit gets StopFailure, never SubagentStop (issue 22).
    ['StopFailure', undefined, stop],
    // The main turn's interrupt (2.1.335+): the foreground sub-agents it cut off get neither (issue 42).
    ['Interrupt', undefined, stop],
    ['PostToolUse', 'Task|Agent', stop],
    ['SessionStart', undefined, pre],
    ['UserPromptSubmit', undefined, pre],
    // The main agent's turn end: the person is told what waits (issue 44 item 2).
    ['Stop', undefined, stop],
  ];
  expect(Object.keys(settings.hooks).sort()).toEqual(expected.map(([event]) => event).sort());
  for (const [event, matcher, bin] of expected) {
    const group = settings.hooks[event].at(-1);
    expect(group.matcher).toBe(matcher);
    // The node running init, by absolute path: a GUI-started Claude Code may have no nvm or volta node on PATH.
    expect(group.hooks).toEqual([
      { type: 'command', command: `"${process.execPath}" "${bin}"`, timeout: expect.any(Number) },
    ]);
  }
  expect(backups()).toHaveLength(1);
  expect(JSON.parse(readFileSync(join(backupDir(), backups()[0]!), 'utf8'))).toEqual(USER_SETTINGS);
  expect(statSync(each.settingsFile).mode & 0o777).toBe(0o640);
  expect(run.stdout).toMatch(/^0 \* \* \* \* cd .* cleanup --hours 24$/m);
});

it.each([
  ['2.1.332 (Claude Code)', 'the claude on the PATH is 2.1.332'],
  [null, 'no claude on the PATH answered `claude --version`'],
])(
  'leaves out Interrupt for a Claude Code before 2.1.335 (%s), says so, and wires it once one knows it',
  (answer, why) => {
    const run = initWith(claudeOnPath(answer));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Not wiring Interrupt: it needs Claude Code 2.1.335 or later, and ${why}`);
    expect(Object.keys(readSettings().hooks)).not.toContain('Interrupt');
    expect(Object.keys(readSettings().hooks)).toContain('Stop');
    expect(init().stdout).not.toContain('Not wiring');
    expect(Object.keys(readSettings().hooks)).toContain('Interrupt');
  },
);

it('is idempotent: a second run changes nothing and makes no backup', () => {
  writeFileSync(each.settingsFile, JSON.stringify(USER_SETTINGS));
  init();
  const once = readFileSync(each.settingsFile, 'utf8');
  expect(init().status).toBe(0);
  expect(readFileSync(each.settingsFile, 'utf8')).toBe(once);
  expect(backups()).toHaveLength(1);
});

// An install from before SendMessage joined PreToolUse's matcher (issue 34) and before PermissionRequest lost its `Bash`
// one: running init again moves our hooks to today's wiring; Claude Code then starts each once per call, not twice.
it("moves an earlier version's hooks to today's matchers, each event starting ours once", () => {
  const pre = `"${process.execPath}" "${join(DIST, 'pre-delegate.cjs')}"`;
  const stop = `"${process.execPath}" "${join(DIST, 'subagent-stop.cjs')}"`;
  const ours = (command: string) => [{ type: 'command', command, timeout: 30 }];
  writeFileSync(
    each.settingsFile,
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Task|Agent', hooks: ours(pre) }, ...USER_SETTINGS.hooks.PreToolUse],
        PermissionRequest: [{ matcher: 'Bash', hooks: ours(pre) }],
        SubagentStop: [{ hooks: ours(stop) }],
      },
    }),
  );
  const run = init();
  expect(run.status).toBe(0);
  const hooks = readSettings().hooks;
  const groupsWith = (event: string, command: string) =>
    hooks[event].filter((g: { hooks: { command: string }[] }) => g.hooks.some((h) => h.command === command));
  expect(groupsWith('PreToolUse', pre).map((g: { matcher?: string }) => g.matcher)).toEqual(['Task|Agent|SendMessage']);
  expect(groupsWith('PermissionRequest', pre).map((g: { matcher?: string }) => g.matcher)).toEqual([undefined]);
  expect(groupsWith('SubagentStop', stop)).toHaveLength(1);
  expect(hooks.PreToolUse).toContainEqual(USER_SETTINGS.hooks.PreToolUse[0]);
  expect(init().stdout).not.toMatch(/^[+~] /m);
});

it('creates the file when there is none, and --uninstall removes exactly what it added, and the file left empty', () => {
  expect(init().status).toBe(0);
  const events = [
    'Interrupt',
    'PermissionRequest',
    'PostToolUse',
    'PreToolUse',
    'SessionStart',
    'Stop',
    'StopFailure',
    'SubagentStart',
    'SubagentStop',
    'UserPromptSubmit',
  ];
  expect(Object.keys(readSettings().hooks).sort()).toEqual(events);
  expect(init('--uninstall').status).toBe(0);
  // The file it created, left empty, is gone (the project's .claude/ held it only: gone too).
  expect(existsSync(each.settingsFile)).toBe(false);
  expect(existsSync(join(each.project.dir, '.claude'))).toBe(false);
  mkdirSync(join(each.project.dir, '.claude'));

  writeFileSync(each.settingsFile, JSON.stringify(USER_SETTINGS));
  init();
  expect(init('--uninstall').status).toBe(0);
  expect(readSettings()).toEqual(USER_SETTINGS);
});

it('--dry-run prints the changes and writes nothing', () => {
  writeFileSync(each.settingsFile, JSON.stringify(USER_SETTINGS));
  const run = init('--dry-run');
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('SubagentStart');
  expect(readSettings()).toEqual(USER_SETTINGS);
  expect(backups()).toHaveLength(0);
});

it.each([
  ['not JSON', '{"hooks": {'],
  ['an array', '[]'],
  ['hooks of the wrong shape', '{"hooks": {"PreToolUse": {"matcher": "x"}}}'],
])('refuses a settings file that is %s, leaving it untouched (exit 4)', (_label, content) => {
  writeFileSync(each.settingsFile, content);
  const run = init();
  expect(run.status).toBe(4);
  expect(run.stderr).not.toBe('');
  expect(readFileSync(each.settingsFile, 'utf8')).toBe(content);
  expect(backups()).toHaveLength(0);
});

it('refuses a project folder that does not exist (exit 2: a bad argument, not a missing session)', () => {
  const result = spawnSync(process.execPath, [CLI, 'init', '--project', join(each.project.dir, 'missing')], {
    env: hookEnv(each.project),
    encoding: 'utf8',
  });
  expect(result.status).toBe(2);
  expect(existsSync(join(each.project.dir, 'missing'))).toBe(false);
});

it('wires commands that Claude Code can run as written: the SubagentStart hook answers through a shell', async () => {
  init();
  const command: string = readSettings().hooks.SubagentStart.at(-1).hooks[0].command;
  const result = spawnSync('/bin/sh', ['-c', command], {
    input: JSON.stringify(fixture('subagent-start.json', each.project)),
    env: hookEnv(each.project),
    encoding: 'utf8',
  });
  expect(result.status).toBe(0);
  expect(JSON.parse(result.stdout).hookSpecificOutput.hookEventName).toBe('SubagentStart');
  expect(await each.project.sessions().list()).toHaveLength(1);
  // And the seed protocol still answers in the same bin.
  const seed = runHookBin('pre-delegate', { agent_name: 'Explore' }, hookEnv(each.project));
  expect(seed.answer).toMatchObject({ should_resume: false, reason: 'phase_not_resumable' });
});

it.each(['SessionStart', 'UserPromptSubmit'])(
  'the %s hook as wired lists parked sessions through a shell, nothing if none',
  async (event) => {
    // A user's own handler of the same event stays, and --uninstall leaves it.
    const userHook = { hooks: [{ type: 'command', command: 'echo user-hook' }] };
    writeFileSync(each.settingsFile, JSON.stringify({ hooks: { [event]: [userHook] } }));
    init();
    const group = readSettings().hooks[event].at(-1);
    expect(group.matcher).toBeUndefined();
    const command: string = group.hooks[0].command;
    const name = event === 'SessionStart' ? 'session-start-2.1.330.json' : 'user-prompt-submit-2.1.330.json';
    const input = JSON.stringify(fixture(name, each.project));
    const run = () => spawnSync('/bin/sh', ['-c', command], { input, env: hookEnv(each.project), encoding: 'utf8' });
    const empty = run();
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe('');
    const sessions = each.project.sessions();
    const parked = await sessions.create({
      agent_name: 'terraform-architect',
      purpose: 'p',
      metadata: { task_id: 'T7' },
    });
    await sessions.update(parked.agent_id, { phase: 'approval' });
    const answered = run();
    expect(answered.status).toBe(0);
    const answer = checkHookOutput(event, answered.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(answer.hookSpecificOutput.hookEventName).toBe(event);
    expect(answer.hookSpecificOutput.additionalContext).toContain(parked.agent_id);
    expect(init('--uninstall').status).toBe(0);
    expect(readSettings()).toEqual({ hooks: { [event]: [userHook] } });
  },
);

// Issue 44 item 2: init offers Claude Code's status line (`agent-session statusline`), never writes or takes it over.
describe('the status line', () => {
  const initWithHome = (home: string) =>
    spawnSync(process.execPath, [CLI, 'init', '--project', each.project.dir], {
      env: hookEnv(each.project, { HOME: home }),
      cwd: each.project.dir,
      encoding: 'utf8',
    });

  it('is offered as a setting to paste, which runs as written, and nothing of it is written', () => {
    const home = join(each.project.dir, 'home');
    mkdirSync(home);
    const run = initWithHome(home);
    expect(run.status).toBe(0);
    const offer = /^Status line \(optional: .*\), in ~\/\.claude\/settings\.json: (\{.*\})$/m.exec(run.stdout);
    expect(offer).not.toBeNull();
    const setting = JSON.parse(offer![1]!) as { statusLine: { type: string; command: string } };
    expect(setting.statusLine).toEqual({
      type: 'command',
      command: `"${process.execPath}" "${join(DIST, 'agent-session.cjs')}" statusline`,
    });
    expect(readSettings().statusLine).toBeUndefined();
    expect(existsSync(join(home, '.claude'))).toBe(false);
    // As Claude Code runs it (sh, in the project): nothing parked, nothing printed.
    const line = spawnSync('/bin/sh', ['-c', setting.statusLine.command], {
      cwd: each.project.dir,
      env: hookEnv(each.project, { HOME: home }),
      encoding: 'utf8',
    });
    expect({ status: line.status, stdout: line.stdout, stderr: line.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });

  it("keeps a status line of the user's own, saying where it is", () => {
    const home = join(each.project.dir, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const mine = JSON.stringify({ statusLine: { type: 'command', command: 'my-status' } });
    writeFileSync(join(home, '.claude', 'settings.json'), mine);
    const run = initWithHome(home);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Status line: yours in ${join(home, '.claude', 'settings.json')} is kept`);
    expect(run.stdout).not.toContain('Status line (optional');
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe(mine);
  });
});
