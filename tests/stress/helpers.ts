// Shared helpers of the stress suite: temp stores, the built bins, a bundled worker, a seeded PRNG.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

export const REPO = resolve(__dirname, '..', '..');
export const BIN = {
  cli: join(REPO, 'dist', 'agent-session.cjs'),
  preDelegate: join(REPO, 'dist', 'pre-delegate.cjs'),
  subagentStop: join(REPO, 'dist', 'subagent-stop.cjs'),
} as const;

/** A fresh temp folder; remove it with `removeTemp`. */
export function makeTemp(): string {
  return mkdtempSync(join(tmpdir(), 'agent-session-'));
}

/** Removes a temp folder made by `makeTemp`. */
export function removeTemp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The environment of a child: its store and logs inside `dir`, no CA bundle (it slows every start). */
export function childEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: join(dir, 'store'),
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
    CLAUDE_PROJECT_DIR: dir,
    AGENT_SESSION_DEBUG: '',
    // The file store unless a test names a database (a developer's own AGENT_SESSION_DATABASE_URL is not used).
    AGENT_SESSION_DATABASE_URL: '',
    ...extra,
  };
}

/** Runs a built bin synchronously. */
export function runBin(
  bin: string,
  args: readonly string[],
  options: { dir: string; input?: string | Buffer; env?: Record<string, string>; timeoutMs?: number },
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: options.dir,
    env: childEnv(options.dir, options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The result of an asynchronous child. */
export interface ChildResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <script> ...args` without blocking, so several children run at once. */
export function runNode(
  script: string,
  args: readonly string[],
  dir: string,
  env: Record<string, string> = {},
): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: dir,
      env: childEnv(dir, env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

/**
 * Starts `node <args>` in `dir` and kills it with SIGKILL `delayMs` after it starts or, with `afterFirstWrite`, after
 * its first progress line (so half the kills land inside the write loop however slow the machine starts node).
 * Says how many progress lines it printed. `env` is added to the child's environment (childEnv); `input` is its stdin.
 */
export function killAfter(
  args: readonly string[],
  delayMs: number,
  options: { dir: string; afterFirstWrite?: boolean; env?: Record<string, string>; input?: string },
): Promise<{ lines: number; signal: NodeJS.Signals | null }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.dir,
      env: childEnv(options.dir, options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // A hook reads its payload first; an early kill may close the pipe before it is all written (EPIPE: ignored).
    child.stdin?.on('error', () => undefined).end(options.input);
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      arm();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    if (options.afterFirstWrite !== true) arm();
    child.on('error', fail);
    child.on('close', (_status, signal) => {
      clearTimeout(timer);
      // A worker that stopped on its own hit an error: that is a failure, not a crash. A process given its input
      // (a hook) may end before the kill: its output is then a whole answer, reported as such (signal null).
      if (signal !== 'SIGKILL' && options.input === undefined)
        fail(new Error(`worker ended without being killed: ${err}`));
      else done({ lines: out.split('\n').filter(Boolean).length, signal });
    });
  });
}

/** A temp folder with the bundled worker in it for the current test file (made before it, removed after). */
export function workerFolder(): { readonly dir: string; readonly worker: string } {
  const made = { dir: '', worker: '' };
  beforeAll(() => {
    made.dir = makeTemp();
    made.worker = bundleWorker(made.dir);
  });
  afterAll(() => removeTemp(made.dir));
  return made;
}

/**
 * Bundles tests/stress/fixtures/worker.ts (which drives the real store code in a loop) into one CommonJS
 * file in `outDir`: one process then makes many updates without paying a node start for each.
 */
export function bundleWorker(outDir: string): string {
  const outfile = join(outDir, 'worker.cjs');
  buildSync({
    entryPoints: [join(__dirname, 'fixtures', 'worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  return outfile;
}

/** Every file under `dir` with its bytes (links as `link:`), to prove nothing changed. */
export function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string, rel: string): void => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (stats.isSymbolicLink()) files.set(rel, 'link');
    else if (stats.isDirectory()) {
      files.set(rel, 'dir');
      for (const name of readdirSync(path)) walk(join(path, name), rel === '' ? name : `${rel}/${name}`);
    } else if (stats.isFile()) files.set(rel, readFileSync(path).toString('base64'));
    else files.set(rel, 'other');
  };
  walk(dir, '');
  return files;
}

/** A small seeded PRNG (mulberry32): the crash test's random moments are reproducible from the printed seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of a run: `STRESS_SEED` when set (to replay a failure), else the time. */
export function seedOf(label: string): number {
  const seed = process.env.STRESS_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.STRESS_SEED);
  // Printed so a failing run can be replayed with STRESS_SEED.
  process.stdout.write(`[stress] ${label}: seed ${seed}\n`);
  return seed;
}

/** A one-line stack trace marker: "    at fn (file:1:2)". */
export const STACK_LINE = /^\s+at .+[:(]/m;

/** The entries of a store folder but the per-agent pointer index (`.agents`), which any write may create. */
export function sessionFolders(store: string): string[] {
  // `.agents` holds the pointers; `.gitignore` keeps the store out of git (made with the folder); the listing cache
  // is a summary of the sessions, rebuilt from them (src/store/listing-cache.ts).
  return readdirSync(store).filter(
    (name) => name !== '.agents' && name !== '.gitignore' && name !== '.listing-cache.json',
  );
}
