import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProjectDir, resolveRoot } from '../../../src/store/root';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveRoot', () => {
  it('prefers --dir, then AGENT_SESSION_DIR, then CLAUDE_PROJECT_DIR', () => {
    const env = { AGENT_SESSION_DIR: join(dir, 'env'), CLAUDE_PROJECT_DIR: join(dir, 'proj') };
    expect(resolveRoot({ dir: 'flag', env, cwd: dir })).toBe(join(dir, 'flag'));
    expect(resolveRoot({ env, cwd: dir })).toBe(join(dir, 'env'));
    expect(resolveRoot({ env: { CLAUDE_PROJECT_DIR: join(dir, 'proj') }, cwd: dir })).toBe(
      join(dir, 'proj', '.claude', 'session'),
    );
  });

  it('uses the nearest ancestor with a .claude folder, else the working directory', () => {
    mkdirSync(join(dir, 'project', '.claude'), { recursive: true });
    mkdirSync(join(dir, 'project', 'a', 'b'), { recursive: true });
    expect(findProjectDir(join(dir, 'project', 'a', 'b'))).toBe(join(dir, 'project'));
    expect(resolveRoot({ env: {}, cwd: join(dir, 'project', 'a', 'b') })).toBe(
      join(dir, 'project', '.claude', 'session'),
    );
  });

  it('ignores empty variables', () => {
    mkdirSync(join(dir, '.claude'));
    expect(resolveRoot({ env: { AGENT_SESSION_DIR: '', CLAUDE_PROJECT_DIR: ' ' }, cwd: dir })).toBe(
      join(dir, '.claude', 'session'),
    );
  });
});
