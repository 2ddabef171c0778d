// Issue 20, item 2: the bins run from a working folder that was removed (a deleted worktree or temp project).
// process.cwd() threw before any guard: exit 1 and a stack trace, even with the store given as an absolute path.
// Each run here is `sh -c 'cd $D && rmdir $D && exec node <bin> …'`: Node starts in a folder that no longer exists.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';

const base = tempDir();
const STACK_LINE = /^\s+at .+[:(]/m;

/** The environment of a run: no store of the developer's, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: '' };
  for (const name of [
    'AGENT_SESSION_DIR',
    'CLAUDE_PROJECT_DIR',
    'AGENT_SESSION_CONFIG',
    'AGENT_SESSION_LOG_DIR',
    'AGENT_SESSION_DATABASE_URL',
  ])
    delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs `node <bin> args…` from a folder removed just before Node starts; `input` may use that folder's path (a Claude
 * Code payload names its `cwd`).
 */
function fromRemoved(
  bin: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: (gone: string) => string } = {},
): SpawnSyncReturns<string> {
  const gone = mkdtempSync(join(base, 'gone-'));
  const result = spawnSync(
    'sh',
    ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, process.execPath, bin, ...args],
    { cwd: base, env: envWith(options.env), input: options.input?.(gone) ?? '', encoding: 'utf8', timeout: 20_000 },
  );
  expect(existsSync(gone)).toBe(false);
  return result;
}

/**
 * The project of the runs on a store given by path: configured, as a removed folder has no remote or path to be named
 * by (a run without one belongs to the store folder's own project, which no other folder's run shares).
 */
const NAMED = { AGENT_SESSION_PROJECT: 'acme/removed-cwd' };

/** A store holding session `keep` of agent `Explore`, parked in planning (resumable); returns its folder. */
function parkedStore(root: string): string {
  const cwd = mkdtempSync(join(base, 'setup-'));
  for (const args of [
    ['create', '--agent', 'Explore', '--purpose', 'p', '--id', 'keep'],
    ['update', 'keep', '--phase', 'planning'],
  ])
    expect(run(BIN.cli, [...args, '--dir', root], { cwd, env: NAMED }).status).toBe(0);
  return root;
}

