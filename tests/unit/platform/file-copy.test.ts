// The file helpers of issue 34 on a real file system, with hostile entries: symbolic links (to files, to folders,
// dangling), FIFOs, files that grow, destinations made meanwhile, and writes that fail.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  appendFileSync,
  existsSync,
  lstatSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyNewFile, entryAt, firstLine, folderNames } from '../../../src/platform/file-copy';

// The node:fs module object itself (what src/ requires): its functions can be spied on, unlike a namespace import.
const fs: typeof import('node:fs') = jest.requireActual('node:fs');

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-session-copy-'))));
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const at = (...names: string[]) => join(dir, ...names);

/** A FIFO at `path` (mkfifo): opening one for reading blocks unless O_NONBLOCK, which every helper here uses. */
function fifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
}

describe('entryAt', () => {
  it.each<[string, string | null, () => string]>([
    ['a file', 'file', () => (writeFileSync(at('f'), 'abc'), at('f'))],
    ['a folder', 'folder', () => (mkdirSync(at('d')), at('d'))],
    ['a link to a file', 'symlink', () => (writeFileSync(at('f'), 'abc'), symlinkSync(at('f'), at('l')), at('l'))],
    ['a dangling link', 'symlink', () => (symlinkSync(at('nowhere'), at('l')), at('l'))],
    ['a FIFO', 'other', () => (fifo(at('p')), at('p'))],
    ['an absent entry', null, () => at('absent')],
    ['a path through a file', null, () => (writeFileSync(at('f'), 'abc'), at('f', 'x'))],
  ])('sees %s as %s (a link is not followed)', (_label, kind, make) => {
    expect(entryAt(make())?.kind ?? null).toBe(kind);
  });

  it('gives the size and change time of a file', () => {
    writeFileSync(at('f'), 'x'.repeat(1234));
    expect(entryAt(at('f'))).toEqual({ kind: 'file', size: 1234, mtimeMs: statSync(at('f')).mtimeMs });
  });
});

describe('folderNames', () => {
  it('lists real folders only, sorted: no file, no link to a folder', () => {
    mkdirSync(at('b'));
    mkdirSync(at('a'));
    writeFileSync(at('file'), '');
    mkdirSync(at('elsewhere'));
    symlinkSync(at('elsewhere'), at('c-link'));
    expect(folderNames(dir)).toEqual(['a', 'b', 'elsewhere']);
  });

  it('is null for an absent folder or a file', () => {
    writeFileSync(at('file'), '');
    expect(folderNames(at('absent'))).toBeNull();
    expect(folderNames(at('file'))).toBeNull();
  });
});

