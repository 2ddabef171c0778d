// The real opencode (the pinned `opencode-ai` dev dependency) drives agent-session as a newcomer installs it: the npm
// package installed (`npm install -g` of the packed tarball), `agent-session init --host opencode` in a fresh project
// under a fresh HOME, nothing else written by hand but the user's own model provider (the scripted chat-completions
// server of tests/host/chat-server.ts on 127.0.0.1, in opencode.json) and the sub-agent's definition
// (`.opencode/agent/<name>.md`). The harness (tests/host/opencode-host.ts) pre-provides `@opencode-ai/plugin` as
// opencode's own install would leave it, so the runs stay offline. One play, six `opencode run`s: park in approval →
// resumed by `task_id` (the same child session) → completed, beside a parked Claude Code session of the same agent name
// that opencode must never take; a new session dies of an API error in executing (interrupted) → carried on →
// completed; a run stopped by Ctrl-C while its sub-agent works, found interrupted by the next run and carried on; then
// `--uninstall` removes the plugin file. When opencode cannot run here, the test fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmInstall } from './claude-host';
import {
  startChatServer,
  systemText,
  toolResults,
  userTexts,
  type ChatBody,
  type ChatReply,
  type ChatRequest,
  type ChatServer,
} from './chat-server';
import {
  findOpencode,
  makeOpencodeProject,
  pinnedOpencode,
  runOpencode,
  type Opencode,
  type OpencodeProject,
} from './opencode-host';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a state as the CLI printed it, read loosely on purpose
type Listed = Record<string, any>;

const AGENT = 'terraform-architect';
/** In the sub-agent's system prompt: the server tells its requests from the main agent's by it. */
const MARKER = 'HOST-TEST-OPENCODE-SUBAGENT terraform-architect';

/** What the scripted sub-agent does in the current run: the phase it records, and whether its next request fails. */
interface SubagentStep {
  readonly phase: string;
  readonly fail?: boolean;
  /** After recording, its next request waits a minute (the test stops opencode then, as a user's Ctrl-C). */
  readonly slow?: boolean;
}

/** The command the SubagentStart context hands the sub-agent for its phase, without the `--phase <…>` part. */
function phaseCommand(text: string): string | undefined {
  return /^- phase: (.+) --phase <[^>]*>$/m.exec(text)?.[1];
}

/**
 * The model: the title generator gets a title; the sub-agent (the marker in its system prompt) records the step's
 * phase with the command its context gives (bash), then answers or fails (HTTP 400); the main agent delegates once to
 * the sub-agent by `task`, then says it is done.
 */
function script(steps: { current: SubagentStep }, slowSeen: () => void) {
  return (body: ChatBody): { role: string; reply: ChatReply } => {
    const system = systemText(body);
    if (system.includes('You are a title generator')) return { role: 'title', reply: { text: 'Plan' } };
    const last = body.messages?.at(-1);
    if (system.includes(MARKER)) {
      const command = phaseCommand(userTexts(body).at(-1) ?? '');
      if (last?.role !== 'tool' && command !== undefined)
        return {
          role: 'subagent',
          reply: {
            toolCalls: [
              {
                name: 'bash',
                arguments: { command: `${command} --phase ${steps.current.phase}`, description: 'record' },
              },
            ],
          },
        };
      if (steps.current.slow === true) {
        slowSeen();
        return { role: 'subagent', reply: { text: 'too late', delayMs: 60_000 } };
      }
      if (steps.current.fail === true)
        return {
          role: 'subagent',
          reply: { error: { status: 400, message: 'scripted failure (key sk-hosttest123456)' } },
        };
      return { role: 'subagent', reply: { text: `Recorded ${steps.current.phase}; stopping here.` } };
    }
    if (toolResults(body).length === 0)
      return {
        role: 'main',
        reply: {
          toolCalls: [
            {
              name: 'task',
              arguments: { description: 'plan the change', prompt: 'Plan the network change.', subagent_type: AGENT },
            },
          ],
        },
      };
    return { role: 'main', reply: { text: 'MAIN DONE' } };
  };
}

const base = mkdtempSync(join(tmpdir(), 'agent-session-opencode-session-'));
const steps: { current: SubagentStep } = { current: { phase: 'approval' } };
let opencode: Opencode | Error;
let bins: string | Error;
let server: ChatServer;
/** The plays that passed: the folders are removed only when both did. */
let passed = 0;
let slowSeen: () => void = () => undefined;

beforeAll(async () => {
  try {
    opencode = findOpencode();
  } catch (error) {
    opencode = error as Error;
  }
  try {
    bins = npmInstall(join(base, 'npm'));
  } catch (error) {
    bins = error as Error;
  }
  server = await startChatServer(script(steps, () => slowSeen()));
});

afterAll(async () => {
  await server?.close();
  process.stderr.write(`\nopencode session host test folders: ${base}\n`);
  if (passed === 2 && process.env.AGENT_SESSION_HOST_KEEP !== '1') rmSync(base, { recursive: true, force: true });
});

