// The real Claude Code (the pinned npm package), run non-interactively in a temp project wired by our `init`, against
// the scripted model server: finding the binary, the project, one `claude -p` run, and what each run left behind.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * A state.json as the host run left it, read without validation (a broken one must show up in the report, not
 * throw): its fields are looked at loosely on purpose.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StoredSession = Record<string, any>;

export const REPO = resolve(__dirname, '..', '..');
export const AGENT_TYPE = 'terraform-architect';
/** Written into the sub-agent's definition: the server tells the sub-agent's requests from the main agent's by it. */
export const SUBAGENT_MARKER = 'HOST-TEST-SUBAGENT terraform-architect';
const PACKAGE = '@anthropic-ai/claude-code';

/** The version package.json pins (exactly: a range would let the test drift to another host). */
export function pinnedVersion(): string {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const version = manifest.devDependencies?.[PACKAGE];
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(
      `Expected package.json devDependencies to pin ${PACKAGE} to an exact version, got ${JSON.stringify(version)}`,
    );
  }
  return version;
}

/**
 * The Claude Code versions the host test plays against: `AGENT_SESSION_HOST_CLAUDE`, a comma-separated list of
 * `pinned` (the dev dependency), `latest` (the newest build published, see latestVersion) or exact versions; default
 * `pinned,latest`.
 */
export function claudeVersions(): string[] {
  const raw = process.env.AGENT_SESSION_HOST_CLAUDE ?? 'pinned,latest';
  const versions = raw.split(',').map((v) => v.trim());
  const bad = versions.find((v) => !/^(pinned|latest|\d+\.\d+\.\d+)$/.test(v));
  if (bad !== undefined)
    throw new Error(`Expected AGENT_SESSION_HOST_CLAUDE to list pinned, latest or x.y.z versions, got \`${bad}\``);
  return [...new Set(versions)];
}

/** A runnable `claude` and the version it answers. */
export interface Claude {
  readonly path: string;
  readonly version: string;
}

/** This platform's package of Claude Code's native build (what the wrapper's postinstall copies, and what ships). */
export const NATIVE_PACKAGE = `${PACKAGE}-${process.platform}-${process.arch}`;

/**
 * The newest Claude Code published: the greatest of the npm wrapper's `latest`, this platform's native package's
 * `latest` and the Agent SDK's `claudeCodeVersion` (the wrapper stopped at 2.1.332 while native builds went on: lesson
 * 6, "latest" from the wrapper lagged what users run by a week).
 */
export function latestVersion(): string {
  const candidates = [
    registryVersion(`${PACKAGE}@latest`),
    registryVersion(`${NATIVE_PACKAGE}@latest`),
    registryVersion('@anthropic-ai/claude-agent-sdk@latest', 'claudeCodeVersion'),
  ];
  return candidates.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
}

/** Orders two `x.y.z` versions numerically. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
}

/**
 * The native `claude` executable of `which` (see claudeVersions): the pinned dev dependency, or a native build from
 * the npm registry (this platform's package, as the wrapper installs it) installed into
 * node_modules/.cache/agent-session/claude-code-native-<version>/ (once, about 200 MB; a later run reuses it). Each
 * candidate must answer `--version` with the version asked for.
 * @throws Error naming every candidate tried when none is runnable (the suite then fails, never skips)
 */