describe('firstLine', () => {
  it('reads the first line of a file', () => {
    writeFileSync(at('t.jsonl'), '{"agentId":"a1"}\n{"second":true}\n');
    expect(firstLine(at('t.jsonl'), 1024)).toBe('{"agentId":"a1"}');
  });

  it('reads the first line of a file far larger than the limit, and no more of it than that line', () => {
    writeFileSync(at('big.jsonl'), `{"agentId":"a1"}\n${'x'.repeat(2 * 1024 * 1024)}\n`);
    const reads = jest.spyOn(fs, 'readSync');
    expect(firstLine(at('big.jsonl'), 256 * 1024)).toBe('{"agentId":"a1"}');
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('reads a first line that spans several chunks, up to the limit exactly', () => {
    const line = 'y'.repeat(40_000);
    writeFileSync(at('long-row'), `${line}\nrest\n`);
    expect(firstLine(at('long-row'), 40_000)).toBe(line);
    expect(firstLine(at('long-row'), 39_999)).toBeNull();
  });

  it('reads a one-line file without a newline that fits, and nothing of a line longer than the limit', () => {
    writeFileSync(at('short'), 'abc');
    writeFileSync(at('long'), `${'x'.repeat(100)}\nrest`);
    expect(firstLine(at('short'), 10)).toBe('abc');
    expect(firstLine(at('long'), 50)).toBeNull();
  });

  it.each<[string, () => string]>([
    ['absent', () => at('absent')],
    ['a link to a file', () => (writeFileSync(at('f'), 'line\n'), symlinkSync(at('f'), at('l')), at('l'))],
    ['a folder', () => (mkdirSync(at('d')), at('d'))],
    ['a FIFO (without blocking)', () => (fifo(at('p')), at('p'))],
  ])('is null for %s', (_label, make) => {
    expect(firstLine(make(), 1024)).toBeNull();
  });
});

describe('copyNewFile', () => {
  const source = () => at('from.jsonl');
  const target = () => at('to', 'agent.jsonl');
  beforeEach(() => mkdirSync(at('to')));

  it('copies the bytes exactly (invalid UTF-8 included), private (0600), and leaves no temp file', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.from([0xff, 0xfe, 0x00, 0x0a])]);
    writeFileSync(source(), bytes);
    expect(copyNewFile(source(), target(), 1024)).toBe('copied');
    expect(readFileSync(target())).toEqual(bytes);
    expect(statSync(target()).mode & 0o777).toBe(0o600);
    expect(readdirSync(at('to'))).toEqual(['agent.jsonl']);
  });

  it('never replaces what is there: a file, a link, a dangling link (the link target untouched)', () => {
    writeFileSync(source(), 'new\n');
    writeFileSync(target(), 'old\n');
    expect(copyNewFile(source(), target(), 1024)).toBe('exists');
    expect(readFileSync(target(), 'utf8')).toBe('old\n');
    rmSync(target());
    writeFileSync(at('victim'), 'victim\n');
    symlinkSync(at('victim'), target());
    expect(copyNewFile(source(), target(), 1024)).toBe('exists');
    expect(readFileSync(at('victim'), 'utf8')).toBe('victim\n');
    rmSync(target());
    symlinkSync(at('would-be-made'), target());
    expect(copyNewFile(source(), target(), 1024)).toBe('exists');
    expect(existsSync(at('would-be-made'))).toBe(false);
    expect(readdirSync(at('to'))).toEqual(['agent.jsonl']);
  });

  it('a destination made between the look and the link is kept, and the temp file removed', () => {
    writeFileSync(source(), 'new\n');
    const realLink = fs.linkSync;
    jest.spyOn(fs, 'linkSync').mockImplementation((existing, made) => {
      writeFileSync(made, 'made meanwhile\n');
      return realLink(existing, made);
    });
    expect(copyNewFile(source(), target(), 1024)).toBe('exists');
    expect(readFileSync(target(), 'utf8')).toBe('made meanwhile\n');
    expect(readdirSync(at('to'))).toEqual(['agent.jsonl']);
  });

  it.each<[string, () => void, string]>([
    ['an absent source', () => undefined, 'absent'],
    ['a link to a file', () => (writeFileSync(at('real'), 'x\n'), symlinkSync(at('real'), source())), 'not-a-file'],
    ['a folder', () => mkdirSync(source()), 'not-a-file'],
    ['a FIFO (without blocking)', () => fifo(source()), 'not-a-file'],
    ['a file over the limit', () => writeFileSync(source(), 'x'.repeat(2000)), 'too-large'],
  ])('writes nothing for %s', (_label, make, outcome) => {
    make();
    expect(copyNewFile(source(), target(), 1024)).toBe(outcome);
    expect(readdirSync(at('to'))).toEqual([]);
  });

  it('stops at the limit when the file grows as it is read (a size looked at before is no promise)', () => {
    writeFileSync(source(), 'x'.repeat(100));
    const realRead = fs.readSync;
    let grown = false;
    jest.spyOn(fs, 'readSync').mockImplementation(((...args: Parameters<typeof fs.readSync>) => {
      if (!grown) {
        grown = true;
        appendFileSync(source(), 'y'.repeat(5000));
      }
      return (realRead as (...a: unknown[]) => number)(...args);
    }) as typeof fs.readSync);
    expect(copyNewFile(source(), target(), 1024)).toBe('too-large');
    expect(readdirSync(at('to'))).toEqual([]);
  });

  it('with wholeLines, leaves out a last row still being written, and copies nothing of a file without one', () => {
    writeFileSync(source(), '{"row":1}\n{"row":2}\n{"row":');
    expect(copyNewFile(source(), target(), 1024, { wholeLines: true })).toBe('copied');
    expect(readFileSync(target(), 'utf8')).toBe('{"row":1}\n{"row":2}\n');
    writeFileSync(at('partial'), '{"row":');
    expect(copyNewFile(at('partial'), at('to', 'other.jsonl'), 1024, { wholeLines: true })).toBe('empty');
    expect(readdirSync(at('to'))).toEqual(['agent.jsonl']);
  });

  it('a write that fails (a full disk) is E_IO, leaves neither the file nor a temp file; the same copy then works', () => {
    writeFileSync(source(), 'x'.repeat(500));
    const realWrite = fs.writeSync;
    const spy = jest.spyOn(fs, 'writeSync').mockImplementation((() => {
      throw Object.assign(new Error('ENOSPC: injected'), { code: 'ENOSPC', syscall: 'write' });
    }) as typeof fs.writeSync);
    expect(() => copyNewFile(source(), target(), 1024)).toThrow(expect.objectContaining({ code: 'E_IO' }));
    expect(readdirSync(at('to'))).toEqual([]);
    spy.mockImplementation(realWrite);
    expect(copyNewFile(source(), target(), 1024)).toBe('copied');
    expect(readFileSync(target(), 'utf8')).toBe('x'.repeat(500));
  });

  it('never writes through a link that replaced the destination folder’s temp name (O_EXCL | O_NOFOLLOW)', () => {
    writeFileSync(source(), 'new\n');
    writeFileSync(at('victim'), 'victim\n');
    // Whatever temp name the copy picks, a link made there first is refused, not followed.
    const realOpen = fs.openSync;
    jest.spyOn(fs, 'openSync').mockImplementation(((path: string, flags: number, mode?: number) => {
      if (typeof path === 'string' && path.endsWith('.tmp') && !existsSync(path)) symlinkSync(at('victim'), path);
      return realOpen(path, flags, mode);
    }) as typeof fs.openSync);
    expect(() => copyNewFile(source(), target(), 1024)).toThrow(expect.objectContaining({ code: 'E_IO' }));
    expect(readFileSync(at('victim'), 'utf8')).toBe('victim\n');
    expect(existsSync(target())).toBe(false);
    // The refused temp name is another's entry: the clean-up removes the link itself, never its target.
    expect(readdirSync(at('to')).filter((name) => lstatSync(at('to', name)).isSymbolicLink())).toEqual([]);
  });
});
