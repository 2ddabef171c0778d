// A reader that stops early (`agent-session list --json | head -c 100`) must not get a stack trace from the CLI.
import { spawn } from 'node:child_process';
import { BIN, tempDir } from '../helpers';

const cwd = tempDir();
const store = tempDir();

/** Runs the CLI with a stdout pipe that is closed at once, and collects stderr. */
function withClosedStdout(args: readonly string[]): Promise<{ stderr: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN.cli, ...args], {
      cwd,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: undefined, AGENT_SESSION_DIR: store },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ stderr, status }));
  });
}

describe('stdout closed by the reader', () => {
  it.each([['machine', '--json'], ['--help'], ['completion', 'bash'], ['list', '--json']])(
    '%s: no stack trace, no error event',
    async (...args) => {
      const { stderr, status } = await withClosedStdout(args);
      expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\(node:/);
      expect(status).toBe(0);
    },
  );
});
