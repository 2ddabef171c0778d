import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { BIN, run } from '../helpers';
import { runOutsideAgent } from '../support/outside-agent';

// Issue 20 (6): a sub-agent is handed the exact CLI and store path, so its Bash could record `approve <own id> --by
// alice` and the next agent was told "approved by alice". A decision now records where it came from (the OS user,
// a terminal or not, a claimed `--by`), and one from a detected agent shell is refused (E_AGENT_SHELL, exit 6).
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-origin-'));
  mkdirSync(join(dir, '.claude'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const EXIT_AGENT_SHELL = 6;
const osUser = userInfo().username;
const env = (extra: Record<string, string | undefined> = {}) => ({
  CLAUDE_PROJECT_DIR: dir,
  AGENT_SESSION_CONFIG: undefined,
  CLAUDECODE: undefined,
  CODEX_THREAD_ID: undefined,
  CODEX_SANDBOX: undefined,
  CODEX_SANDBOX_NETWORK_DISABLED: undefined,
  ...extra,
});
const cli = (args: readonly string[], extra: Record<string, string | undefined> = {}) =>
  run(BIN.cli, args, { cwd: dir, env: env(extra) });
const asUser = (
  args: readonly string[],
  options: { terminal?: boolean; env?: Record<string, string | undefined>; prefix?: string[] } = {},
) =>
  runOutsideAgent(BIN.cli, args, {
    cwd: dir,
    env: env(options.env),
    terminal: options.terminal ?? false,
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
  });
const stateFile = (id: string) => join(dir, '.claude', 'session', id, 'state.json');

function waiting(): string {
  const id = cli(['create', '--agent', 'planner', '--purpose', 'p']).stdout.trim();
  expect(cli(['update', id, '--phase', 'approval']).status).toBe(0);
  return id;
}

describe('a decision from inside an agent shell', () => {
  it.each([
    ['CLAUDECODE=1 (Claude Code’s Bash)', { CLAUDECODE: '1' }],
    ['CODEX_THREAD_ID (a Codex shell)', { CODEX_THREAD_ID: '0199a213-81c0-7800-8aa1-bbab2a035a53' }],
  ])('%s: approve and reject are refused, exit 6, one line, nothing written', (_label, marker) => {
    const id = waiting();
    const before = readFileSync(stateFile(id), 'utf8');
    for (const args of [
      ['approve', id, '--by', 'alice'],
      ['reject', id, '--by', 'alice', '--reason', 'no'],
    ]) {
      const result = cli(args, marker);
      expect(result.status).toBe(EXIT_AGENT_SHELL);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
    expect(readFileSync(stateFile(id), 'utf8')).toBe(before);
  });

  it('with the variable removed (`env -u CLAUDECODE`), a `claude` ancestor process still gives it away', () => {
    const id = waiting();
    // A shell named `claude` runs the command, as Claude Code's binary runs its Bash tool's shell.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync('/bin/sh', join(bin, 'claude'));
    const environment = { ...process.env, ...env(), NODE_EXTRA_CA_CERTS: '' } as Record<string, string | undefined>;
    for (const key of Object.keys(environment)) if (environment[key] === undefined) delete environment[key];
    // `; exit $?` keeps the shell alive as the parent (a lone command would be exec'd in its place).
    const result = spawnSync(
      join(bin, 'claude'),
      ['-c', '"$@"; exit $?', 'claude', process.execPath, BIN.cli, 'approve', id, '--by', 'alice'],
      { cwd: dir, env: environment as NodeJS.ProcessEnv, encoding: 'utf8' },
    );
    expect(result.status).toBe(EXIT_AGENT_SHELL);
    expect(result.stderr).toMatch(/claude/);
    expect(JSON.parse(readFileSync(stateFile(id), 'utf8')).phase).toBe('approval');
  });
});

describe('a decision from outside', () => {
  it('records the OS user, not $USER, and that it came without a terminal', () => {
    const id = waiting();
    const result = asUser(['approve', id], { env: { USER: 'mallory', LOGNAME: 'mallory' } });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      `Approved session ${id} by ${osUser} (OS user, recorded without a terminal): phase executing\n`,
    );
    const state = JSON.parse(readFileSync(stateFile(id), 'utf8'));
    // 13: the decision is sealed with this user's key (issue 40 item 3).
    expect(state.schema_version).toBe(13);
    expect(state.decisions[0]).toMatchObject({
      by: osUser,
      origin: { os_user: osUser, terminal: false, claimed: false },
    });
  });

  it('at a terminal, `--by` is recorded as a claimed name beside the OS user; show and the hooks say so', () => {
    const id = waiting();
    const result = asUser(['approve', id, '--by', 'alice', '--note', 'go'], { terminal: true });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `Approved session ${id} by alice (claimed; OS user ${osUser}, at a terminal): phase executing`,
    );
    const state = JSON.parse(readFileSync(stateFile(id), 'utf8'));
    expect(state.decisions[0]).toMatchObject({
      by: 'alice',
      origin: { os_user: osUser, terminal: true, claimed: true },
    });
    expect(cli(['show', id]).stdout).toContain(`alice (claimed; OS user ${osUser}, at a terminal)`);
    // The seed protocol hands the record itself to the next delegation.
    const answer = JSON.parse(
      run(BIN.preDelegate, [], { cwd: dir, env: env(), input: JSON.stringify({ agent_name: 'planner' }) }).stdout,
    );
    expect(answer.resume_metadata.decision.origin).toEqual({ os_user: osUser, terminal: true, claimed: true });
  });

  it('reject records its origin too, without USER or LOGNAME in the environment', () => {
    const id = waiting();
    const result = asUser(['reject', id, '--reason', 'split it'], { env: { USER: undefined, LOGNAME: undefined } });
    expect(result.status).toBe(0);
    const decision = JSON.parse(readFileSync(stateFile(id), 'utf8')).decisions[0];
    expect(decision).toMatchObject({ decision: 'rejected', by: osUser, origin: { claimed: false } });
  });
});

// A uid without a password database entry (a container's): the decision is `uid N`'s. Only root can switch to such a
// uid (setpriv, util-linux); elsewhere this test is skipped and says why.
const UID = 54321;
const canSwitchUser = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
(canSwitchUser ? it : it.skip)(
  `a uid without a passwd entry decides as \`uid ${UID}\` (needs root and setpriv to switch uid)`,
  () => {
    const id = waiting();
    const own = (path: string): void => {
      chownSync(path, UID, UID);
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isDirectory()) own(join(path, entry.name));
        else chownSync(join(path, entry.name), UID, UID);
      }
    };
    own(join(dir, '.claude'));
    chmodSync(dir, 0o755);
    // That user's own data and config folders (its decision key, its settings), not the test runner's.
    const data = join(dir, 'data-of-uid');
    const config = join(dir, 'config-of-uid');
    for (const folder of [data, config]) {
      mkdirSync(folder);
      chownSync(folder, UID, UID);
    }
    const result = asUser(['approve', id], {
      env: { XDG_DATA_HOME: data, XDG_CONFIG_HOME: config },
      prefix: ['setpriv', `--reuid=${UID}`, `--regid=${UID}`, '--clear-groups'],
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(stateFile(id), 'utf8')).decisions[0]).toMatchObject({
      by: `uid ${UID}`,
      origin: { os_user: `uid ${UID}`, claimed: false },
    });
  },
);