export function findClaude(which = 'pinned'): Claude {
  if (which === 'pinned') return claudeIn(REPO, pinnedVersion());
  const version = which === 'latest' ? latestVersion() : which;
  const dir = join(REPO, 'node_modules', '.cache', 'agent-session', `claude-code-native-${version}`);
  const binary = join(dir, 'node_modules', ...NATIVE_PACKAGE.split('/'), 'claude');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${NATIVE_PACKAGE}@${version}`],
      { encoding: 'utf8', timeout: 600_000 },
    );
    if (install.status !== 0)
      throw new Error(
        `Could not install ${NATIVE_PACKAGE}@${version} from the npm registry: ${install.stderr.slice(-500)}`,
      );
  }
  const tried: string[] = [];
  const path = firstRunnable([binary], tried, (answer) => answer.startsWith(`${version} `));
  if (path === undefined)
    throw new Error(`Claude Code ${version} (${NATIVE_PACKAGE}) is not runnable here: ${tried.join('; ')}`);
  return { path, version };
}

/** A version field (`version` unless said) of a package spec on the npm registry (`npm view`). */
export function registryVersion(spec: string, field = 'version'): string {
  const view = spawnSync('npm', ['view', spec, field], { encoding: 'utf8', timeout: 120_000 });
  const version =
    view.stdout
      .trim()
      .split('\n')
      .at(-1)
      ?.replace(/^.* '|'$/g, '') ?? '';
  if (view.status !== 0 || !/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(`Could not read the ${field} of ${spec} from the npm registry: ${view.stderr.slice(-300)}`);
  return version;
}

/**
 * The `claude` of `version` installed under `root`. The package's postinstall copies the platform package's binary
 * to `bin/claude.exe`; npm 11 may skip that script, so the platform package's own binary is tried too.
 */
function claudeIn(root: string, version: string): Claude {
  const tried: string[] = [];
  let packageDir: string | undefined;
  try {
    packageDir = dirname(require.resolve(`${PACKAGE}/package.json`, { paths: [root] }));
  } catch {
    tried.push(`${PACKAGE} (not installed under ${root}: run npm ci)`);
  }
  const platform = `${process.platform}-${process.arch}`;
  const candidates = [
    ...(packageDir === undefined ? [] : [join(packageDir, 'bin', 'claude.exe')]),
    ...[`${PACKAGE}-${platform}`, `${PACKAGE}-${platform}-musl`].flatMap((name) => {
      try {
        return [
          join(dirname(require.resolve(`${name}/package.json`, { paths: [packageDir ?? root, root] })), 'claude'),
        ];
      } catch {
        tried.push(`${name} (not installed)`);
        return [];
      }
    }),
  ];
  const path = firstRunnable(candidates, tried, (answer) => answer.startsWith(`${version} `));
  if (path !== undefined) return { path, version };
  throw new Error(`Claude Code ${version} is not runnable here; tried: ${tried.join('; ')}`);
}

/**
 * The first of `candidates` that exists and whose `--version` answer `accepts` (run with a bare environment, so the
 * user's own configuration cannot answer for it); each one passed over is noted in `tried` with why, for the error
 * that names them all.
 */
export function firstRunnable(
  candidates: readonly string[],
  tried: string[],
  accepts: (answer: string) => boolean,
): string | undefined {
  for (const path of candidates) {
    if (!existsSync(path)) {
      tried.push(`${path} (absent)`);
      continue;
    }
    const probe = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
    });
    const answer = `${probe.stdout ?? ''}`.trim();
    if (probe.status === 0 && accepts(answer)) return path;
    tried.push(
      `${path} (--version: status ${probe.status}, ${JSON.stringify(answer || `${probe.error ?? probe.stderr}`.slice(0, 200))})`,
    );
  }
  return undefined;
}

/** How agent-session reached the project, as a newcomer installs it (README "Install"). */
export type Install = 'plugin' | 'npm';

/** A temp project of one run: `HOME` that trusts it, the sub-agent's definition, agent-session installed. */
export interface HostProject {
  readonly base: string;
  readonly home: string;
  readonly dir: string;
  readonly storeRoot: string;
  readonly logDir: string;
  readonly install: Install;
  /** Folders put first on the PATH of every run (the npm prefix's bin/), before this node's. */
  readonly path: readonly string[];
  /** The CLI as the user runs it in this project. */
  readonly cli: readonly string[];
}

/**
 * The npm package as a user installs it: `npm run package` (the tarball a release publishes), then
 * `npm install -g --prefix <dir>/prefix <tarball>`; the bins' folder. Done once per folder: each project runs its
 * own `init`.
 */
export function npmInstall(dir: string): string {
  const bin = join(dir, 'prefix', 'bin');
  if (existsSync(join(bin, 'agent-session'))) return bin;
  mkdirSync(dir, { recursive: true });
  // --no-build: `npm run test:host` has just built dist/.
  const packed = spawnSync('npm', ['run', '-s', 'package', '--', dir, '--no-build'], { cwd: REPO, encoding: 'utf8' });
  const tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  if (packed.status !== 0 || !existsSync(tarball))
    throw new Error(`npm run package failed (status ${packed.status}): ${packed.stderr.slice(-500)}`);
  const install = spawnSync(
    'npm',
    ['install', '-g', '--prefix', join(dir, 'prefix'), '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { encoding: 'utf8', env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` } },
  );
  if (install.status !== 0) throw new Error(`npm install -g of ${tarball} failed: ${install.stderr.slice(-500)}`);
  return bin;
}

