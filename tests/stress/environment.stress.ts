// Guarantee: on a full disk or a read-only store, a write fails with one clear line (exit 5, E_IO) and the
// previous state is intact. Real faults where the machine allows them (a small tmpfs, a read-only bind mount,
// a chmod 0555 store used by an unprivileged user via setpriv: root ignores permissions); an injected ENOSPC /
// EACCES (jest.spyOn on node:fs, no production seam) always runs, so the guarantee is checked everywhere.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { isSessionError } from '../../src/core/errors';
import { Sessions } from '../../src/service/sessions';
import { FileStore } from '../../src/store/file-store';
import { BIN, STACK_LINE, childEnv, makeTemp, removeTemp, runBin, sessionFolders } from './helpers';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

/** True when this machine lets us mount a tmpfs (root, and a sandbox that allows it). */
function canMount(): boolean {
  const probe = makeTemp();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    // Any refusal (not root, no mount binary, a sandbox) means: use the injected faults only.
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** True when a child can run as `nobody` (setpriv available and we may switch user). */
function canDropPrivileges(): boolean {
  const result = spawnSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', '0'],
    { stdio: 'ignore' },
  );
  return result.status === 0;
}

const MOUNT = canMount();
const SETPRIV = canDropPrivileges();
process.stdout.write(
  `[stress] environment: tmpfs/bind mounts ${MOUNT ? 'available' : 'refused (skipped)'}, setpriv ${SETPRIV ? 'available' : 'unavailable (skipped)'}\n`,
);

let dir: string;
let mounted: string[] = [];
beforeEach(() => {
  dir = makeTemp();
  mounted = [];
});
afterEach(() => {
  for (const target of mounted.reverse()) {
    if (spawnSync('umount', [target]).status !== 0) spawnSync('umount', ['-l', target]);
  }
  chmodTree(dir, 0o755);
  removeTemp(dir);
});

function chmodTree(path: string, mode: number): void {
  for (const name of safeList(path)) {
    const child = join(path, name);
    if (fs.lstatSync(child).isDirectory()) {
      chmodSync(child, mode);
      chmodTree(child, mode);
    }
  }
}

function safeList(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return [];
    throw error;
  }
}

function mount(args: readonly string[], target: string): void {
  execFileSync('mount', [...args, target], { stdio: 'ignore' });
  mounted.push(target);
}

function cli(store: string, ...args: string[]): SpawnSyncReturns<string> {
  return runBin(BIN.cli, [...args, '--dir', store], { dir });
}

function expectIoError(result: SpawnSyncReturns<string>): void {
  expect({ status: result.status, signal: result.signal }).toEqual({ status: 5, signal: null });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
}

function stateBytes(store: string, id = 'keep'): string {
  return readFileSync(join(store, id, 'state.json'), 'utf8');
}

/** The session folder holds only state.json: no temp file, no lock left behind by the failed write. */
function expectClean(store: string, id = 'keep'): void {
  expect(readdirSync(join(store, id))).toEqual(['state.json']);
}

/** Fills the file system holding `path` until ENOSPC; returns the filler's path. */
/** subagent-stop on a store it cannot write: exit 0 with `finalized: false, reason: error` (the hook fails open). */
function expectStopFailsOpen(dir: string, store: string): void {
  const stop = runBin(BIN.subagentStop, [], {
    dir,
    input: '{"task_info":{"agent_id":"keep"}}',
    env: { AGENT_SESSION_DIR: store },
  });
  expect(stop.status).toBe(0);
  expect(JSON.parse(stop.stdout)).toMatchObject({ finalized: false, reason: 'error' });
}

function fill(path: string): string {
  const filler = join(path, `filler-${readdirSync(path).length}`);
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return filler;
}

