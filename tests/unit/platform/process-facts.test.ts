import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers';
import { ancestorProcesses, osUserName } from '../../../src/platform/process-facts';

describe('ancestorProcesses', () => {
  const root = tempDir();
  const fake = (pid: number, comm: string, ppid: number, argv: string[]) => {
    mkdirSync(join(root, String(pid)), { recursive: true });
    writeFileSync(join(root, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} 1 1 0 -1\n`);
    writeFileSync(join(root, String(pid), 'comm'), `${comm}\n`);
    writeFileSync(join(root, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
  };

  it('walks up from the parent to pid 1: comm, argv[0], and the script a runtime runs', () => {
    fake(process.ppid, 'sh', 500, ['/bin/sh', '-c', 'x']);
    fake(500, 'node', 400, ['node', '/opt/codex/bin/codex.js', '--yolo']);
    // A comm with spaces and parentheses: the fields after it are found after its last `)`.
    fake(400, 'we) (ird', 1, ['weird']);
    expect(ancestorProcesses(root)).toEqual([
      { pid: process.ppid, names: ['sh', '/bin/sh'] },
      { pid: 500, names: ['node', 'node', '/opt/codex/bin/codex.js'] },
      { pid: 400, names: ['we) (ird', 'weird'] },
    ]);
  });

  it('stops at a process it cannot read, and finds nothing without /proc', () => {
    fake(process.ppid, 'sh', 777, ['sh']);
    expect(ancestorProcesses(root).map((p) => p.pid)).toEqual([process.ppid]);
    expect(ancestorProcesses(join(root, 'no-proc'))).toEqual([]);
  });
});

describe('osUserName', () => {
  it('is the password database name of this process, whatever $USER says', () => {
    const saved = process.env.USER;
    process.env.USER = 'mallory';
    try {
      expect(osUserName()).not.toBe('mallory');
      expect(osUserName()).toMatch(/\S/);
    } finally {
      if (saved === undefined) delete process.env.USER;
      else process.env.USER = saved;
    }
  });
});
