// The opencode wiring through the built CLI: `init --host opencode` on a temp project writes the one plugin file
// (idempotent, a dry run changes nothing, a file of that name not ours is left alone), the file loads this build's
// library and hands opencode its plugin, and `--uninstall` removes exactly what init made. The plugin inside the real
// opencode: tests/host/opencode-session.host.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, run } from '../../helpers';

const DIST = resolve(__dirname, '../../../dist');
let project: string;
/** The user's home, apart from the project (the home folder is never a project: issue 32). */
let home: string;
const plugin = () => join(project, '.opencode', 'plugin', 'agent-session.js');

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'agent-session-opencode-'));
  home = mkdtempSync(join(tmpdir(), 'agent-session-opencode-home-'));
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return run(BIN.cli, args, { cwd: project });
}

it('writes the plugin file once, loading the library beside the CLI; a second init keeps it', () => {
  const dry = cli('init', '--host', 'opencode', '--dry-run');
  expect(dry.status).toBe(0);
  expect(dry.stdout).toContain(`+ ${plugin()}: the opencode plugin (dry run)`);
  expect(existsSync(join(project, '.opencode'))).toBe(false);
  const first = cli('init', '--host', 'opencode');
  expect(first.status).toBe(0);
  expect(first.stdout).toContain(`+ ${plugin()}: the opencode plugin`);
  const text = readFileSync(plugin(), 'utf8');
  expect(text).toContain(JSON.stringify(join(DIST, 'index.cjs')));
  expect(text.match(/^export /gm)).toEqual(['export ']);
  const again = cli('init', '--host', 'opencode');
  expect(again.stdout).toContain(`= ${plugin()}: the opencode plugin (already there)`);
  expect(readFileSync(plugin(), 'utf8')).toBe(text);
  // The file as opencode loads it (an ES module): its one export is a plugin function that gives the hooks.
  const loaded = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      'const m = await import(process.argv[1]); const hooks = await m.AgentSession({ directory: process.argv[2] });' +
        ' console.log(JSON.stringify([Object.keys(m), Object.keys(hooks).sort()]));',
      plugin(),
      project,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home } },
  );
  expect(JSON.parse(loaded.stdout)).toEqual([
    ['AgentSession'],
    ['chat.message', 'event', 'tool.execute.after', 'tool.execute.before'],
  ]);
});

it('leaves a file of that name it did not write alone, and uninstall removes only its own file and the folders it left empty', () => {
  mkdirSync(join(project, '.opencode', 'plugin'), { recursive: true });
  writeFileSync(plugin(), 'export const Mine = async () => ({});\n');
  const foreign = cli('init', '--host', 'opencode');
  expect(foreign.status).toBe(0);
  expect(foreign.stdout).toContain(`! ${plugin()}: not written by agent-session init, left alone`);
  expect(cli('init', '--host', 'opencode', '--uninstall').stdout).toContain('not written by agent-session init');
  expect(readFileSync(plugin(), 'utf8')).toBe('export const Mine = async () => ({});\n');
  rmSync(join(project, '.opencode'), { recursive: true });

  mkdirSync(join(project, '.opencode', 'agent'), { recursive: true });
  expect(cli('init', '--host', 'opencode').status).toBe(0);
  const removed = cli('init', '--host', 'opencode', '--uninstall');
  expect(removed.stdout).toContain(`- ${plugin()}`);
  expect(existsSync(join(project, '.opencode', 'plugin'))).toBe(false);
  expect(existsSync(join(project, '.opencode', 'agent'))).toBe(true);
  expect(cli('init', '--host', 'opencode', '--uninstall').stdout).toContain(`Nothing to remove: no ${plugin()}`);
  rmSync(join(project, '.opencode'), { recursive: true });
  expect(cli('init', '--host', 'opencode').status).toBe(0);
  cli('init', '--host', 'opencode', '--uninstall');
  expect(existsSync(join(project, '.opencode'))).toBe(false);
});

it('refuses an unknown host on one line, changing nothing', () => {
  const bad = cli('init', '--host', 'gemini');
  expect(bad.status).toBe(2);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toContain('opencode');
  expect(existsSync(join(project, '.opencode'))).toBe(false);
});
