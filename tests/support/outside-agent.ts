// Runs a built bin the way a user's own shell would, whatever runs the tests. `approve` and `reject` refuse a command
// from inside an AI agent's shell, found by its variables or by an agent program among its ancestors (core/origin.ts),
// and the test runner itself may run in one (an engineer's Claude Code session). So the bin is run with the agents'
// variables removed and detached from the runner's process tree: an intermediate shell starts it and exits first, and
// it is re-parented to init. The same detachment is open to any program, which is why docs/cli.md "What an approval
// proves" calls the check a guard against an agent's own commands, not a boundary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_SHELL_VARIABLES } from '../../src/core/origin';
import { binEnv } from '../helpers';

export interface OutsideRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

// A waits for B (so B is reaped), B starts C in the background and exits, C waits until B is gone, then runs the
// command; its exit code comes back to A through a FIFO.
const DETACH = [
  'set -eu',
  'd=$1; shift',
  'mkfifo "$d/done"',
  `D="$d" sh -c '( while kill -0 $$ 2>/dev/null; do sleep 0.01; done; "$@" <"$D/in" >"$D/out" 2>"$D/err"; echo $? >"$D/done" ) & exit 0' sh "$@"`,
  'read rc <"$d/done"',
  'echo "$rc" >"$d/rc"',
].join('\n');

/**
 * Runs `node <bin> args…` outside any agent's shell: no agent variables, no agent ancestor. With `terminal`, its stdin
 * and stdout are a pseudo-terminal (util-linux `script`), as at a user's terminal; its output then has CRLF endings,
 * given back as LF.
 */
export function runOutsideAgent(
  bin: string,
  args: readonly string[],
  options: {
    cwd: string;
    env?: Record<string, string | undefined>;
    input?: string;
    terminal?: boolean;
    /** Words run before `node` (another user: `setpriv --reuid=…`). */
    prefix?: readonly string[];
  },
): OutsideRun {
  const env = binEnv(options.env);
  // After `options.env`: no caller can put an agent's variable back.
  for (const name of AGENT_SHELL_VARIABLES) delete env[name];
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-outside-'));
  try {
    writeFileSync(join(dir, 'in'), options.input ?? '');
    const command = [...(options.prefix ?? []), process.execPath, bin, ...args];
    const argv = options.terminal ? ['script', '-qefc', command.map(shellWord).join(' '), '/dev/null'] : command;
    const done = spawnSync('sh', ['-c', DETACH, 'sh', dir, ...argv], {
      cwd: options.cwd,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (done.status !== 0) throw new Error(`the detaching shell failed (${done.status}): ${done.stderr}`);
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    const text = (name: string) => (options.terminal ? read(name).replace(/\r\n/g, '\n') : read(name));
    return { status: Number(read('rc').trim()), stdout: text('out'), stderr: text('err') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
