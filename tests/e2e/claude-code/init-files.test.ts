// Issue 10 items 4 (init), 12, 13, 14: `init` on settings files a careless user (or an attacker) leaves behind.
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, hookEnv, eachProject } from './helpers';

const CLI = join(DIST, 'agent-session.cjs');
const each = eachProject();

function init(dir = each.project.dir): { status: number | null; stdout: string; stderr: string } {
  const options = { env: hookEnv(each.project), cwd: each.project.dir, encoding: 'utf8' } as const;
  const result = spawnSync(process.execPath, [CLI, 'init', '--project', dir], options);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('an invalid settings.json (item 4)', () => {
  it.each([
    ['a bare word', '{\n  "env": {\n    "ANTHROPIC_API_KEY": sk-ant-secret-123\n  }\n}\n', 'line 3, column 26'],
    ['a trailing comma', '{\n  "env": { "ANTHROPIC_API_KEY": "sk-ant-secret-123", }\n}\n', 'line 2, column 54'],
    ['a file cut short', '{"env": {"ANTHROPIC_API_KEY": "sk-ant-secret-123"', 'line 1, column 50'],
  ])('with %s: the error names line and column, never the content', (_label, text, place) => {
    writeFileSync(each.settingsFile, text);
    const run = init();
    expect(run.status).toBe(4);
    expect(run.stderr).toContain(place);
    expect(run.stderr).not.toContain('sk-ant');
    expect(readFileSync(each.settingsFile, 'utf8')).toBe(text);
  });

  it('holding no object: says what it holds, not its text', () => {
    writeFileSync(each.settingsFile, '"sk-ant-secret-123"');
    const run = init();
    expect(run.status).toBe(4);
    expect(run.stderr).not.toContain('sk-ant');
  });
});

describe('init under umask 000', () => {
  it('creates a missing .claude/ 0700, not 0777', () => {
    const fresh = join(each.project.dir, 'fresh');
    mkdirSync(fresh);
    const options = { env: hookEnv(each.project), cwd: each.project.dir, encoding: 'utf8' } as const;
    const run = spawnSync(
      'sh',
      ['-c', 'umask 000; exec "$@"', 'sh', process.execPath, CLI, 'init', '--project', fresh],
      options,
    );
    expect(run.status).toBe(0);
    expect((lstatSync(join(fresh, '.claude')).mode & 0o777).toString(8)).toBe('700');
  });
});

describe('the cron line (item 12)', () => {
  it('uses the absolute path of the node running init and escapes % for cron', () => {
    const dir = join(each.project.dir, '100%-done');
    mkdirSync(dir);
    const run = init(dir);
    expect(run.status).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('0 * * * *'))!;
    expect(line).toContain(`${process.execPath} `);
    expect(line).toContain('100\\%-done');
    // Every % is escaped: cron would turn a bare one into a newline.
    expect(line).not.toMatch(/(^|[^\\])%/);
  });
});

describe('settings.json links and modes (item 13)', () => {
  it('a dangling link is refused, and stays a link', () => {
    symlinkSync(join(each.project.dir, 'elsewhere', 'settings.json'), each.settingsFile);
    const run = init();
    expect(run.status).toBe(5);
    expect(run.stderr).toContain('does not exist');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(lstatSync(each.settingsFile).isSymbolicLink()).toBe(true);
  });

  it('a read-only file is refused and left as it was', () => {
    writeFileSync(each.settingsFile, '{"model": "opus"}');
    chmodSync(each.settingsFile, 0o444);
    const run = init();
    expect(run.status).toBe(5);
    expect(run.stderr).toContain('read-only');
    expect(readFileSync(each.settingsFile, 'utf8')).toBe('{"model": "opus"}');
    expect(lstatSync(each.settingsFile).mode & 0o777).toBe(0o444);
  });

  it('a valid link is written through to its target', () => {
    const target = join(each.project.dir, 'dotfiles-settings.json');
    writeFileSync(target, '{"model": "opus"}');
    symlinkSync(target, each.settingsFile);
    expect(init().status).toBe(0);
    expect(readlinkSync(each.settingsFile)).toBe(target);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ model: 'opus', hooks: expect.any(Object) });
  });
});

describe('a byte order mark (item 14)', () => {
  it('in settings.json is accepted and kept', () => {
    writeFileSync(each.settingsFile, '\uFEFF{"model": "opus"}');
    expect(init().status).toBe(0);
    const text = readFileSync(each.settingsFile, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(JSON.parse(text.slice(1))).toMatchObject({ model: 'opus', hooks: expect.any(Object) });
  });

  it('in the config file is accepted', () => {
    writeFileSync(join(each.project.dir, '.claude', 'agent-session.json'), '\uFEFF{"cleanup_hours": 7}');
    const env = { ...hookEnv(each.project), AGENT_SESSION_CONFIG: '' };
    const result = spawnSync(process.execPath, [CLI, 'config', '--json'], {
      env,
      cwd: each.project.dir,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).settings.cleanup_hours).toEqual({
      value: 7,
      source: expect.objectContaining({ kind: 'file' }),
    });
  });
});
