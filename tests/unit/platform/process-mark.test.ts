// processMark / processGone (src/platform/lock.ts): a process named so that a later process can tell whether it is
// gone, as the lock files' owners are judged (opencode's plugin marks its task calls with it).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { processGone, processMark } from '../../../src/platform/lock';

const startOf = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

it('marks this process by its pid and start time', () => {
  expect(processMark()).toBe(`${process.pid}.${startOf(process.pid)}`);
  expect(processGone(processMark())).toBe(false);
});

it.each([
  ['a process that exited', () => `${spawnSync(process.execPath, ['-e', '']).pid}.1`, true],
  ['a live pid with another start time (the pid reused)', () => `${process.ppid}.1`, true],
  ['a live pid with its start time', () => `${process.ppid}.${startOf(process.ppid)}`, false],
  ['a live pid whose start time was unknown', () => `${process.ppid}.-`, false],
  ['no mark', () => 'call_1', false],
  ['a pid that is none', () => '0.5', false],
])('judges %s', (_case, mark, gone) => {
  expect(processGone(mark())).toBe(gone);
});

it('judges a process that died and is not yet reaped (a zombie) gone: it holds nothing and never will', async () => {
  // sh starts a child that exits at once, then becomes `sleep`, which never reaps it: a zombie until sleep ends.
  const parent = spawn('sh', ['-c', `"${process.execPath}" -e '' & echo $!; exec sleep 10`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim()))),
    );
    const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    const until = Date.now() + 10_000;
    while (state() !== 'Z' && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state()).toBe('Z');
    expect(processGone(`${pid}.${startOf(pid)}`)).toBe(true);
  } finally {
    parent.kill('SIGKILL');
  }
});
