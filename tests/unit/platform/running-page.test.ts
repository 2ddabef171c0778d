import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordRunningPage, runningPage } from '../../../src/platform/running-page';

// Where a running `serve` says its page is (for the notifiers of its store root): recorded privately in the user's
// data folder, read back only while its process runs, removed by its own server only.
let data: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'agent-session-pages-'));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

it('records the port of a running server, privately, and forgets it on stop', () => {
  const forget = recordRunningPage(data, '/p/.claude/logs', { port: 4321, pid: process.pid });
  expect(runningPage(data, '/p/.claude/logs')).toEqual({ port: 4321, pid: process.pid });
  expect(runningPage(data, '/q/.claude/logs')).toBeNull();
  const [file] = readdirSync(join(data, 'pages'));
  expect(statSync(join(data, 'pages')).mode & 0o777).toBe(0o700);
  expect(statSync(join(data, 'pages', file!)).mode & 0o777).toBe(0o600);
  forget();
  expect(runningPage(data, '/p/.claude/logs')).toBeNull();
});

it('reads no page of a server that is gone, nor a record that is not sound', () => {
  recordRunningPage(data, 'gone', { port: 4321, pid: 2 ** 22 + 12_345 });
  expect(runningPage(data, 'gone')).toBeNull();
  rmSync(join(data, 'pages'), { recursive: true });
  recordRunningPage(data, 'bad', { port: 4321, pid: process.pid });
  const [file] = readdirSync(join(data, 'pages'));
  for (const text of ['{', '[]', '{"port":0,"pid":1}', `{"port":"4321","pid":${process.pid}}`, `{"port":4321}`]) {
    writeFileSync(join(data, 'pages', file!), text);
    expect(runningPage(data, 'bad')).toBeNull();
  }
});

it('leaves a newer server’s record alone when an older one stops', () => {
  const older = recordRunningPage(data, 'k', { port: 1111, pid: process.pid });
  recordRunningPage(data, 'k', { port: 2222, pid: process.ppid });
  older();
  expect(runningPage(data, 'k')).toEqual({ port: 2222, pid: process.ppid });
});
