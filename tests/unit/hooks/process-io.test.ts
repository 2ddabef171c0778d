import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FdInput, writeStdout } from '../../../src/hooks/process-io';
import { readJsonInput } from '../../../src/hooks/stdin';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'agent-session-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('process-io', () => {
  it('reads one JSON document from an fd, in chunks larger than one read', async () => {
    const file = join(dir, 'in.json');
    const value = { agent_name: 'x', padding: 'y'.repeat(200_000) };
    writeFileSync(file, JSON.stringify(value));
    const fd = openSync(file, 'r');
    try {
      const result = await readJsonInput(new FdInput(fd), { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 });
      expect(result).toEqual({ kind: 'json', value });
    } finally {
      closeSync(fd);
    }
  });

  it('reports an empty fd as empty input', async () => {
    const file = join(dir, 'empty');
    writeFileSync(file, '');
    const fd = openSync(file, 'r');
    try {
      expect(await readJsonInput(new FdInput(fd), { timeoutMs: 5000, maxBytes: 1024 })).toEqual({ kind: 'empty' });
    } finally {
      closeSync(fd);
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
