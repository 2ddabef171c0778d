import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const DIST = resolve(__dirname, '..', '..', 'dist');
const BIN = {
  cli: join(DIST, 'agent-session.cjs'),
  pre: join(DIST, 'pre-delegate.cjs'),
  stop: join(DIST, 'subagent-stop.cjs'),
};

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
  env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: '',
    AGENT_SESSION_DIR: join(dir, 'session'),
    AGENT_SESSION_LOG_DIR: join(dir, 'logs'),
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(bin: string, args: readonly string[], input = '', extraEnv: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    input,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 15_000,
  });
}

/** A session in approval, created and moved through the CLI. */
function resumableSession(agent = 'architect'): string {
  const created = run(BIN.cli, ['create', '--agent', agent, '--purpose', 'p']);
  expect(created.status).toBe(0);
  const id = created.stdout.trim();
  expect(run(BIN.cli, ['update', id, '--phase', 'approval']).status).toBe(0);
  return id;
}

/** A copy of a bin and its bundle in a folder of their own (or without the bundle), with the code-cache maker. */
function copyBin(
  name: 'agent-session' | 'pre-delegate' | 'subagent-stop',
  bundle: 'with' | 'without' = 'with',
): string {
  const folder = mkdtempSync(join(dir, 'bin-'));
  const bin = join(folder, `${name}.cjs`);
  copyFileSync(join(DIST, `${name}.cjs`), bin);
  copyFileSync(join(DIST, 'make-cache.cjs'), join(folder, 'make-cache.cjs'));
  if (bundle === 'with') copyFileSync(join(DIST, `${name}.bundle`), join(folder, `${name}.bundle`));
  return bin;
}

/** The code-cache files in `folder` (none when it does not exist). */
const cachesIn = (folder: string): string[] =>
  existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.v8')) : [];

/** Waits (at most 20 s) until `test` holds; the background maker runs after the call that started it exited. */
function waitFor(test: () => boolean): boolean {
  for (let i = 0; i < 200 && !test(); i++) spawnSync('sleep', ['0.1']);
  return test();
}

/** The answer of a seed resume by id, without what changes from one call to the next. */
function stable(text: string): unknown {
  const {
    resume_metadata: { history: _history, last_updated: _last, ...facts },
    ...rest
  } = JSON.parse(text);
  return { ...rest, ...facts };
}

