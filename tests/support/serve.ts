// Starts `agent-session serve` as a user's own shell would, for the page's tests: the agents' variables removed and
// detached from the test runner's process tree (an intermediate shell starts it in the background and exits, so it
// is re-parented), because serve refuses to start inside an AI agent's shell and the runner may run in one. Also a
// raw HTTP client that sets any Host, Origin or Cookie header (fetch would not let a test forge Host).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { AGENT_SHELL_VARIABLES } from '../../src/core/origin';
import { BIN, binEnv } from '../helpers';
import { alive } from './processes';

/** A running server: its URL (the token in its fragment), port, pid, and its stdout/stderr files. */
export interface Served {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly pid: number;
  readonly stderr: () => string;
  /** Sends SIGTERM and waits until the process is gone. */
  stop(): Promise<void>;
}

/** The environment of a user's shell for the bins: no agent variable, a clean store selection plus `extra`. */
export function userEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return binEnv({ ...Object.fromEntries(AGENT_SHELL_VARIABLES.map((name) => [name, undefined])), ...extra });
}

/**
 * Starts `serve args…` detached in `dir` (its output in dir/serve.out, dir/serve.err) and waits for its URL;
 * `nodeArgs` go to node before the bin (a stress test's `--require` preload).
 */
export async function startServe(
  dir: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: readonly string[] = [],
): Promise<Served> {
  const out = join(dir, 'serve.out');
  const err = join(dir, 'serve.err');
  const started = spawnSync(
    'sh',
    ['-c', 'node "$@" >"$OUT" 2>"$ERR" </dev/null & echo $!', 'sh', ...nodeArgs, BIN.cli, 'serve', ...args],
    { cwd: dir, env: { ...env, OUT: out, ERR: err }, encoding: 'utf8' },
  );
  const pid = Number(started.stdout.trim());
  if (!(pid > 0)) throw new Error(`serve did not start: ${started.stderr}`);
  const stderr = () => (existsSync(err) ? readFileSync(err, 'utf8') : '');
  const deadline = Date.now() + 30_000;
  let first = '';
  while (Date.now() < deadline) {
    const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
    if (text.includes('\n')) {
      first = text.split('\n')[0]!;
      break;
    }
    if (!alive(pid)) throw new Error(`serve exited: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = new URL(first);
  return {
    url: first,
    port: Number(url.port),
    // In the fragment (as printed since issue 40); the query of earlier versions is read too, so a test of the page
    // can be run against the code before a change and fail for what it checks.
    token: new URLSearchParams(url.hash.slice(1)).get('token') ?? url.searchParams.get('token') ?? '',
    pid,
    stderr,
    async stop() {
      if (!alive(pid)) return;
      process.kill(pid, 'SIGTERM');
      const until = Date.now() + 20_000;
      while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}

/** A raw HTTP answer. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request to 127.0.0.1:port with exactly these headers (Host included). */
export function raw(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
