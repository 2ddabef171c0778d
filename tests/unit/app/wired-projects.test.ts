import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetWired, madeFolders, recordWired, wiredProjects } from '../../../src/app/wired-projects';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'agent-session-wired-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("the user's record of the projects init wired", () => {
  it('records each project and host once, in the data folder, and forgets them', () => {
    const env = { HOME: home };
    recordWired(env, '/p/a', 'claude-code');
    recordWired(env, '/p/a', 'claude-code');
    recordWired(env, '/p/a', 'codex');
    recordWired(env, '/p/b', 'claude-code');
    expect(wiredProjects(env)).toEqual([
      { folder: '/p/a', host: 'claude-code' },
      { folder: '/p/a', host: 'codex' },
      { folder: '/p/b', host: 'claude-code' },
    ]);
    expect(existsSync(join(home, '.local', 'share', 'agent-session', 'wired.json'))).toBe(true);
    forgetWired(env, '/p/a');
    expect(wiredProjects(env)).toEqual([{ folder: '/p/b', host: 'claude-code' }]);
  });

  it('the last one forgotten: the file, its folder and the folders above made for it go; a folder there before stays', () => {
    const env = { HOME: home };
    recordWired(env, '/p/a', 'claude-code');
    expect(madeFolders(env)).toEqual([join(home, '.local', 'share'), join(home, '.local')]);
    forgetWired(env, '/p/a', 'claude-code');
    expect(existsSync(join(home, '.local'))).toBe(false);
    mkdirSync(join(home, '.local', 'share'), { recursive: true });
    recordWired(env, '/p/a', 'claude-code');
    forgetWired(env, '/p/a', 'claude-code');
    expect(existsSync(join(home, '.local', 'share'))).toBe(true);
    expect(existsSync(join(home, '.local', 'share', 'agent-session'))).toBe(false);
  });

  it('follows XDG_DATA_HOME', () => {
    const env = { HOME: home, XDG_DATA_HOME: join(home, 'data') };
    recordWired(env, '/p/a', 'opencode');
    expect(existsSync(join(home, 'data', 'agent-session', 'wired.json'))).toBe(true);
  });
});
