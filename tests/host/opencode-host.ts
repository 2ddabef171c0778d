// The real opencode (the pinned `opencode-ai` npm package, or the npm registry's latest), run as `opencode run` fully
// offline: a fresh HOME with its XDG folders, a git project in a temp folder, the scripted chat-completions server of
// tests/host/chat-server.ts as the only model provider, sub-agents as `.opencode/agent/<name>.md` and plugins as files.
// Finding the binary, making the project, one run and what it left behind.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChatServer } from './chat-server';
import { firstRunnable, REPO, registryVersion } from './claude-host';

export const OPENCODE_PACKAGE = 'opencode-ai';
export const PLUGIN_PACKAGE = '@opencode-ai/plugin';
/** The provider and model id the project's opencode.json names (`<provider>/<model>`). */
export const MODEL = 'scripted/host-test';

/** The version package.json pins (exactly: a range would let the test drift to another opencode). */
export function pinnedOpencode(): string {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  for (const name of [OPENCODE_PACKAGE, PLUGIN_PACKAGE]) {
    const version = manifest.devDependencies?.[name];
    if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version))
      throw new Error(`Expected package.json devDependencies to pin ${name} exactly, got ${JSON.stringify(version)}`);
  }
  const versions = [OPENCODE_PACKAGE, PLUGIN_PACKAGE].map((name) => manifest.devDependencies![name]!);
  if (versions[0] !== versions[1])
    throw new Error(`Expected ${OPENCODE_PACKAGE} and ${PLUGIN_PACKAGE} pinned to one version, got ${versions}`);
  return versions[0]!;
}

/**
 * The opencode versions the host test plays against: `AGENT_SESSION_HOST_OPENCODE`, a comma-separated list of
 * `pinned` (the dev dependency), `latest` (the npm registry's, installed on first use) or exact versions; default
 * `pinned,latest`. Resolved to version numbers, each once (the latest is often the pinned one).
 */
export function opencodeVersions(): string[] {
  const raw = process.env.AGENT_SESSION_HOST_OPENCODE ?? 'pinned,latest';
  const asked = raw.split(',').map((v) => v.trim());
  const bad = asked.find((v) => !/^(pinned|latest|\d+\.\d+\.\d+)$/.test(v));
  if (bad !== undefined)
    throw new Error(`Expected AGENT_SESSION_HOST_OPENCODE to list pinned, latest or x.y.z versions, got \`${bad}\``);
  const resolved = asked.map((v) =>
    v === 'pinned' ? pinnedOpencode() : v === 'latest' ? registryVersion(`${OPENCODE_PACKAGE}@latest`) : v,
  );
  return [...new Set(resolved)];
}

/** A runnable opencode: its native binary, the version it answers, and the plugin package of that version. */
export interface Opencode {
  readonly path: string;
  readonly version: string;
  /** The folder of `@opencode-ai/plugin` of the same version (pre-provided to opencode: see makeOpencodeProject). */
  readonly pluginPackage: string;
}

/**
 * The opencode of `version`: the pinned dev dependency, or that version from the npm registry installed (with the
 * plugin package of the same version) into node_modules/.cache/agent-session/opencode-<version>/ once. The binary is
 * taken from the per-platform package (`opencode-<os>-<arch>[-baseline][-musl]`), which npm installs with no script:
 * `opencode-ai`'s own bin is a shell stub until its postinstall copies the binary over it. Each candidate must answer
 * `--version` with the version asked for.
 * @throws Error naming every candidate tried when none is runnable (the suite then fails, never skips)
 */
