// The README's install and uninstall lines, read from README.md as written and run as a newcomer runs them: in a
// fresh HOME where `~/agent-session` is this repository (the copy each person clones), npm's global folder a temp
// prefix of that HOME. One place for every test that installs agent-session the way a user does (tests/e2e/team,
// package and plugin tests; the host suite's plays can call installRoute too).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const REPO = resolve(__dirname, '..', '..');

/** How a user installs: the plugin (marketplace + `init --plugin`) or their own hooks (`init`). */
export type Route = 'plugin' | 'npm';

/** The `$ ` lines of the first console block after `marker` in README.md, without the prompt. */
export function readmeLines(marker: string): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`Expected README.md to have ${JSON.stringify(marker)}`);
  const block = readme.slice(at).split('```')[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('$ '))
    .map((line) => line.slice(2).replace(/\s+#.*$/, ''));
}

/** README's lines: the CLI for everyone, the plugin's two, the uninstall's (one per route, in any order). */
export function readmeInstall(): { cli: string[]; plugin: string[]; uninstall: string[] } {
  return {
    cli: readmeLines('## Install'),
    plugin: readmeLines('**As a Claude Code plugin**'),
    uninstall: readmeLines('**Uninstall, leaving nothing behind**'),
  };
}

/** A person's machine: their HOME, with this repository cloned at `~/agent-session`, npm's global folder in it. */
export interface Machine {
  readonly home: string;
  /** npm's global prefix (`npm install -g` writes there): its bin/ is on PATH. */
  readonly prefix: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * A fresh HOME under `base` as a newcomer has it: `~/.claude/` (Claude Code's own), `~/.cache` and `~/.local/bin`
 * (a desktop account's), the repository's files at `~/agent-session` (the copy they cloned), npm's global folder a
 * prefix inside the machine's folder, and a PATH of that prefix, `claude` (when given: its folder) and this node.
 * `npm_config_cache` stays the machine's own (the packages already there), outside this HOME.
 */
export function freshMachine(base: string, claude?: string): Machine {
  const home = join(base, 'home');
  for (const folder of ['.claude', '.cache', '.local/bin']) mkdirSync(join(home, folder), { recursive: true });
  // What a fresh clone holds that an install reads (a copy, not a link: nothing resolves from this work tree's
  // node_modules, which no user's clone has).
  for (const part of ['plugin', '.claude-plugin', 'README.md', 'LICENSE'])
    cpSync(join(REPO, part), join(home, 'agent-session', part), { recursive: true });
  const prefix = join(base, 'npm-prefix');
  const env: NodeJS.ProcessEnv = {
    PATH: [
      join(prefix, 'bin'),
      ...(claude === undefined ? [] : [dirname(claude)]),
      dirname(process.execPath),
      '/usr/bin',
      '/bin',
    ].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
    npm_config_prefix: prefix,
    npm_config_cache: join(homedir(), '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // The test file's relay folder (tests/support/relay-isolation.ts): a PostgreSQL hook's relay is stopped after it.
    ...(process.env.XDG_RUNTIME_DIR === undefined ? {} : { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR }),
    AGENT_SESSION_RELAY_IDLE_SECONDS: process.env.AGENT_SESSION_RELAY_IDLE_SECONDS ?? '5',
    // The machine's Claude Code must not reach the network (tests/host/claude-host.ts does the same).
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return { home, prefix, env };
}

/** Runs one README line as the user pastes it (sh), in `cwd`; its output, or a thrown error naming the line. */
export function runLine(line: string, cwd: string, env: NodeJS.ProcessEnv): { stdout: string; stderr: string } {
  const result = spawnSync('sh', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0)
    throw new Error(`\`${line}\` failed (status ${result.status}): ${result.stderr}${result.stdout}`.slice(0, 2000));
  return { stdout: result.stdout, stderr: result.stderr };
}

/**
 * Installs agent-session on `machine` for `project` by README's lines, as written: the CLI (`npm install -g
 * ~/agent-session/plugin`), then the plugin's two lines (`cd ~/my-project` made `cd <project>`) or `agent-session
 * init`. `teammate`: the plugin is already enabled in the project's committed settings, so only the per-machine
 * lines run (README: "A teammate who pulls runs the first two commands"). Needs `claude` on the machine's PATH for the
 * plugin route.
 */
export function installRoute(route: Route, machine: Machine, project: string, teammate = false): void {
  const lines = readmeInstall();
  for (const line of lines.cli) runLine(line, project, machine.env);
  if (route === 'npm') {
    runLine('agent-session init', project, machine.env);
    return;
  }
  const [marketplace, ...perProject] = lines.plugin;
  runLine(marketplace!, project, machine.env);
  if (teammate) return;
  for (const line of perProject) runLine(line.replace('cd ~/my-project', `cd '${project}'`), project, machine.env);
}

/** The CLI the README's npm line put on the machine's PATH. */
export function installedCli(machine: Machine): string {
  const cli = join(machine.prefix, 'bin', 'agent-session');
  if (!existsSync(cli)) throw new Error(`Expected ${cli} after README's install line`);
  return cli;
}