/**
 * A fresh temp project and HOME with agent-session installed as `install` says, and nothing written by hand but what
 * a user's one acceptance of the trust dialog leaves: `plugin` runs the real binary's `claude plugin marketplace add
 * <this repository>` and `claude plugin install agent-session@agent-session --scope project`; `npm` runs
 * `agent-session init` from the npm-installed bins (`npmBin`, from npmInstall).
 */
export function makeHostProject(install: Install, claude: Claude, npmBin?: string): HostProject {
  const base = mkdtempSync(join(tmpdir(), 'agent-session-host-'));
  const home = join(base, 'home');
  const dir = join(base, 'project');
  mkdirSync(join(base, 'tmp'));
  mkdirSync(home);
  mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
  // What a user accepting the trust prompt once leaves behind (`-p` cannot show it).
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true } } }, null, 2),
  );
  writeFileSync(
    join(dir, '.claude', 'agents', `${AGENT_TYPE}.md`),
    [
      '---',
      `name: ${AGENT_TYPE}`,
      'description: Plans Terraform changes, waits for the user to approve them, then applies them.',
      'tools: Bash, Write',
      '---',
      `${SUBAGENT_MARKER}. You plan infrastructure changes and record your progress with the commands you are given.`,
      '',
    ].join('\n'),
  );
  if (install === 'npm' && npmBin === undefined) throw new Error('Expected the npm-installed bins (npmInstall)');
  const path = install === 'npm' ? [npmBin!] : [];
  const env = childEnv(home, base, {}, path);
  const run = (command: string, args: string[]): void => {
    const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env, timeout: 120_000 });
    if (result.status !== 0)
      throw new Error(
        `${command} ${args.join(' ')} failed (status ${result.status}): ${result.stderr}${result.stdout}`,
      );
  };
  let cli: string[];
  if (install === 'plugin') {
    run(claude.path, ['plugin', 'marketplace', 'add', REPO, '--scope', 'project']);
    run(claude.path, ['plugin', 'install', 'agent-session@agent-session', '--scope', 'project', '-y']);
    cli = [process.execPath, join(REPO, 'plugin', 'dist', 'agent-session.cjs')];
  } else {
    run('agent-session', ['init']);
    cli = [join(npmBin!, 'agent-session')];
  }
  return {
    base,
    home,
    dir,
    storeRoot: join(dir, '.claude', 'session'),
    logDir: join(dir, '.claude', 'logs'),
    install,
    path,
    cli,
  };
}

