// Issue 20, items 5 and 16, at the platform layer with injected faults (jest.spyOn on node:fs, as the stress tests do):
// a new file that cannot be written whole leaves nothing; a lock on a store that cannot be written names the write
// that failed, not a clean-up of a file that was never made.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionError } from '../../../src/core/errors';
import { acquireLock } from '../../../src/platform/lock';
import { writeNewOutputFile } from '../../../src/platform/output-file';
import { writeNewFile } from '../../../src/platform/private-fs';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-session-'))));
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** An error as Node's fs throws it. */
function fsError(code: string, syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected, ${syscall}`), { code, syscall });
}

/** The error `work` throws (the test fails when it throws none). */
function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** Makes every write of more than `bytes` bytes fail with ENOSPC (a disk that fills up mid-file). */
function diskFullAfter(bytes: number): void {
  const realWriteSync = fs.writeSync;
  jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: NodeJS.ArrayBufferView, ...rest: never[]) => {
    if (data.byteLength > bytes) throw fsError('ENOSPC', 'write');
    return (realWriteSync as (...args: unknown[]) => number)(fd, data, ...rest);
  }) as typeof fs.writeSync);
}

describe('writeNewFile', () => {
  it('removes the file it created when the write fails, and throws the write’s error', () => {
    diskFullAfter(10);
    const file = join(dir, 'new');
    expect(thrown(() => writeNewFile(file, 'x'.repeat(100)))).toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('writeNewOutputFile (report --out, export --out)', () => {
  it('a write that fails leaves neither the file nor a temp file (E_IO); the same call then succeeds', () => {
    const file = join(dir, 'report.html');
    diskFullAfter(10);
    expect(thrown(() => writeNewOutputFile(file, 'x'.repeat(100)))).toMatchObject({ code: 'E_IO' });
    expect(readdirSync(dir)).toEqual([]);
    jest.restoreAllMocks();
    expect(writeNewOutputFile(file, 'x'.repeat(100))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('x'.repeat(100));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['report.html']);
  });

  it('never replaces an existing file (false, untouched, no temp file left)', () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, 'mine');
    expect(writeNewOutputFile(file, 'new')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect(readdirSync(dir)).toEqual(['report.html']);
  });

  it('on a file system without hard links (link refused: EPERM) the file is still written, whole', () => {
    jest.spyOn(fs, 'linkSync').mockImplementation(() => {
      throw fsError('EPERM', 'link');
    });
    const file = join(dir, 'export.json');
    expect(writeNewOutputFile(file, '{"a":1}\n')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir)).toEqual(['export.json']);
    writeFileSync(join(dir, 'taken'), 'mine');
    expect(writeNewOutputFile(join(dir, 'taken'), 'new')).toBe(false);
    expect(readFileSync(join(dir, 'taken'), 'utf8')).toBe('mine');
  });
});

describe('acquireLock on a store that cannot be written', () => {
  it('read-only (EROFS on create, and on the unlink of what was never made): E_IO caused by the create', () => {
    const create = fsError('EROFS', 'open');
    const realOpenSync = fs.openSync;
    jest.spyOn(fs, 'openSync').mockImplementation(((path: import('node:fs').PathLike, ...rest: never[]) => {
      if (String(path).endsWith('.tmp')) throw create;
      return (realOpenSync as (...args: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync);
    // On a read-only mount unlink fails with EROFS even for a name that does not exist.
    jest.spyOn(fs, 'unlinkSync').mockImplementation(() => {
      throw fsError('EROFS', 'unlink');
    });
    const error = thrown(() => acquireLock(join(dir, 'state.json.lock')));
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({ code: 'E_IO', cause: create });
    expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
  });

  it('a disk that fills up as the lock draft is written: E_IO, and the empty draft is not left behind', () => {
    diskFullAfter(10);
    expect(thrown(() => acquireLock(join(dir, 'state.json.lock')))).toMatchObject({ code: 'E_IO' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
