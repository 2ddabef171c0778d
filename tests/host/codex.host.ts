// The real OpenAI Codex CLI (the pinned `@openai/codex` dev dependency) drives agent-session as a newcomer installs
// it: the npm package installed (`npm install -g` of the packed tarball), `agent-session init --host codex` in a fresh
// project under a fresh HOME with the pinned Codex on the PATH (init reads its version), nothing else written by hand
// but the user's own model provider (a scripted Responses API on 127.0.0.1) and the sub-agent's definition. `codex exec` runs with `--trust` (the project-trust prompt a user
// accepts once) and `--dangerously-bypass-hook-trust` (the `/hooks` review a user does once in the TUI). Plays:
// park → resume (offered at the spawn_agent's PreToolUse, which Codex matches by the alias `Agent`) → complete, beside
// a parked Claude Code session of the same agent name that Codex must never take;
// and park → resume → an API error in executing (interrupted) → carried on → complete, under the read-only sandbox
// (the recording command runs by init's `.codex/rules` allow). When Codex cannot run here, the suite fails.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { npmInstall, REPO } from './claude-host';
import {
  calledTools,
  inputText,
  startResponsesServer,
  toolOutputs,
  type OutputItem,
  type ResponsesBody,
  type ResponsesReply,
  type ResponsesServer,
} from './responses-server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a state as the CLI printed it, read loosely on purpose
type Listed = Record<string, any>;

const PACKAGE = '@openai/codex';
const AGENT_TYPE = 'terraform-architect';
/** In the sub-agent's developer instructions: the server tells the sub-agent's requests from the main agent's by it. */
const MARKER = 'HOST-TEST-CODEX-SUBAGENT terraform-architect';

/** What the scripted sub-agent does in the current run: the phase it records, and whether its next request fails. */
interface SubagentStep {
  readonly phase: string;
  readonly fail?: boolean;
}

/** The version package.json pins (exactly: a range would let the test drift to another Codex). */
function pinnedVersion(): string {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const version = manifest.devDependencies?.[PACKAGE];
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(`Expected package.json devDependencies to pin ${PACKAGE} exactly, got ${JSON.stringify(version)}`);
  return version;
}

/** The pinned Codex's launcher (bin/codex.js, which runs the platform package's native binary), checked to run. */
function findCodex(): string {
  const version = pinnedVersion();
  let launcher: string;
  try {
    launcher = join(dirname(require.resolve(`${PACKAGE}/package.json`, { paths: [REPO] })), 'bin', 'codex.js');
  } catch {
    throw new Error(`${PACKAGE} is not installed under ${REPO}: run npm ci`);
  }
  const probe = spawnSync(process.execPath, [launcher, '--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
  });
  const answer = `${probe.stdout ?? ''}`.trim();
  if (probe.status !== 0 || answer !== `codex-cli ${version}`)
    throw new Error(
      `Codex ${version} is not runnable here: ${launcher} --version gave status ${probe.status}, ` +
        `${JSON.stringify(answer || `${probe.error ?? probe.stderr}`.slice(0, 300))}`,
    );
  return launcher;
}

/** A fresh project and HOME: the user's model provider, the sub-agent's definition, `init --host codex` run. */
interface CodexProject {
  readonly home: string;
  readonly dir: string;
  readonly root: string;
  readonly bin: string;
}

function makeProject(base: string, name: string, server: ResponsesServer, bin: string): CodexProject {
  const home = join(base, name, 'home');
  const dir = join(base, name, 'project');
  mkdirSync(join(home, '.codex'), { recursive: true });
  mkdirSync(join(dir, '.codex', 'agents'), { recursive: true });
  // The user's own model configuration: a custom provider speaking the Responses API.
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      'model = "host-test-model"',
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${server.baseUrl}"`,
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  // The project's custom agent: what `spawn_agent`'s agent_type names (Codex's own file, written by the user).
  writeFileSync(
    join(dir, '.codex', 'agents', `${AGENT_TYPE}.toml`),
    [
      `name = "${AGENT_TYPE}"`,
      'description = "Plans Terraform changes, waits for the approval, then applies them."',
      `developer_instructions = "${MARKER}: plan, record the phase, stop for the approval."`,
      '',
    ].join('\n'),
  );
  const init = spawnSync(join(bin, 'agent-session'), ['init', '--host', 'codex'], {
    cwd: dir,
    encoding: 'utf8',
    env: environment(home, bin),
  });
  if (init.status !== 0) throw new Error(`agent-session init --host codex failed: ${init.stdout}${init.stderr}`);
  return { home, dir, root: join(dir, '.claude', 'session'), bin };
}

