import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCharacterDevice, writeFully } from '../../../src/platform/fd-write';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-session-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `work` on a new descriptor of `path`, closed afterwards. */
function withFd<T>(path: string, flags: string, work: (fd: number) => T): T {
  const fd = openSync(path, flags);
  try {
    return work(fd);
  } finally {
    closeSync(fd);
  }
}

describe('writeFully', () => {
  it('writes all of a long text, multi-byte characters included', () => {
    const file = join(dir, 'out');
    const text = `${JSON.stringify({ a: 'é'.repeat(300_000) })}\n`;
    withFd(file, 'w', (fd) => writeFully(fd, text));
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('throws a write error (here a descriptor that is not open)', () => {
    expect(() => writeFully(987654, 'x')).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });
});

describe('isCharacterDevice', () => {
  it('is true for /dev/null, false for a file and for a descriptor that is not open', () => {
    expect(withFd('/dev/null', 'w', isCharacterDevice)).toBe(true);
    expect(withFd(join(dir, 'f'), 'w', isCharacterDevice)).toBe(false);
    expect(isCharacterDevice(987654)).toBe(false);
  });
});