// Issue 40 (6): opencode sets OPENCODE=1, OPENCODE_PID and AGENT=1 for its agents' commands, and runs them under its
// `opencode` binary; each alone marks its shell, so the verbs that decide (or bring a decision in) exit 6 there too.
describe('an opencode agent’s shell', () => {
  /** This test's own HOME and XDG folders (serve records its page under the user's data folder). */
  const home = () => ({
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    XDG_DATA_HOME: join(dir, 'home', '.local', 'share'),
  });
  /** A session with a decision in it, exported to a file, for `import`. */
  function exportedDecision(): string {
    const id = waiting();
    expect(asUser(['approve', id]).status).toBe(0);
    const file = join(dir, 'decided.json');
    writeFileSync(file, cli(['export', id]).stdout);
    return file;
  }

  /** Runs the CLI under a shell named `opencode` (as opencode's bash tool), its variables removed. */
  function underOpencode(args: readonly string[]) {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'opencode'))) symlinkSync('/bin/sh', join(bin, 'opencode'));
    const environment = { ...process.env, ...env(home()), NODE_EXTRA_CA_CERTS: '' } as Record<
      string,
      string | undefined
    >;
    for (const name of ['OPENCODE', 'OPENCODE_PID', 'AGENT']) delete environment[name];
    for (const key of Object.keys(environment)) if (environment[key] === undefined) delete environment[key];
    // `; exit $?` keeps the shell alive as the parent (a lone command would be exec'd in its place).
    return spawnSync(
      join(bin, 'opencode'),
      ['-c', '"$@" </dev/null; exit $?', 'opencode', process.execPath, BIN.cli, ...args],
      {
        cwd: dir,
        env: environment as NodeJS.ProcessEnv,
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
  }

  const markers: [string, (args: readonly string[]) => { status: number | null; stdout: string; stderr: string }][] = [
    ['OPENCODE=1', (args) => cli(args, { ...home(), OPENCODE: '1' })],
    ['OPENCODE_PID', (args) => cli(args, { ...home(), OPENCODE_PID: '4242' })],
    ['AGENT=1', (args) => cli(args, { ...home(), AGENT: '1' })],
    ['an `opencode` ancestor process', underOpencode],
  ];

  it.each(markers)('%s: approve, reject, serve and import exit 6, one line, nothing written', (_label, inShell) => {
    const file = exportedDecision();
    const id = waiting();
    const before = readFileSync(stateFile(id), 'utf8');
    const sessionsBefore = readdirSync(join(dir, '.claude', 'session')).sort();
    for (const args of [
      ['approve', id],
      ['reject', id, '--reason', 'no'],
      ['serve', '--port', '0'],
      ['import', file, '--new-id'],
    ]) {
      const result = inShell(args);
      expect({ args, status: result.status }).toEqual({ args, status: EXIT_AGENT_SHELL });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/OPENCODE|AGENT|opencode/);
      expect(result.stdout).toBe('');
    }
    expect(readFileSync(stateFile(id), 'utf8')).toBe(before);
    expect(readdirSync(join(dir, '.claude', 'session')).sort()).toEqual(sessionsBefore);
  });
});