describe('built bins and the code cache', () => {
  it.each(['pre-delegate', 'subagent-stop'])(
    "%s: the maker runs the PostgreSQL calls through its stand-in relay for a -database cache only (the file store's has no relay path)",
    (name) => {
      const cache = join(dir, 'cache');
      mkdirSync(cache, { mode: 0o700 });
      // As the loader starts it: PATH and HOME only. A call that missed the stand-in (another socket name than the
      // hooks compute) is said on stderr, exit 1.
      const make = (file: string) =>
        spawnSync(process.execPath, [join(DIST, 'make-cache.cjs'), join(DIST, `${name}.cjs`), join(cache, file)], {
          env: { PATH: process.env.PATH ?? '', HOME: dir },
          encoding: 'utf8',
          timeout: 60_000,
        });
      for (const file of [`${name}-test-database.v8`, `${name}-test.v8`]) {
        const made = make(file);
        expect({ file, status: made.status, stderr: made.stderr }).toEqual({ file, status: 0, stderr: '' });
      }
      // The relay client's code (what the -database cache has more) is tens of KB of V8 code cache.
      const size = (file: string) => statSync(join(cache, file)).size;
      expect(size(`${name}-test-database.v8`) - size(`${name}-test.v8`)).toBeGreaterThan(10_000);
    },
  );

  it("ship no code cache: the user's own Node makes one (a cache is accepted only by the Node that made it)", () => {
    expect(readdirSync(DIST).filter((f) => /\.(cache|v8)$/.test(f))).toEqual([]);
  });

  it('make the cache of this Node in the background on first use, in a private folder, and use it after', () => {
    const cache = join(dir, 'cache');
    const id = resumableSession();
    const input = JSON.stringify({ agent_name: 'architect', agent_id: id });
    const first = run(BIN.pre, [], input, { AGENT_SESSION_CACHE_DIR: cache, AGENT_SESSION_DEBUG: '1' });
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('no code cache of this Node yet');
    expect(waitFor(() => cachesIn(cache).length === 1)).toBe(true);
    const [made] = cachesIn(cache);
    expect(made).toContain(`-${process.version}-${process.arch}-`);
    expect(made).not.toContain('-database'); // a file store's call: no PostgreSQL path in its cache
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, made!)).mode & 0o777).toBe(0o600);
    expect(waitFor(() => readdirSync(cache).length === 1)).toBe(true); // the maker's marker is gone
    const second = run(BIN.pre, [], input, { AGENT_SESSION_CACHE_DIR: cache, AGENT_SESSION_DEBUG: '1' });
    expect(second.stderr).toBe('');
    expect(stable(second.stdout)).toEqual(stable(first.stdout));
  });

  it.each([
    ['garbage', (file: string) => writeFileSync(file, Buffer.alloc(4096, 7), { mode: 0o600 })],
    ['cut short', (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 100), { mode: 0o600 })],
  ])('answer the same with a cache that is %s, and replace it', (_what, spoil) => {
    const cache = join(dir, 'cache');
    const id = resumableSession();
    const input = JSON.stringify({ agent_name: 'architect', agent_id: id });
    const reference = run(BIN.pre, [], input, { AGENT_SESSION_CACHE_DIR: cache });
    expect(waitFor(() => cachesIn(cache).length === 1 && readdirSync(cache).length === 1)).toBe(true);
    const file = join(cache, cachesIn(cache)[0]!);
    spoil(file);
    const spoilt = readFileSync(file);
    const other = run(BIN.pre, [], input, { AGENT_SESSION_CACHE_DIR: cache });
    expect(other.status).toBe(0);
    expect(stable(other.stdout)).toEqual(stable(reference.stdout));
    expect(waitFor(() => existsSync(file) && !readFileSync(file).equals(spoilt))).toBe(true);
  });

  it.each([
    ['a link to a folder', (path: string) => symlinkSync(mkdtempSync(join(dir, 'elsewhere-')), path)],
    ['a folder others can write', (path: string) => (mkdirSync(path), chmodSync(path, 0o777))],
    ['a folder others can read', (path: string) => (mkdirSync(path), chmodSync(path, 0o755))],
    ['a file', (path: string) => writeFileSync(path, 'not a folder')],
  ])('use no cache folder that is %s, write nothing through it, and still answer', (_what, plant) => {
    const cache = join(dir, 'cache');
    plant(cache);
    const before = lstatSync(cache).isDirectory() ? readdirSync(cache) : [];
    const id = resumableSession();
    for (const [bin, args, input] of [
      [BIN.pre, [], JSON.stringify({ agent_name: 'architect', agent_id: id })],
      [BIN.cli, ['get', id], ''],
    ] as const) {
      const result = run(bin, args, input, { AGENT_SESSION_CACHE_DIR: cache });
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(id);
    }
    spawnSync('sleep', ['1']);
    expect(lstatSync(cache).isDirectory() ? readdirSync(cache) : []).toEqual(before);
    if (lstatSync(cache).isSymbolicLink()) expect(readdirSync(realpathSync(cache))).toEqual([]);
  });

  it('make none with AGENT_SESSION_CODE_CACHE=0, or without HOME and a cache folder', () => {
    const id = resumableSession();
    const input = JSON.stringify({ agent_name: 'architect', agent_id: id });
    const cache = join(dir, 'cache');
    expect(run(BIN.pre, [], input, { AGENT_SESSION_CACHE_DIR: cache, AGENT_SESSION_CODE_CACHE: '0' }).status).toBe(0);
    const noHome = run(BIN.pre, [], input, { HOME: '', XDG_CACHE_HOME: '', AGENT_SESSION_CACHE_DIR: '' });
    expect(noHome.status).toBe(0);
    spawnSync('sleep', ['1']);
    expect(existsSync(cache)).toBe(false);
  });

  it("answer the same from a copy of the bins with their maker, and make that copy's cache", () => {
    const cache = join(dir, 'cache');
    const id = resumableSession();
    const cli = run(copyBin('agent-session'), ['should-resume', id, '--json'], '', { AGENT_SESSION_CACHE_DIR: cache });
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout).should_resume).toBe(true);
    expect(waitFor(() => cachesIn(cache).some((f) => f.startsWith('agent-session-')))).toBe(true);
    const stop = run(copyBin('subagent-stop'), [], JSON.stringify({ task_info: { agent_id: id }, exit_code: 0 }), {
      AGENT_SESSION_CACHE_DIR: cache,
    });
    expect(stop.status).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ finalized: true, agent_id: id, outcome: 'completed' });
  });
  it.each([
    ['agent-session', 5],
    ['pre-delegate', 0],
    ['subagent-stop', 0],
  ] as const)('%s copied without its bundle says so in one line and exits %i', (name, status) => {
    const bin = copyBin(name, 'without');
    const result = run(bin, name === 'agent-session' ? ['list'] : [], '{"agent_name":"architect"}');
    expect(result.status).toBe(status);
    // A hook prints nothing its host would read as an answer; the CLI nothing on stdout either.
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent-session: Expected the bundle ${join(dirname(bin), `${name}.bundle`)} beside this bin (reinstall agent-session), got ENOENT\n`,
    );
  });

  it('keep usage errors and exit codes through the loader', () => {
    const result = run(BIN.cli, ['get', 'no-such-session']);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(run(BIN.cli, ['frobnicate']).status).toBe(2);
  });
});

describe('pre-delegate by agent name', () => {
  it('finds the newest session through the pointer, and without it', () => {
    resumableSession();
    const newest = resumableSession();
    const first = run(BIN.pre, [], JSON.stringify({ agent_name: 'architect' }));
    expect(JSON.parse(first.stdout)).toMatchObject({ should_resume: true, agent_id: newest });
    const index = join(dir, 'session', '.agents');
    for (const file of readdirSync(index)) rmSync(join(index, file));
    const second = run(BIN.pre, [], JSON.stringify({ agent_name: 'architect' }));
    // Same session found without the pointer (its history now also holds the first, recorded resume).
    expect(JSON.parse(second.stdout)).toMatchObject({ should_resume: true, agent_id: newest });
  });

  it('does not follow a pointer to a deleted session', () => {
    const older = resumableSession();
    const newest = resumableSession();
    expect(run(BIN.cli, ['delete', newest]).status).toBe(0);
    const answer = JSON.parse(run(BIN.pre, [], JSON.stringify({ agent_name: 'architect' })).stdout);
    expect(answer).toMatchObject({ should_resume: true, agent_id: older });
  });

  it('lists no pointer files as sessions', () => {
    const id = resumableSession();
    run(BIN.pre, [], JSON.stringify({ agent_name: 'nobody' }));
    const listed = JSON.parse(run(BIN.cli, ['list', '--json']).stdout) as { agent_id: string }[];
    expect(listed.map((entry) => entry.agent_id)).toEqual([id]);
  });
});

describe('hook stdin', () => {
  it('reads a regular file on fd 0', () => {
    const id = resumableSession();
    const file = join(dir, 'input.json');
    writeFileSync(file, JSON.stringify({ agent_id: id }));
    const fd = openSync(file, 'r');
    try {
      const result = spawnSync(process.execPath, [BIN.pre], {
        stdio: [fd, 'pipe', 'pipe'],
        env,
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ should_resume: true, agent_id: id });
    } finally {
      closeSync(fd);
    }
  });

  it('answers empty input', () => {
    const result = run(BIN.pre, [], '');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).reason).toBe('invalid_input');
  });

  it('answers and exits as soon as one JSON document arrived, with stdin left open', async () => {
    const id = resumableSession();
    const child = spawn(process.execPath, [BIN.pre], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // Two writes: the document arrives in pieces, and the pipe stays open afterwards.
    const text = JSON.stringify({ agent_name: 'architect', agent_id: id });
    child.stdin.write(text.slice(0, 10));
    setTimeout(() => child.stdin.write(text.slice(10)), 50);
    const guard = setTimeout(() => child.kill(), 10_000);
    const code = await exited;
    clearTimeout(guard);
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ should_resume: true, agent_id: id });
  });

  it('answers at the time limit, and exits, when half a document arrives on a pipe its writer holds open', async () => {
    // A FIFO opened read-write here: the hook's stdin has a writer that never finishes nor closes (a shell's pipe).
    const fifo = join(dir, 'stdin.fifo');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, 'r+');
    try {
      writeSync(fd, '{"agent_name": "archi');
      const child = spawn(process.execPath, [BIN.pre], {
        env: { ...env, AGENT_SESSION_STDIN_TIMEOUT_MS: '300' },
        stdio: [fd, 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const guard = setTimeout(() => child.kill(), 10_000);
      // The pipe is read without blocking: nothing is left waiting on it, so the hook exits with the writer still there.
      const code = await new Promise<number | null>((done) => child.on('exit', (exit) => done(exit)));
      clearTimeout(guard);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        reason: 'invalid_input',
        error: expect.stringContaining('not valid JSON'),
      });
    } finally {
      closeSync(fd);
    }
  });

  it('answers half a document on a socket once the host closes stdin', async () => {
    const child = spawn(process.execPath, [BIN.pre], {
      env: { ...env, AGENT_SESSION_STDIN_TIMEOUT_MS: '300' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.stdin.write('{"agent_name": "archi');
    setTimeout(() => child.stdin.end(), 500);
    const guard = setTimeout(() => child.kill(), 10_000);
    const code = await exited;
    clearTimeout(guard);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).reason).toBe('invalid_input');
  });

  it('writes a log line per decision', () => {
    run(BIN.pre, [], JSON.stringify({ agent_name: 'x' }));
    expect(existsSync(join(dir, 'logs', 'pre_delegate.log'))).toBe(true);
    expect(
      readFileSync(join(dir, 'logs', 'pre_delegate.log'), 'utf8')
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(1);
  });
});
