import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fdBytes, writeStdout } from '../../../src/hooks/process-io';
import { readJsonSync } from '../../../src/hooks/stdin';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-session-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('process-io', () => {
  it('reads one JSON document from an fd, in chunks larger than one read', () => {
    const file = join(dir, 'in.json');
    const value = { agent_name: 'x', padding: 'y'.repeat(200_000) };
    writeFileSync(file, JSON.stringify(value));
    const fd = openSync(file, 'r');
    try {
      expect(readJsonSync(fdBytes(fd), { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 })).toEqual({
        kind: 'json',
        value,
      });
    } finally {
      closeSync(fd);
    }
  });

  it('reports an empty fd as empty input', () => {
    const file = join(dir, 'empty');
    writeFileSync(file, '');
    const fd = openSync(file, 'r');
    try {
      expect(readJsonSync(fdBytes(fd), { timeoutMs: 5000, maxBytes: 1024 })).toEqual({ kind: 'empty' });
    } finally {
      closeSync(fd);
    }
  });

  it('reads a non-blocking pipe held open by its writer: the document, or at the time limit what arrived', () => {
    const fifo = join(dir, 'stdin.fifo');
    execFileSync('mkfifo', [fifo]);
    // Opened read-write: a writer that never closes (as a shell holding the pipe would).
    const writer = openSync(fifo, 'r+');
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const source = fdBytes(reader);
      expect(source.readBytes(Buffer.alloc(16))).toBeNull(); // EAGAIN: nothing yet
      writeSync(writer, '{"agent_name": "x"} and more');
      expect(readJsonSync(source, { timeoutMs: 5000, maxBytes: 1024 })).toEqual({
        kind: 'json',
        value: { agent_name: 'x' },
      });
      // The first read took the rest of that write with the document; what comes next is read by a new reader.
      writeSync(writer, '{"agent_na');
      expect(readJsonSync(fdBytes(reader), { timeoutMs: 100, maxBytes: 1024 })).toMatchObject({
        kind: 'invalid',
        received: '{"agent_na',
      });
    } finally {
      closeSync(reader);
      closeSync(writer);
    }
  });

  it('writes all of a long text to an fd', () => {
    const file = join(dir, 'out');
    const fd = openSync(file, 'w');
    const text = `${JSON.stringify({ a: 'é'.repeat(100_000) })}\n`;
    try {
      writeStdout(text, fd);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('rethrows a write error other than a closed reader', () => {
    expect(() => writeStdout('x', 987654)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });
});
