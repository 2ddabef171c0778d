import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProjectDir, resolveRoot } from '../../../src/store/root';
import { codeOf } from '../../helpers';

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

describe('resolveRoot without a working directory (it was removed)', () => {
  it('takes a folder given as an absolute path: --dir, AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR', () => {
    expect(resolveRoot({ dir: join(dir, 'flag'), env: {}, cwd: undefined })).toBe(join(dir, 'flag'));
    expect(resolveRoot({ env: { AGENT_SESSION_DIR: join(dir, 'env') }, cwd: undefined })).toBe(join(dir, 'env'));
    expect(resolveRoot({ env: { CLAUDE_PROJECT_DIR: join(dir, 'proj') }, cwd: undefined })).toBe(
      join(dir, 'proj', '.claude', 'session'),
    );
  });

  it('refuses (E_IO) a relative folder, and no folder at all: there is nothing to start from', () => {
    expect(codeOf(() => resolveRoot({ dir: 'flag', env: {}, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: { AGENT_SESSION_DIR: 'env' }, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: { CLAUDE_PROJECT_DIR: 'proj' }, cwd: undefined }))).toBe('E_IO');
    expect(codeOf(() => resolveRoot({ env: {}, cwd: undefined }))).toBe('E_IO');
    // The first folder given decides, as with a working directory: a relative --dir is not saved by the variable.
    expect(codeOf(() => resolveRoot({ dir: 'flag', env: { AGENT_SESSION_DIR: dir }, cwd: undefined }))).toBe('E_IO');
  });
});