/** The hook contract for the seed protocol: exit 0, one JSON line, nothing on stderr, no stack. */
function seedAnswer(result: SpawnSyncReturns<string>): Record<string, unknown> {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** One line on stderr, no stack trace, the given exit code. */
function oneLine(result: SpawnSyncReturns<string>, status: number): void {
  expect({ status: result.status, signal: result.signal }).toEqual({ status, signal: null });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
}

it('the harness really starts Node in a removed folder: process.cwd() throws there', () => {
  const probe = fromRemoved('-e', ['process.cwd()']);
  expect(probe.status).toBe(1);
  expect(probe.stderr).toMatch(/uv_cwd/);
});

describe('hooks from a removed working folder', () => {
  it('pre-delegate (seed) with an absolute AGENT_SESSION_DIR answers from that store and records the resume', () => {
    const store = parkedStore(join(base, 'seed-store'));
    const answer = seedAnswer(
      fromRemoved(BIN.preDelegate, [], {
        env: { AGENT_SESSION_DIR: store, ...NAMED },
        input: () => JSON.stringify({ agent_name: 'Explore' }),
      }),
    );
    expect(answer).toMatchObject({ should_resume: true, reason: 'session_resumable', agent_id: 'keep' });
    const state = JSON.parse(run(BIN.cli, ['get', 'keep', '--dir', store], { cwd: base }).stdout) as {
      history: { event?: string }[];
    };
    expect(state.history.filter((entry) => entry.event === 'resume')).toHaveLength(1);
  });

  it('subagent-stop (seed) with an absolute AGENT_SESSION_DIR finalizes the session there', () => {
    const store = parkedStore(join(base, 'stop-store'));
    const answer = seedAnswer(
      fromRemoved(BIN.subagentStop, [], {
        env: { AGENT_SESSION_DIR: store, ...NAMED },
        input: () => JSON.stringify({ task_info: { agent_id: 'keep' }, exit_code: 0 }),
      }),
    );
    expect(answer).toMatchObject({ finalized: true, agent_id: 'keep', outcome: 'completed' });
    expect(JSON.parse(run(BIN.cli, ['get', 'keep', '--dir', store], { cwd: base }).stdout)).toMatchObject({
      phase: 'completed',
    });
  });

  it.each([
    ['pre-delegate', BIN.preDelegate],
    ['subagent-stop', BIN.subagentStop],
  ])(
    'Claude Code SessionStart (%s) with CLAUDE_PROJECT_DIR, its payload cwd the removed folder: lists the project\u2019s parked session',
    (_name, bin) => {
      const project = join(base, `project-${readdirSync(base).length}`);
      mkdirSync(join(project, '.claude'), { recursive: true });
      parkedStore(join(project, '.claude', 'session'));
      const result = fromRemoved(bin, [], {
        env: { CLAUDE_PROJECT_DIR: project, ...NAMED },
        input: (gone) =>
          JSON.stringify({ session_id: 's', cwd: gone, hook_event_name: 'SessionStart', source: 'startup' }),
      });
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      const answer = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } };
      expect(answer.hookSpecificOutput.additionalContext).toMatch(/session keep, phase planning/);
    },
  );

  it.each([
    ['no folder given', {}],
    ['a relative AGENT_SESSION_DIR', { AGENT_SESSION_DIR: 'store' }],
    ['a relative CLAUDE_PROJECT_DIR', { CLAUDE_PROJECT_DIR: 'project' }],
  ])('%s: pre-delegate fails open (exit 0, reason error), Claude Code gets nothing', (_name, env) => {
    const seed = seedAnswer(
      fromRemoved(BIN.preDelegate, [], { env, input: () => JSON.stringify({ agent_name: 'Explore' }) }),
    );
    expect(seed).toEqual({ should_resume: false, reason: 'error' });
    const claude = fromRemoved(BIN.subagentStop, [], {
      env,
      input: (gone) =>
        JSON.stringify({ session_id: 's', cwd: gone, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    expect({ status: claude.status, stdout: claude.stdout, stderr: claude.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe('the CLI from a removed working folder', () => {
  it('works on a store given as an absolute path (--dir, AGENT_SESSION_DIR): reads and writes', () => {
    const store = parkedStore(join(base, 'cli-store'));
    const listed = fromRemoved(BIN.cli, ['list', '--json', '--dir', store], { env: NAMED });
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { agent_id: string }[]).map((entry) => entry.agent_id)).toEqual(['keep']);
    const updated = fromRemoved(BIN.cli, ['update', 'keep', '--phase', 'approval'], {
      env: { AGENT_SESSION_DIR: store, ...NAMED },
    });
    expect(updated.status).toBe(0);
    expect(JSON.parse(run(BIN.cli, ['get', 'keep', '--dir', store], { cwd: base }).stdout)).toMatchObject({
      phase: 'approval',
    });
    expect(fromRemoved(BIN.cli, ['--help']).status).toBe(0);
  });

  it.each([
    ['no folder given', ['list'], {}],
    ['a relative --dir', ['list', '--dir', 'store'], {}],
    ['a relative AGENT_SESSION_DIR', ['list'], { AGENT_SESSION_DIR: 'store' }],
    [
      'a relative AGENT_SESSION_CONFIG beside an absolute --dir',
      ['list', '--dir', base],
      { AGENT_SESSION_CONFIG: 'c.json' },
    ],
    ['init without --project', ['init'], {}],
  ])('%s: one line, exit 5, nothing written', (_name, args, env) => {
    const before = readdirSync(base).sort();
    const result = fromRemoved(BIN.cli, args, { env });
    oneLine(result, 5);
    // The removed folder is gone again, and nothing else appeared.
    expect(readdirSync(base).sort()).toEqual(before);
  });
});