describe('full disk', () => {
  (MOUNT ? it : it.skip)(
    'real tmpfs: update and create fail with exit 5 and the previous state is intact; writes work again once space is freed',
    () => {
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      mount(['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs'], disk);
      const store = join(disk, 'store');
      expect(
        cli(store, 'create', '--agent', 'a', '--purpose', 'p', '--id', 'keep', '--metadata', '{"n":1}').status,
      ).toBe(0);
      expect(cli(store, 'update', 'keep', '--phase', 'planning').status).toBe(0);
      const before = stateBytes(store);
      let tried = 0;

      // One page left: the lock fits, the new state.json does not.
      writeFileSync(join(disk, 'spare'), Buffer.alloc(4096));
      fill(disk);
      rmSync(join(disk, 'spare'));
      expectIoError(cli(store, 'update', 'keep', '--metadata', JSON.stringify({ big: 'x'.repeat(20_000) })));
      tried++;
      expect(stateBytes(store)).toBe(before);
      expectClean(store);

      // Completely full.
      fill(disk);
      for (const args of [
        ['update', 'keep', '--phase', 'approval'],
        ['update', 'keep', '--error', 'boom'],
        ['finalize', 'keep', 'completed'],
        ['create', '--agent', 'a', '--purpose', 'p', '--metadata', JSON.stringify({ big: 'y'.repeat(8000) })],
      ]) {
        expectIoError(cli(store, ...args));
        tried++;
        expect(stateBytes(store)).toBe(before);
        expectClean(store);
      }
      expect(sessionFolders(store)).toEqual(['keep']); // no half-created session, no staging folder
      expectStopFailsOpen(dir, store);
      tried++;
      expect(stateBytes(store)).toBe(before);
      const resume = runBin(BIN.preDelegate, [], {
        dir,
        input: '{"agent_id":"keep"}',
        env: { AGENT_SESSION_DIR: store },
      });
      expect(JSON.parse(resume.stdout)).toMatchObject({ should_resume: true });

      for (const name of readdirSync(disk).filter((entry) => entry.startsWith('filler-'))) rmSync(join(disk, name));
      expect(cli(store, 'update', 'keep', '--phase', 'approval').status).toBe(0);
      process.stdout.write(
        `[stress] full disk (real tmpfs 256k): ${tried} writes refused with exit 5 / error answer, state intact each time\n`,
      );
    },
  );

  // `state`: only writes larger than a lock token fail, so the lock is taken and the state write fails;
  // `all`: every write fails, the lock draft included.
  it.each(['state', 'all'])(
    'injected ENOSPC (fs.writeSync fails, %s writes): E_IO, previous state intact, temp file removed, lock released',
    async (mode) => {
      const store = join(dir, 'store');
      const sessions = new Sessions({ store: new FileStore(store) });
      await sessions.create({ agent_name: 'a', purpose: 'p', id: 'keep' });
      await sessions.update('keep', { phase: 'planning' });
      const before = stateBytes(store);
      const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
      const realWriteSync = fs.writeSync;
      const spy = jest.spyOn(fs, 'writeSync').mockImplementation(((
        fd: number,
        data: NodeJS.ArrayBufferView | string,
        ...rest: never[]
      ) => {
        if (mode === 'all' || (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength) > 200)
          throw enospc;
        return (realWriteSync as (...args: unknown[]) => number)(fd, data, ...rest);
      }) as typeof fs.writeSync);
      try {
        for (const attempt of [
          () => sessions.update('keep', { phase: 'approval' }),
          () => sessions.finalize('keep', 'completed'),
          () => sessions.create({ agent_name: 'a', purpose: 'p' }),
        ]) {
          let caught: unknown;
          try {
            await attempt();
          } catch (error) {
            caught = error;
          }
          expect(isSessionError(caught, 'E_IO')).toBe(true);
          expect(stateBytes(store)).toBe(before);
          expectClean(store);
        }
        expect(sessionFolders(store)).toEqual(['keep']);
        let err = '';
        const code = await runCli(
          ['update', 'keep', '--phase', 'approval', '--dir', store],
          { out: () => undefined, err: (t) => (err += t), env: {}, cwd: dir, now: () => new Date(), negative: false },
          '0',
        );
        expect(code).toBe(5);
        expect(err.trimEnd().split('\n')).toHaveLength(1);
        expect(spy).toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
      expect((await sessions.update('keep', { phase: 'approval' })).phase).toBe('approval');
    },
  );
});

describe('read-only store', () => {
  (MOUNT ? it : it.skip)(
    'real read-only bind mount (EROFS): writes fail with exit 5, reads and hooks still answer, state intact',
    () => {
      const store = join(dir, 'store');
      expect(cli(store, 'create', '--agent', 'a', '--purpose', 'p', '--id', 'keep').status).toBe(0);
      expect(cli(store, 'update', 'keep', '--phase', 'approval').status).toBe(0);
      const before = stateBytes(store);
      mount(['--bind', store], store);
      execFileSync('mount', ['-o', 'remount,bind,ro', store], { stdio: 'ignore' });
      let tried = 0;
      for (const args of [
        ['update', 'keep', '--phase', 'planning'],
        ['finalize', 'keep', 'completed'],
        ['delete', 'keep'],
        ['create', '--agent', 'a', '--purpose', 'p'],
        ['cleanup', '--hours', '0'],
      ]) {
        expectIoError(cli(store, ...args));
        tried++;
        expect(stateBytes(store)).toBe(before);
      }
      expect(cli(store, 'get', 'keep').status).toBe(0);
      expect(cli(store, 'list').status).toBe(0);
      expect(cli(store, 'should-resume', 'keep').status).toBe(0);
      expect(cli(store, 'cleanup', '--hours', '24').status).toBe(0); // nothing to remove: nothing to write
      expectStopFailsOpen(dir, store);
      tried++;
      expect(
        JSON.parse(
          runBin(BIN.preDelegate, [], { dir, input: '{"agent_id":"keep"}', env: { AGENT_SESSION_DIR: store } }).stdout,
        ),
      ).toMatchObject({ should_resume: true });
      expect(stateBytes(store)).toBe(before);
      expectClean(store);
      process.stdout.write(`[stress] read-only bind mount: ${tried} writes refused (EROFS), state intact\n`);
    },
  );

  (SETPRIV ? it : it.skip)(
    'chmod 0555 store used by an unprivileged user (EACCES): writes fail with exit 5, state intact',
    () => {
      chmodSync(dir, 0o755); // mkdtemp makes it 0700: `nobody` must be able to enter
      const store = join(dir, 'store');
      expect(cli(store, 'create', '--agent', 'a', '--purpose', 'p', '--id', 'keep').status).toBe(0);
      const asNobody = (...args: string[]): SpawnSyncReturns<string> =>
        spawnSync(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN.cli, ...args, '--dir', store],
          {
            cwd: dir,
            // Its own config and data folders, as a user has: the runner's are 0700 (a config file that cannot be
            // read is an error, not an absent file).
            env: childEnv(dir, { XDG_CONFIG_HOME: join(own, 'config'), XDG_DATA_HOME: join(own, 'data') }),
            encoding: 'utf8',
            timeout: 30_000,
          },
        );
      const own = join(dir, 'nobody');
      mkdirSync(own, { recursive: true });
      // Hand the whole store to `nobody`, the per-agent pointer index (`.agents`) included, and its own folders.
      execFileSync('chown', ['-R', '65534:65534', store, own]);
      // Control: with write permission the same user can update, so the refusal below is the permission's doing.
      expect(asNobody('update', 'keep', '--phase', 'planning').status).toBe(0);
      const before = stateBytes(store);
      chmodSync(join(store, 'keep'), 0o555);
      chmodSync(store, 0o555);
      let tried = 0;
      for (const args of [
        ['update', 'keep', '--phase', 'approval'],
        ['finalize', 'keep', 'completed'],
        ['delete', 'keep'],
        ['create', '--agent', 'a', '--purpose', 'p'],
      ]) {
        expectIoError(asNobody(...args));
        tried++;
        expect(stateBytes(store)).toBe(before);
      }
      expect(asNobody('get', 'keep').status).toBe(0);
      expectClean(store);
      process.stdout.write(`[stress] chmod 0555 as nobody: ${tried} writes refused (EACCES), state intact\n`);
    },
  );

  it('injected EACCES on the lock (opening the lock draft fails): E_IO, state intact', async () => {
    const store = join(dir, 'store');
    const sessions = new Sessions({ store: new FileStore(store) });
    await sessions.create({ agent_name: 'a', purpose: 'p', id: 'keep' });
    const before = stateBytes(store);
    const eacces = Object.assign(new Error('EACCES: permission denied, open'), {
      code: 'EACCES',
      errno: -13,
      syscall: 'open',
    });
    const realOpenSync = fs.openSync;
    // Lock drafts are created with openSync (O_NOFOLLOW, 0600): only those fail, every other open works.
    const spy = jest.spyOn(fs, 'openSync').mockImplementation(((path: import('node:fs').PathLike, ...rest: never[]) => {
      if (/state\.json\.lock\.\d+\.[0-9a-f]{8}\.tmp$/.test(String(path))) throw eacces;
      return (realOpenSync as (...args: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync);
    try {
      let caught: unknown;
      try {
        await sessions.update('keep', { phase: 'planning' });
      } catch (error) {
        caught = error;
      }
      expect(isSessionError(caught, 'E_IO')).toBe(true);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(stateBytes(store)).toBe(before);
    expectClean(store);
  });
});