export function findOpencode(version = pinnedOpencode()): Opencode {
  let root = REPO;
  if (version !== pinnedOpencode()) {
    root = join(REPO, 'node_modules', '.cache', 'agent-session', `opencode-${version}`);
    if (!existsSync(join(root, 'node_modules', PLUGIN_PACKAGE, 'package.json'))) {
      mkdirSync(root, { recursive: true });
      const specs = [`${OPENCODE_PACKAGE}@${version}`, `${PLUGIN_PACKAGE}@${version}`];
      const install = spawnSync(
        'npm',
        ['install', '--prefix', root, '--no-save', '--no-audit', '--no-fund', ...specs],
        {
          encoding: 'utf8',
          timeout: 600_000,
        },
      );
      if (install.status !== 0)
        throw new Error(`Could not install ${specs.join(' ')} from the npm registry: ${install.stderr.slice(-500)}`);
    }
  }
  const tried: string[] = [];
  // Top-level folders, not require.resolve: the plugin package's `exports` does not list its package.json.
  const [packageDir, pluginPackage] = [OPENCODE_PACKAGE, PLUGIN_PACKAGE].map((name) => {
    const folder = join(root, 'node_modules', name);
    const found = existsSync(join(folder, 'package.json'))
      ? (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: string }).version
      : undefined;
    if (found !== version)
      throw new Error(`Expected ${name} ${version} under ${root}, found ${found ?? 'none'}: run npm ci`);
    return folder;
  }) as [string, string];
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const names = ['', '-baseline', '-musl', '-baseline-musl'].map((v) => `opencode-${os}-${process.arch}${v}`);
  const candidates = names.flatMap((name) => {
    try {
      return [join(dirname(require.resolve(`${name}/package.json`, { paths: [packageDir, root] })), 'bin', 'opencode')];
    } catch {
      tried.push(`${name} (not installed)`);
      return [];
    }
  });
  // Where opencode-ai's postinstall copies the binary, when npm ran it.
  candidates.push(join(packageDir, 'bin', 'opencode.exe'));
  const path = firstRunnable(candidates, tried, (answer) => answer === version);
  if (path !== undefined) return { path, version, pluginPackage };
  throw new Error(`opencode ${version} is not runnable here; tried: ${tried.join('; ')}`);
}

/** A sub-agent as `.opencode/agent/<name>.md` defines it. */
export interface AgentDefinition {
  readonly description: string;
  /** Its system prompt (the file's body): a scripted server tells the sub-agent's requests by a marker in it. */
  readonly prompt: string;
}

export interface OpencodeProjectOptions {
  /** Sub-agents by name (`mode: subagent`). */
  readonly agents?: Readonly<Record<string, AgentDefinition>>;
  /** Plugin files copied to `.opencode/plugin/<name>` (auto-loaded by opencode), by file name, from absolute paths. */
  readonly plugins?: Readonly<Record<string, string>>;
  /** More of the project's opencode.json (merged over the provider; e.g. `permission`, `plugin`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** A temp project and fresh HOME for opencode runs. */
export interface OpencodeProject {
  readonly base: string;
  readonly home: string;
  readonly dir: string;
  readonly opencode: Opencode;
  /** The environment of every run: nothing of this machine's but PATH's system folders. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A fresh project under `base/name`: HOME with its XDG folders, a git repository with one commit (opencode names a
 * project by its first commit), `opencode.json` naming the scripted server as the only provider, the sub-agents and
 * plugin files. `@opencode-ai/plugin` is pre-provided in `.opencode/` and `~/.config/opencode/`, as opencode's own
 * background install would leave it (a `node_modules` holding the repository's copy, linked; a package.json and a
 * package-lock.json naming it): opencode reinstalls only when a folder lacks `node_modules` or its lockfile lacks a
 * name the package.json has, and otherwise its install, on a machine without the registry, blocks ~70 s.
 */
export function makeOpencodeProject(
  base: string,
  name: string,
  opencode: Opencode,
  server: ChatServer,
  options: OpencodeProjectOptions = {},
): OpencodeProject {
  const root = join(base, name);
  const home = join(root, 'home');
  const dir = join(root, 'project');
  const xdg = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
  for (const folder of [...Object.values(xdg), join(root, 'tmp'), join(dir, '.opencode', 'agent')])
    mkdirSync(folder, { recursive: true });
  const env: Record<string, string> = {
    HOME: home,
    ...xdg,
    TMPDIR: join(root, 'tmp'),
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    LANG: 'C.UTF-8',
    // Offline: no models.dev catalogue, no update check, no LSP download, no share; and a registry that refuses at
    // once, so that an install opencode still tried would show as its warning (checked by runOpencode), not as a hang.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    npm_config_registry: 'http://127.0.0.1:9/',
  };
  const [providerId, modelId] = MODEL.split('/') as [string, string];
  writeFileSync(
    join(dir, 'opencode.json'),
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          [providerId]: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: server.baseUrl, apiKey: 'host-test' },
            models: { [modelId]: { name: 'Host test model', tool_call: true } },
          },
        },
        model: MODEL,
        small_model: MODEL,
        autoupdate: false,
        share: 'disabled',
        ...options.config,
      },
      null,
      2,
    ),
  );
  for (const [agent, definition] of Object.entries(options.agents ?? {}))
    writeFileSync(
      join(dir, '.opencode', 'agent', `${agent}.md`),
      ['---', `description: ${definition.description}`, 'mode: subagent', '---', definition.prompt, ''].join('\n'),
    );
  if (options.plugins !== undefined) {
    mkdirSync(join(dir, '.opencode', 'plugin'));
    for (const [file, source] of Object.entries(options.plugins))
      writeFileSync(join(dir, '.opencode', 'plugin', file), readFileSync(source));
  }
  for (const folder of [join(dir, '.opencode'), join(xdg.XDG_CONFIG_HOME, 'opencode')])
    providePluginPackage(folder, opencode);
  git(dir, env, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# A project\n');
  git(dir, env, 'add', '-A');
  git(dir, env, '-c', 'user.name=Host Test', '-c', 'user.email=host@test', 'commit', '-q', '-m', 'start');
  return { base: root, home, dir, opencode, env };
}