function environment(home: string, bin: string): Record<string, string> {
  // The pinned Codex on the PATH, as a user's `npm install -g @openai/codex` puts it: `init` reads its version.
  return { HOME: home, PATH: `${bin}:${codexBin}:${dirname(process.execPath)}:/usr/bin:/bin`, LANG: 'C.UTF-8' };
}

/** One `codex exec` run in the project; its output, for the failure message. */
async function runCodex(
  launcher: string,
  project: CodexProject,
  server: ResponsesServer,
  label: string,
  sandbox?: string,
): Promise<string> {
  server.setRun(label);
  const args = [
    launcher,
    'exec',
    '--trust',
    '--dangerously-bypass-hook-trust',
    '--skip-git-repo-check',
    ...(sandbox === undefined ? [] : ['-s', sandbox]),
    'Plan the network change with the terraform-architect agent.',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: project.dir,
      env: environment(project.home, project.bin),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`codex exec (${label}) exited ${code}:\n${output.slice(-3000)}`));
    });
  });
}

function cli(project: CodexProject, ...args: string[]): string {
  const run = spawnSync(join(project.bin, 'agent-session'), ['--dir', project.root, ...args], {
    cwd: project.dir,
    encoding: 'utf8',
    env: environment(project.home, project.bin),
  });
  if (run.status !== 0) throw new Error(`agent-session ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** The log of the pre-delegate hook's runs in the project (one line per event answered or left alone). */
function hookLog(project: CodexProject): string {
  const file = join(project.dir, '.claude', 'logs', 'pre_delegate.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

function sessions(project: CodexProject): Listed[] {
  return JSON.parse(cli(project, 'list', '--json')) as Listed[];
}

function stateOf(project: CodexProject, id: string): Listed {
  return JSON.parse(readFileSync(join(project.root, id, 'state.json'), 'utf8')) as Listed;
}

/** The command the SubagentStart context hands the sub-agent for its phase, without the `--phase <…>` part. */
function phaseCommand(text: string): string | undefined {
  return /^- phase: (.+) --phase <[^>]*>$/m.exec(text)?.[1];
}

/** The scripted model: the main agent spawns the sub-agent and waits; the sub-agent records `step` and stops. */
function script(steps: { current: SubagentStep }, seen: { run: string; role: string; text: string }[]) {
  return (body: ResponsesBody, request: { run: string }): { role: string; reply: ResponsesReply } => {
    const text = inputText(body);
    const subagent = text.includes(MARKER) && !calledTools(body).includes('spawn_agent');
    const outputs = toolOutputs(body);
    seen.push({ run: request.run, role: subagent ? 'subagent' : 'main', text });
    if (subagent) {
      const command = phaseCommand(text);
      if (outputs.length === 0 && command !== undefined)
        return reply('subagent', {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: `${command} --phase ${steps.current.phase}` },
        });
      if (steps.current.fail === true)
        return {
          role: 'subagent',
          reply: {
            error: { status: 400, type: 'invalid_request_error', message: 'scripted failure (key sk-hosttest123456)' },
          },
        };
      return reply('subagent', { type: 'message', text: `Recorded ${steps.current.phase}; stopping here.` });
    }
    if (outputs.length === 0)
      return reply('main', {
        type: 'function_call',
        namespace: 'multi_agent_v1',
        name: 'spawn_agent',
        arguments: { agent_type: AGENT_TYPE, message: 'Plan the network change.' },
      });
    if (outputs.length === 1) {
      const agentId = /"agent_id"\s*:\s*"([^"]+)"/.exec(outputs[0]!)?.[1] ?? 'unknown';
      return reply('main', {
        type: 'function_call',
        namespace: 'multi_agent_v1',
        name: 'wait_agent',
        arguments: { targets: [agentId], timeout_ms: 120_000 },
      });
    }
    return reply('main', { type: 'message', text: 'The sub-agent has reported.' });
  };
}

function reply(role: string, item: OutputItem): { role: string; reply: ResponsesReply } {
  return { role, reply: { items: [item] } };
}

let launcher: string | Error;
let bin: string | Error;
const base = mkdtempSync(join(tmpdir(), 'agent-session-codex-host-'));
/** A folder holding `codex`: the pinned launcher. */
const codexBin = join(base, 'codex-bin');
const steps: { current: SubagentStep } = { current: { phase: 'approval' } };
const seen: { run: string; role: string; text: string }[] = [];
let server: ResponsesServer;

beforeAll(async () => {
  try {
    launcher = findCodex();
    mkdirSync(codexBin);
    symlinkSync(launcher, join(codexBin, 'codex'));
  } catch (error) {
    launcher = error as Error;
  }
  try {
    bin = npmInstall(join(base, 'npm'));
  } catch (error) {
    bin = error as Error;
  }
  server = await startResponsesServer(script(steps, seen));
});

afterAll(async () => {
  await server?.close();
  process.stderr.write(`\ncodex host test folders: ${base}\n`);
});

/** The Codex launcher and the installed bins, or the reason they are missing (the test then fails with it). */
function ready(): { codex: string; bins: string } {
  if (launcher instanceof Error) throw launcher;
  if (bin instanceof Error) throw bin;
  return { codex: launcher, bins: bin };
}

function subagentTexts(run: string): string[] {
  return seen.filter((entry) => entry.run === run && entry.role === 'subagent').map((entry) => entry.text);
}

it(`Codex ${pinnedVersion()}, installed by npm and init --host codex: parks in approval, a second run resumes it and it completes; a parked Claude Code session of the same agent is never taken`, async () => {
  const { codex, bins } = ready();
  const project = makeProject(base, 'park-resume', server, bins);
  expect(existsSync(join(project.dir, '.codex', 'hooks.json'))).toBe(true);
  // init read the pinned Codex's version: 0.141.0+ matches spawn_agent by the alias `Agent` (src/core/events.ts).
  const wired = JSON.parse(readFileSync(join(project.dir, '.codex', 'hooks.json'), 'utf8')) as Listed;
  expect(wired.hooks.PreToolUse).toEqual([expect.objectContaining({ matcher: 'Task|Agent|SendMessage' })]);
  // The rule names the `record` entry with the store's pin: the sub-agent's recording runs through it, under the
  // thread's own CODEX_THREAD_ID (src/cli/record.ts checks the session is linked to that thread).
  expect(readFileSync(join(project.dir, '.codex', 'rules', 'agent-session.rules'), 'utf8')).toMatch(
    /"record", "--dir", "[^"]+", "--pin", "[0-9a-f]{16}"\],\n {4}decision = "allow"/,
  );
  // A Claude Code session of the same agent name, parked in the same store (made by the CLI: no host, Claude Code's).
  const claudeId = cli(project, 'create', '--agent', AGENT_TYPE, '--purpose', 'claude_code_subagent').trim();
  cli(project, 'update', claudeId, '--phase', 'approval');

  steps.current = { phase: 'approval' };
  await runCodex(codex, project, server, 'park');
  const parked = sessions(project).filter((s) => s.host === 'codex');
  expect(parked).toHaveLength(1);
  const codexId = parked[0]!.agent_id as string;
  expect(parked[0]).toMatchObject({ agent_name: AGENT_TYPE, phase: 'approval', resumable_now: true });
  const afterPark = stateOf(project, codexId);
  expect(afterPark).toMatchObject({ host: 'codex', schema_version: 6, phase: 'approval' });
  expect(afterPark.claude.stopped_at).toEqual(expect.any(String));
  expect(afterPark.claude.last_message).toBe('Recorded approval; stopping here.');
  expect(subagentTexts('park').join('\n')).toContain(`recorded in session ${codexId}`);
  // The spawn_agent call fired our PreToolUse (matcher `Agent`): nothing parked yet, so nothing offered.
  expect(hookLog(project)).toContain(`codex event="PreToolUse" nothing_to_resume agent="${AGENT_TYPE}"`);

  // The Claude Code session becomes the agent name's newest: Codex's lookup must still find its own.
  cli(project, 'update', claudeId, '--metadata', '{"touched": true}');
  steps.current = { phase: 'executing' };
  await runCodex(codex, project, server, 'resume');
  const resumed = stateOf(project, codexId);
  expect(resumed.phase).toBe('completed');
  expect(resumed.history.filter((entry: Listed) => entry.event === 'resume')).toHaveLength(1);
  const resumeText = subagentTexts('resume').join('\n');
  expect(resumeText).toContain(`resumes session ${codexId}`);
  expect(resumeText).not.toContain(claudeId);
  // The main agent was told what was parked before it delegated (SessionStart / UserPromptSubmit context).
  const mainText = seen
    .filter((e) => e.run === 'resume' && e.role === 'main')
    .map((e) => e.text)
    .join('\n');
  expect(mainText).toContain(`session ${codexId}, phase approval`);
  // The spawn_agent's PreToolUse (the alias `Agent`) offered the parked session, and Codex handed the main agent the
  // offer with the call's result; the sub-agent's SubagentStart then resumed that same session (one session).
  expect(hookLog(project)).toContain(
    `codex event="PreToolUse" resume_offered agent="${AGENT_TYPE}" session="${codexId}"`,
  );
  expect(mainText).toContain(`sub-agent "${AGENT_TYPE}" had a resumable session when this delegation was made`);
  expect(mainText).toContain(`- Session id: ${codexId}`);
  const claude = stateOf(project, claudeId);
  expect(claude.host).toBeUndefined();
  expect(claude).toMatchObject({ phase: 'approval', metadata: { touched: true } });
  expect(claude.claude).toBeUndefined();
  const all = sessions(project);
  expect(all.map((s) => [s.agent_id, s.host]).sort()).toEqual(
    [
      [claudeId, 'claude-code'],
      [codexId, 'codex'],
    ].sort(),
  );
  expect(cli(project, 'list')).toMatch(/HOST[\s\S]*codex[\s\S]*claude-code|HOST[\s\S]*claude-code[\s\S]*codex/);
  expect(cli(project, 'show', codexId)).toMatch(/Host\s+codex/);
});

it(`Codex ${pinnedVersion()} under the read-only sandbox: parks, a second run resumes it and dies of an API error in executing (interrupted, no SubagentStop), a third run carries it on to completed`, async () => {
  const { codex, bins } = ready();
  const project = makeProject(base, 'interrupted', server, bins);
  steps.current = { phase: 'approval' };
  await runCodex(codex, project, server, 'i-park', 'read-only');
  const [parked] = sessions(project);
  expect(parked).toMatchObject({ host: 'codex', phase: 'approval' });
  const id = parked!.agent_id as string;

  steps.current = { phase: 'executing', fail: true };
  await runCodex(codex, project, server, 'i-fail', 'read-only');
  const interrupted = stateOf(project, id);
  expect(interrupted.phase).toBe('executing');
  expect(interrupted.interruption).toMatchObject({ count: 1, error: 'invalid_request', phase: 'executing' });
  expect(interrupted.interruption.message).toContain('sk-[masked]');
  expect(interrupted.interruption.message).not.toContain('sk-hosttest123456');

  steps.current = { phase: 'validating' };
  await runCodex(codex, project, server, 'i-carry', 'read-only');
  expect(subagentTexts('i-carry').join('\n')).toContain(`resumes session ${id}`);
  expect(subagentTexts('i-carry').join('\n')).toContain('was interrupted by');
  const done = stateOf(project, id);
  expect(done.phase).toBe('completed');
  expect(done.interruption).toMatchObject({ count: 1, carried_on: 1 });
});