/** The CLI as the user runs it (the npm-installed bin), in the project; throws on a non-zero exit. */
function cli(project: OpencodeProject, bin: string, ...args: string[]): string {
  const run = spawnSync(join(bin, 'agent-session'), args, {
    cwd: project.dir,
    encoding: 'utf8',
    env: { ...project.env, PATH: `${bin}:${project.env.PATH}` },
  });
  if (run.status !== 0) throw new Error(`agent-session ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

function stateOf(project: OpencodeProject, id: string): Listed {
  return JSON.parse(readFileSync(join(project.dir, '.claude', 'session', id, 'state.json'), 'utf8')) as Listed;
}

/** One run; it must end with the main agent's `MAIN DONE` (opencode exits 0 even when a sub-agent failed). */
async function play(project: OpencodeProject, label: string): Promise<void> {
  const run = await runOpencode(project, server, label, 'Plan the network change with the terraform-architect agent.', {
    timeoutMs: 240_000,
  });
  const texts = run.events.filter((e) => e.type === 'text').map((e) => String((e.part as Listed | undefined)?.text));
  expect({ label, status: run.status, said: texts.at(-1) }).toEqual({ label, status: 0, said: 'MAIN DONE' });
}

const byRole = (label: string, role: string): ChatRequest[] =>
  server.requests.filter((r) => r.run === label && r.role === role);
const texts = (label: string, role: string): string =>
  byRole(label, role)
    .map((r) => userTexts(r.body ?? {}).join('\n'))
    .join('\n');
const childOf = (label: string): Set<string> =>
  new Set(byRole(label, 'subagent').map((r) => String(r.headers['x-session-id'])));

it(`opencode ${pinnedOpencode()}, installed by npm and init --host opencode: parks, resumes by task_id and completes beside a parked Claude Code session it never takes; an API error and a Ctrl-C interrupt sessions, carried on; --uninstall removes the plugin`, async () => {
  if (opencode instanceof Error) throw opencode;
  if (bins instanceof Error) throw bins;
  const bin = bins;
  const project = makeOpencodeProject(base, 'play', opencode, server, {
    agents: { [AGENT]: { description: 'Plans Terraform changes. Use it when told to.', prompt: MARKER } },
  });
  const wired = cli(project, bin, 'init', '--host', 'opencode');
  const pluginFile = join(project.dir, '.opencode', 'plugin', 'agent-session.js');
  expect(wired).toContain(`+ ${pluginFile}`);
  expect(readFileSync(pluginFile, 'utf8')).toContain('library.opencodePlugin(input)');
  // A Claude Code session of the same agent name, parked in the same store (made by the CLI: no host, Claude Code's).
  const claudeId = cli(project, bin, 'create', '--agent', AGENT, '--purpose', 'claude_code_subagent').trim();
  cli(project, bin, 'update', claudeId, '--phase', 'approval');

  // 1. Park: a new session, host opencode (schema 14 with its task), its link holding the task call and the child session.
  steps.current = { phase: 'approval' };
  await play(project, 'park');
  const listed = (JSON.parse(cli(project, bin, 'list', '--json')) as Listed[]).filter((s) => s.host === 'opencode');
  expect(listed).toHaveLength(1);
  const id = listed[0]!.agent_id as string;
  const parked = stateOf(project, id);
  // The task call's words kept as its task (issue 44 item 7): schema 14.
  expect(parked).toMatchObject({ host: 'opencode', schema_version: 14, phase: 'approval', agent_name: AGENT });
  expect(parked.task).toMatchObject({ description: 'plan the change', prompt: 'Plan the network change.' });
  expect(parked.claude).toMatchObject({
    stopped_at: expect.any(String),
    last_message: 'Recorded approval; stopping here.',
    session_id: expect.stringMatching(/^ses_/),
  });
  const [firstChild] = childOf('park');
  expect(childOf('park')).toEqual(new Set([parked.claude.session_id]));
  expect(texts('park', 'subagent')).toContain(`recorded in session ${id}`);

  // 2. Resume: the overview told the main agent; the task continued the same child (task_id), told of its session.
  cli(project, bin, 'update', claudeId, '--metadata', '{"touched": true}');
  steps.current = { phase: 'executing' };
  await play(project, 'resume');
  expect(texts('resume', 'main')).toContain(`session ${id}, phase approval`);
  expect(childOf('resume')).toEqual(new Set([firstChild]));
  const resumeText = texts('resume', 'subagent');
  expect(resumeText).toContain('Plan the network change.');
  expect(resumeText).toContain(`resumes session ${id}`);
  expect(resumeText).not.toContain(claudeId);
  const resumed = stateOf(project, id);
  expect(resumed.phase).toBe('completed');
  expect(resumed.history.filter((entry: Listed) => entry.event === 'resume')).toHaveLength(1);
  const claude = stateOf(project, claudeId);
  expect(claude.host).toBeUndefined();
  expect(claude).toMatchObject({ phase: 'approval', metadata: { touched: true } });
  expect(claude.claude).toBeUndefined();

  // 3. An API error in executing: a new session (the first is final), interrupted.
  steps.current = { phase: 'executing', fail: true };
  await play(project, 'fail');
  const failing = (JSON.parse(cli(project, bin, 'list', '--json')) as Listed[]).filter(
    (s) => s.host === 'opencode' && s.agent_id !== id,
  );
  expect(failing).toHaveLength(1);
  const failedId = failing[0]!.agent_id as string;
  const interrupted = stateOf(project, failedId);
  expect(interrupted.phase).toBe('executing');
  expect(interrupted.interruption).toMatchObject({ count: 1, error: 'invalid_request', phase: 'executing' });
  expect(interrupted.interruption.message).toContain('sk-[masked]');

  // 4. Carried on: the next delegation resumes it, told of the interruption, in the failed child (task_id).
  steps.current = { phase: 'validating' };
  await play(project, 'carry');
  expect(childOf('carry')).toEqual(childOf('fail'));
  expect(texts('carry', 'subagent')).toContain(`resumes session ${failedId}`);
  expect(texts('carry', 'subagent')).toContain('was interrupted by');
  const done = stateOf(project, failedId);
  expect(done.phase).toBe('completed');
  expect(done.interruption).toMatchObject({ count: 1, carried_on: 1 });

  // 5. Ctrl-C while a sub-agent works (opencode fires nothing): the next delegation finds the session left running by
  // a process that is gone, records the interruption and carries it on, in the same child (task_id).
  steps.current = { phase: 'executing', slow: true };
  const slow = new Promise<void>((resolve) => (slowSeen = resolve));
  const killed = await runOpencode(
    project,
    server,
    'kill',
    'Plan the network change with the terraform-architect agent.',
    {
      timeoutMs: 240_000,
      interrupt: { signal: 'SIGINT', when: slow },
    },
  );
  expect(killed.status).not.toBe(0);
  const running = (JSON.parse(cli(project, bin, 'list', '--json')) as Listed[]).filter(
    (s) => s.host === 'opencode' && s.agent_id !== id && s.agent_id !== failedId,
  );
  expect(running).toHaveLength(1);
  const killedId = running[0]!.agent_id as string;
  expect(stateOf(project, killedId)).toMatchObject({
    phase: 'executing',
    claude: { agent_id: expect.stringMatching(/@/) },
  });
  expect(stateOf(project, killedId).claude.stopped_at).toBeUndefined();
  steps.current = { phase: 'validating' };
  await play(project, 'after-kill');
  expect(childOf('after-kill')).toEqual(childOf('kill'));
  expect(texts('after-kill', 'subagent')).toContain(`resumes session ${killedId}`);
  expect(texts('after-kill', 'subagent')).toContain('its host run being stopped while it worked');
  expect(stateOf(project, killedId)).toMatchObject({
    phase: 'completed',
    interruption: { count: 1, error: 'run_stopped', carried_on: 1 },
  });

  // The CLI names the host.
  expect(cli(project, bin, 'list')).toMatch(/HOST[\s\S]*opencode/);
  expect(cli(project, bin, 'show', id)).toMatch(/Host\s+opencode/);

  // --uninstall removes exactly the plugin file (the agents' folder is the user's).
  expect(cli(project, bin, 'init', '--host', 'opencode', '--uninstall')).toContain(`- ${pluginFile}`);
  expect(existsSync(pluginFile)).toBe(false);
  expect(existsSync(join(project.dir, '.opencode', 'agent', `${AGENT}.md`))).toBe(true);
  passed++;
});

it(`opencode ${pinnedOpencode()} with bash set to ask: the sub-agent's own recording command runs (the plugin replies before opencode run's own reject)`, async () => {
  if (opencode instanceof Error) throw opencode;
  if (bins instanceof Error) throw bins;
  const project = makeOpencodeProject(base, 'ask', opencode, server, {
    agents: { [AGENT]: { description: 'Plans Terraform changes. Use it when told to.', prompt: MARKER } },
    config: { permission: { bash: 'ask' } },
  });
  cli(project, bins, 'init', '--host', 'opencode');
  steps.current = { phase: 'approval' };
  await play(project, 'ask');
  const [parked, ...others] = JSON.parse(cli(project, bins, 'list', '--json')) as Listed[];
  expect(others).toEqual([]);
  expect(stateOf(project, parked!.agent_id as string)).toMatchObject({ host: 'opencode', phase: 'approval' });
  const log = readFileSync(join(project.dir, '.claude', 'logs', 'opencode.log'), 'utf8');
  expect(log).toMatch(/opencode event="PermissionRequest" recording_allowed /);
  passed++;
});