/** What opencode's background install leaves in a config folder, with the repository's plugin package linked in. */
function providePluginPackage(folder: string, opencode: Opencode): void {
  mkdirSync(join(folder, 'node_modules', '@opencode-ai'), { recursive: true });
  symlinkSync(opencode.pluginPackage, join(folder, 'node_modules', PLUGIN_PACKAGE), 'dir');
  const dependencies = { [PLUGIN_PACKAGE]: opencode.version };
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ dependencies }, null, 2));
  writeFileSync(
    join(folder, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, requires: true, packages: { '': { dependencies } } }, null, 2),
  );
}

function git(dir: string, env: Readonly<Record<string, string>>, ...args: string[]): void {
  const run = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${run.stderr}`);
}

/** One `opencode run` and what it left. */
export interface OpencodeRun {
  readonly label: string;
  readonly status: number | null;
  /** The run's JSON events (`--format json`), one object a line. */
  readonly events: Record<string, unknown>[];
  /** stderr: opencode's logs (`--print-logs`). */
  readonly logs: string;
  readonly ms: number;
}

/**
 * `opencode run --print-logs --format json <prompt>` in the project, its requests labelled `label` on the server.
 * Fails when opencode tried to install a package (its warning in the logs: the run was not offline) or ran past
 * `timeoutMs` (killed); returns its status otherwise (`opencode run` exits 0 even when the model failed).
 */
export async function runOpencode(
  project: OpencodeProject,
  server: ChatServer,
  label: string,
  prompt: string,
  options: {
    readonly args?: readonly string[];
    readonly env?: Readonly<Record<string, string>>;
    readonly timeoutMs?: number;
    /** The folder opencode starts in (default the project's); a subfolder shows ctx.directory against worktree. */
    readonly cwd?: string;
    /** Sends `signal` to opencode once `when` settles (a user's Ctrl-C: SIGINT). */
    readonly interrupt?: { readonly signal: NodeJS.Signals; readonly when: Promise<unknown> };
  } = {},
): Promise<OpencodeRun> {
  server.setRun(label);
  const started = Date.now();
  const args = ['run', '--print-logs', '--format', 'json', ...(options.args ?? []), prompt];
  const child = spawn(project.opencode.path, args, {
    cwd: options.cwd ?? project.dir,
    env: { ...project.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let logs = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (logs += chunk));
  void options.interrupt?.when.finally(() => {
    if (child.exitCode === null) child.kill(options.interrupt!.signal);
  });
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 120_000);
  const status = await new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done(code));
  });
  clearTimeout(timer);
  const ms = Date.now() - started;
  writeFileSync(join(project.base, `${label}.stdout.jsonl`), stdout);
  writeFileSync(join(project.base, `${label}.stderr.log`), logs);
  if (killed)
    throw new Error(`opencode run (${label}) ran past ${options.timeoutMs ?? 120_000} ms: ${logs.slice(-2000)}`);
  if (/dependency install failed|Npm\.reify|npm-install:/.test(logs))
    throw new Error(`opencode run (${label}) tried to install packages (not offline): see ${project.base}`);
  const events = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { label, status, events, logs, ms };
}