/** Runs the project's CLI (as its user would) in the project; its stdout, trimmed. */
export function projectCli(project: HostProject, ...args: string[]): string {
  const [command, ...head] = project.cli;
  const result = spawnSync(command!, [...head, ...args], {
    cwd: project.dir,
    encoding: 'utf8',
    env: childEnv(project.home, project.base, {}, project.path),
  });
  if (result.status !== 0) throw new Error(`agent-session ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * The environment of a run: nothing inherited but PATH (`path` first, then this node: the hooks run `node`), so no
 * variable of the machine (AGENT_SESSION_*, CLAUDE_*, a real API key, the CA bundle) reaches Claude Code or a hook.
 */
function childEnv(
  home: string,
  base: string,
  extra: Record<string, string> = {},
  path: readonly string[] = [],
): NodeJS.ProcessEnv {
  return {
    PATH: [...path, dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    HOME: home,
    TMPDIR: join(base, 'tmp'),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

/** What points Claude Code at the scripted model at `serverUrl` and keeps it from calling anywhere else. */
function scriptedModelEnv(serverUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: 'test',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/** What one `claude -p` run printed (or an interactive run: its last screen as `stdout`, no events). */
export interface ClaudeRun {
  readonly label: string;
  readonly prompt: string;
  readonly status: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly events: readonly Record<string, unknown>[];
  readonly stdout: string;
  readonly stderr: string;
  readonly debugFile: string;
  /** Interactive runs: the permission dialogs the user answered (each "No"; one a hook closed first is not here). */
  readonly prompts?: readonly string[];
}

/**
 * Runs Claude Code interactively, as a user in a terminal: `claude` in a tmux window (200×50), the prompt typed and
 * sent, then `/exit` once `done()` holds (the store reached what the run is for) or after `timeoutMs`; every permission
 * dialog still drawn after REACTION_MS is answered "No" and kept in `prompts`. The first-run
 * screens are answered as a user answers them once (onboarding done, the API key accepted; the trust dialog already
 * is), and the permission mode is the `default` one a user picks (`--permission-mode default`): 2.1.332 starts
 * interactive sessions in auto mode, whose safety check runs on Anthropic's servers and stops at a dialog against a
 * scripted model. The debug file says what stream-json says in print mode; `events` stays empty.
 */
export async function runInteractive(
  claude: string,
  project: HostProject,
  serverUrl: string,
  label: string,
  prompt: string,
  done: () => boolean,
  timeoutMs = 90_000,
  /** More environment variables of the run (`CLAUDE_CODE_DISABLE_BACKGROUND_TASKS`). */
  extraEnv: Readonly<Record<string, string>> = {},
  /** Playing a user who presses Esc once, as soon as this holds (the main turn interrupted while it runs). */
  interruptWhen?: () => boolean,
): Promise<ClaudeRun> {
  const config = join(project.home, '.claude.json');
  const saved = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    config,
    JSON.stringify({
      ...saved,
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: ['test'], rejected: [] },
    }),
  );
  const debugFile = join(project.base, `${label}.debug.log`);
  const env = childEnv(
    project.home,
    project.base,
    {
      ...scriptedModelEnv(serverUrl),
      // An interactive session clones Anthropic's official marketplace from GitHub, which this network does not reach
      // (its failure would fill the debug file with errors that are not ours).
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
      TERM: 'xterm-256color',
      ...extraEnv,
    },
    project.path,
  );
  const session = `agent-session-${process.pid}-${label}`;
  const tmux = (...args: string[]) => spawnSync('tmux', args, { encoding: 'utf8' });
  const pane = (): string => tmux('capture-pane', '-p', '-t', session).stdout ?? '';
  const alive = (): boolean => tmux('has-session', '-t', session).status === 0;
  const started = tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    '200',
    '-y',
    '50',
    '-c',
    project.dir,
    'env',
    '-i',
    ...Object.entries(env).map(([key, value]) => `${key}=${value ?? ''}`),
    claude,
    '--permission-mode',
    'default',
    '--debug-file',
    debugFile,
  );
  if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
  const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
  const until = async (test: () => boolean, ms: number): Promise<boolean> => {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) if (test()) return true;
    return test();
  };
  let screen = '';
  let timedOut = false;
  let interrupted = false;
  let beforeEsc = '';
  const prompts: string[] = [];
  try {
    // Ready for input: the prompt line is drawn.
    if (!(await until(() => pane().includes('❯'), 30_000))) throw new Error(`no prompt on screen: ${pane()}`);
    tmux('send-keys', '-t', session, '-l', prompt);
    await sleep(300);
    tmux('send-keys', '-t', session, 'Enter');
    // 2.1.337 may drop an Enter that comes while it still loads (the prompt stays in the input box): pressed again.
    for (let tries = 0; tries < 5 && !(await until(() => !inputHolds(pane(), prompt), 3000)); tries++)
      tmux('send-keys', '-t', session, 'Enter');
    // Playing the user: a permission dialog is answered "No" (its text kept for the checks), as a user refusing a
    // command they did not expect would, once it has stayed on screen for a person's reaction time. 2.1.337 draws the
    // dialog while the PermissionRequest hooks run and closes it when one answers (seen: our hook slowed by 1.5 s had
    // its own recording command refused by an immediate "No"), so a dialog gone sooner was a hook's to answer.
    let dialogSince: number | undefined;
    timedOut = !(await until(() => {
      const screen = pane();
      if (screen.includes('Do you want to proceed?')) {
        dialogSince ??= Date.now();
        if (Date.now() - dialogSince < REACTION_MS) return false;
        dialogSince = undefined;
        const no = /(\d)\. No\b/.exec(screen)?.[1];
        // The command the dialog asks about, between its two dashed rules (the rest of the screen keeps changing).
        const lines = screen.split('\n');
        const rules = lines.flatMap((line, i) => (/^\s*╌{10,}/.test(line) ? [i] : []));
        const dialog =
          rules.length >= 2
            ? lines
                .slice(rules.at(-2)! + 1, rules.at(-1))
                .map((line) => line.replace(/^\s*│?\s?/, '').trimEnd())
                .join('')
            : screen.slice(screen.lastIndexOf('Bash command'), screen.indexOf('Do you want to proceed?'));
        // The same dialog still drawn after its answer is not a second one.
        if (prompts.at(-1) !== dialog) prompts.push(dialog);
        tmux('send-keys', '-t', session, no ?? 'Escape');
        spawnSync('sleep', ['1']);
        return false;
      }
      dialogSince = undefined;
      if (interruptWhen !== undefined && !interrupted && interruptWhen()) {
        interrupted = true;
        beforeEsc = screen;
        tmux('send-keys', '-t', session, 'Escape');
        return false;
      }
      return done();
    }, timeoutMs));
    // Let the main agent finish its turn (a background agent's notification comes back to it), then leave.
    await sleep(1500);
    if (interrupted) writeFileSync(join(project.base, `${label}.before-esc.screen.txt`), beforeEsc);
    screen = pane();
    tmux('send-keys', '-t', session, '-l', '/exit');
    await sleep(300);
    tmux('send-keys', '-t', session, 'Enter');
    await until(() => !alive(), 15_000);
  } finally {
    if (alive()) tmux('kill-session', '-t', session);
    writeFileSync(config, JSON.stringify(saved, null, 2));
  }
  writeFileSync(join(project.base, `${label}.screen.txt`), screen);
  return {
    label,
    prompt,
    status: 0,
    signal: null,
    timedOut,
    events: [],
    stdout: screen,
    stderr: '',
    debugFile,
    prompts,
  };
}

/** How long a permission dialog stays on screen before the played user answers it: a person reads it first. */
const REACTION_MS = 2000;

/** Whether the input box (the line between the screen's last two rules) still holds the start of `prompt`. */
function inputHolds(screen: string, prompt: string): boolean {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, i) => (/^─{20,}/.test(line) ? [i] : []));
  if (rules.length < 2) return false;
  const input = lines.slice(rules.at(-2)! + 1, rules.at(-1)).join(' ');
  return input.includes(prompt.slice(0, 30));
}

/** What runClaude needs of a project: its folders and PATH (a project without agent-session qualifies too). */
export type RunProject = Pick<HostProject, 'base' | 'home' | 'dir' | 'path'>;

/** More for one run: arguments after the usual ones (`--resume <id>`), and environment variables. */
export interface RunExtras {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs `claude -p <prompt>` in the project against the model server, with stream-json output and a debug file. */
export async function runClaude(
  claude: string,
  project: RunProject,
  serverUrl: string,
  label: string,
  prompt: string,
  timeoutMs = 180_000,
  extras: RunExtras = {},
): Promise<ClaudeRun> {
  const debugFile = join(project.base, `${label}.debug.log`);
  const args = [
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-hook-events',
    '--debug-file',
    debugFile,
    ...(extras.args ?? []),
  ];
  const env = childEnv(
    project.home,
    project.base,
    {
      ...scriptedModelEnv(serverUrl),
      ...extras.env,
    },
    project.path,
  );
  const child = spawn(claude, args, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const [status, signal] = await new Promise<[number | null, string | null]>((done) => {
    child.on('error', (error) => {
      stderr += `spawn error: ${error.message}\n`;
      done([null, null]);
    });
    child.on('close', (code, sig) => done([code, sig]));
  });
  clearTimeout(timer);
  const events = stdout
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  writeFileSync(join(project.base, `${label}.stream.jsonl`), stdout);
  return { label, prompt, status, signal, timedOut, events, stdout, stderr, debugFile };
}

/**
 * The sub-agents Claude Code itself recorded in the project's transcripts (`~/.claude/projects/<project>/<session>/
 * subagents/agent-<id>.jsonl`), for interactive runs, whose terminal gives no stream-json.
 */
export function transcriptAgents(project: HostProject): string[] {
  const root = join(project.home, '.claude', 'projects');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/^agent-(a[0-9a-f]+)\.jsonl$/.test(entry.name) && dir.endsWith('subagents'))
        found.push(/^agent-(a[0-9a-f]+)\.jsonl$/.exec(entry.name)![1]!);
    }
  };
  walk(root);
  return found;
}

/** The sessions in the store, read from disk as they are (no validation: a broken one must show up, not throw). */
export function storeSessions(project: HostProject): StoredSession[] {
  if (!existsSync(project.storeRoot)) return [];
  return readdirSync(project.storeRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) => {
      const file = join(project.storeRoot, entry.name, 'state.json');
      return existsSync(file)
        ? [JSON.parse(readFileSync(file, 'utf8')) as StoredSession]
        : [{ agent_id: entry.name, phase: '(no state.json)' }];
    })
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
}

/** Our hook log lines (every log file of the project's log folder; its folders, such as the Stop hook's `told/`, skipped). */
export function hookLog(project: HostProject): string[] {
  return hookLogSince(project, {});
}

/** How many lines each hook log file holds now: a mark for hookLogSince. */
export function hookLogMark(project: HostProject): Readonly<Record<string, number>> {
  return Object.fromEntries(Object.entries(hookLogFiles(project)).map(([file, lines]) => [file, lines.length]));
}

/**
 * The hook log's lines written after `mark`, file by file: the files are listed one after the other, so one count
 * over all of them would skip a file's new lines whenever a later file grew (the Stop hook's lines did).
 */
export function hookLogSince(project: HostProject, mark: Readonly<Record<string, number>>): string[] {
  return Object.entries(hookLogFiles(project)).flatMap(([file, lines]) =>
    lines.slice(mark[file] ?? 0).map((line) => `${file}: ${line}`),
  );
}

function hookLogFiles(project: HostProject): Record<string, string[]> {
  if (!existsSync(project.logDir)) return {};
  const files = readdirSync(project.logDir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  return Object.fromEntries(
    files.map((file) => [
      file,
      readFileSync(join(project.logDir, file), 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    ]),
  );
}

/** Lines of Claude Code's debug file that report a hook failing or its output being refused. */
const COMPLAINT =
  /validation failed|\[ERROR\]|finished with status (?!0\b)\d+|hook.*(cancelled|timed out|blocking error)/i;

/**
 * What Claude Code's debug file says against our hooks: its complaints, and the absence of the line that shows it
 * took our SubagentStart answer (so a debug file that logged no hook at all cannot pass as clean). `expected`: the
 * text of an API error the play injected on purpose; the lines reporting it are not complaints about our hooks.
 */
export function debugComplaints(run: ClaudeRun, expected?: string): string[] {
  if (!existsSync(run.debugFile)) return [`${run.label}: no debug file ${run.debugFile}`];
  const lines = readFileSync(run.debugFile, 'utf8').split('\n');
  const complaints = lines
    .filter((line) => COMPLAINT.test(line) && (expected === undefined || !line.includes(expected)))
    .map((line) => `${run.label}: ${line.slice(0, 300)}`);
  if (!lines.some((line) => /Hook SubagentStart \(.*pre-delegate.*\) provided additionalContext/.test(line))) {
    complaints.push(`${run.label}: no "Hook SubagentStart (…pre-delegate…) provided additionalContext" line`);
  }
  return complaints;
}

/**
 * Whether the debug file shows a hook of `event` that ran our `bin` and exited 0: `StopFailure:unknown ["…node"
 * "…/subagent-stop.cjs"] completed with status 0`. For the events stream-json does not report (StopFailure, whose
 * output Claude Code ignores).
 */
export function debugHookRan(run: ClaudeRun, event: string, bin: string): boolean {
  if (!existsSync(run.debugFile)) return false;
  const pattern = new RegExp(String.raw`\b${event}(?::\w+)? \[.*${bin}.*\] completed with status 0`);
  return readFileSync(run.debugFile, 'utf8')
    .split('\n')
    .some((line) => pattern.test(line));
}

/** The hook runs stream-json reported (`--include-hook-events`). */
export function hookResponses(run: ClaudeRun): Record<string, unknown>[] {
  return run.events.filter((e) => e.type === 'system' && e.subtype === 'hook_response');
}

/** The text of the run's last `result` event: what the user of `claude -p` sees. */
export function resultText(run: ClaudeRun): string | undefined {
  const results = run.events.filter((e) => e.type === 'result');
  const last = results.at(-1);
  return typeof last?.result === 'string' ? last.result : undefined;
}

/** The Claude agent ids the run started (stream-json `task_started`). */
export function startedAgents(run: ClaudeRun): string[] {
  return run.events.filter((e) => e.type === 'system' && e.subtype === 'task_started').map((e) => String(e.task_id));
}

/** Whether each agent the run started ran in the background (stream-json `task_started.is_backgrounded`). */
export function backgrounded(run: ClaudeRun): boolean[] {
  return run.events
    .filter((e) => e.type === 'system' && e.subtype === 'task_started')
    .map((e) => e.is_backgrounded === true);
}

/** The events `init` wired in the project's settings (a check on the main agent's context depends on them). */
export function wiredEvents(project: HostProject): string[] {
  // init's per-machine file; a plugin install has none (its hooks are the plugin's).
  const file = join(project.dir, '.claude', 'settings.local.json');
  if (!existsSync(file)) return [];
  const settings = JSON.parse(readFileSync(file, 'utf8')) as {
    hooks?: object;
  };
  return Object.keys(settings.hooks ?? {});
}

/** Every string inside a value, in order (message contents nest text in blocks, tool results, arrays). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** A hook context as Claude Code placed it in a request: `<Event[:Tool]> hook additional context: <text>`. */
export interface DeliveredContext {
  readonly hook: string;
  readonly text: string;
}

/**
 * The hook contexts inside the messages of a request. Claude Code appends its own text in the same block (its
 * "# Environment" section to SubagentStart's, "Today's date is …" to UserPromptSubmit's), so a context ends there,
 * at the next context, or at the end of its text block.
 */
export function contextsIn(messages: unknown): DeliveredContext[] {
  const found: DeliveredContext[] = [];
  const end = String.raw`(?=\n\n# Environment\n|\n\nToday's date is |\n\w+(?::\w+)? hook additional context: |$)`;
  const pattern = new RegExp(String.raw`(\w+(?::\w+)?) hook additional context: ([\s\S]*?)` + end, 'g');
  for (const text of stringsIn(messages)) {
    for (const match of text.matchAll(pattern)) found.push({ hook: match[1] ?? '', text: (match[2] ?? '').trim() });
  }
  return found;
}
