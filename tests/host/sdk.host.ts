// The real Claude Agent SDK (the pinned @anthropic-ai/claude-agent-sdk from the npm registry) runs an app with
// agent-session's in-process hooks (`agentSessionHooks`, the built library) against the scripted model server of the
// Claude Code host test: a sub-agent records its plan with the in-process MCP tool and parks in approval; a second
// `query()` lists it before delegating, resumes it, and it completes. The interruption play: the resumed sub-agent dies
// of an injected API error (HTTP 400) in executing, and a third `query()` carries it on. Each play in its own temp
// project and fresh HOME, each `query()` in its own app process (tests/host/sdk-app.mjs). The first play hands the
// library the app's `tool` and `createSdkMcpServer`; the interruption play lets the library import() the SDK itself.
// Nothing here skips: an SDK that cannot be loaded or run fails the test.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_TYPE, contextsIn, REPO, storeSessions, stringsIn, type StoredSession } from './claude-host';
import ts from 'typescript';
import {
  calledTools,
  startModelServer,
  toolResults,
  type MessagesBody,
  type ModelServer,
  type Reply,
  type Script,
} from './model-server';
import { INJECTED_ERROR, PLAN, type Mode } from './scenario';
import { runOutsideAgent } from '../support/outside-agent';

const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';
const RECORD_TOOL = 'mcp__agent-session__record';
const LIBRARY = join(REPO, 'dist', 'index.cjs');
const APP = join(__dirname, 'sdk-app.mjs');
/**
 * The sub-agent's prompt, as the README's example defines it: the server tells the sub-agent's requests (whose system
 * prompt holds it) from the main agent's.
 */
const SUBAGENT_PROMPT = 'You plan infrastructure changes.';

const text = (value: string): Reply => ({ blocks: [{ type: 'text', text: value }] });
const toolUse = (name: string, input: Record<string, unknown>): Reply => ({
  blocks: [{ type: 'tool_use', name, input }],
});

/**
 * The model: the main agent (its tools include `Agent`) delegates to the terraform architect in the foreground, then
 * answers with what it said. The sub-agent reads OUR SubagentStart context: it must name the recording tool; told it
 * resumes a session it records `executing`, else `approval` with the plan; then it answers with text. With
 * `interrupt`, the request of a resumed (not carried-on) sub-agent after its recording is refused (HTTP 400).
 */
function sdkScript(interrupt: boolean, mode: Mode, slowMs?: number): Script {
  const said = new Map<string, string>();
  return (body, request) => {
    if (stringsIn(body.system).some((s) => s.includes(SUBAGENT_PROMPT))) {
      const reply = subagentReply(body, interrupt, slowMs);
      const first = reply.blocks[0];
      if (first?.type === 'text') said.set(request.run, first.text);
      return { role: 'subagent', reply };
    }
    if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return { role: 'other', reply: text('OK.') };
    if (!calledTools(body).includes('Agent')) {
      const all = stringsIn(body.messages);
      const prompt = all.some((s) => s.includes('carry on'))
        ? 'The API is back: carry on applying the approved plan.'
        : all.some((s) => s.includes('I approve'))
          ? 'The user approved the plan; apply it.'
          : `Plan adding ${PLAN}, then wait for the user's approval.`;
      return {
        role: 'main',
        reply: toolUse('Agent', {
          description: 'Terraform buckets',
          prompt,
          subagent_type: AGENT_TYPE,
          ...(mode === 'foreground' ? { run_in_background: false } : {}),
        }),
      };
    }
    const last = stringsIn(body.messages?.at(-1)?.content).join('\n');
    if (last.includes('Async agent launched'))
      return { role: 'main', reply: text('The terraform architect is working on it in the background.') };
    return { role: 'main', reply: text(`The terraform architect says: ${said.get(request.run) ?? '(nothing)'}`) };
  };
}

function subagentReply(body: MessagesBody, interrupt: boolean, slowMs?: number): Reply {
  const context = contextsIn(body.messages).find((c) => c.hook === 'SubagentStart');
  if (context === undefined) return text('No agent-session context reached me.');
  if (!context.text.includes(`- phase: ${RECORD_TOOL} `)) return text('The context names no recording tool.');
  if (!(body.tools ?? []).some((t) => t.name === RECORD_TOOL)) return text(`${RECORD_TOOL} is not among my tools.`);
  const resumes = /resumes session/.test(context.text);
  const carriesOn = /was interrupted by/.test(context.text);
  const results = toolResults(body);
  if (results.length === 0)
    return toolUse(RECORD_TOOL, resumes ? { phase: 'executing' } : { phase: 'approval', metadata: { plan: PLAN } });
  if (results[0]!.isError || !results[0]!.text.includes('Updated session'))
    return text(`Recording failed: ${results[0]!.text.slice(0, 300)}`);
  if (interrupt && resumes && !carriesOn) return { blocks: [], error: INJECTED_ERROR };
  // A sub-agent still thinking after its recording, for an app that stops its query meanwhile.
  if (slowMs !== undefined && !resumes)
    return { ...text(`Plan ready: ${PLAN}. Waiting for approval.`), delayMs: slowMs };
  if (carriesOn) return text(`Carried on after the interruption: ${PLAN} created.`);
  return text(resumes ? `Applied the approved plan: ${PLAN} created.` : `Plan ready: ${PLAN}. Waiting for approval.`);
}

interface Project {
  readonly base: string;
  readonly home: string;
  readonly dir: string;
}

function makeProject(): Project {
  const base = mkdtempSync(join(tmpdir(), 'agent-session-sdk-'));
  const home = join(base, 'home');
  const dir = join(base, 'project');
  for (const folder of [home, join(base, 'tmp'), join(dir, '.claude')]) mkdirSync(folder, { recursive: true });
  return { base, home, dir };
}

interface AppRun {
  readonly label: string;
  readonly status: number | null;
  readonly messages: Record<string, unknown>[];
  readonly trace: { event: string; input: Record<string, unknown>; answer: Record<string, unknown> }[];
  readonly stderr: string;
}

/**
 * A node program in the project against the server, as a user's app runs: nothing of this machine's environment
 * inherited but PATH (no AGENT_SESSION_*, CLAUDE_*, real API key); HOME and TMPDIR the project's own.
 */
async function runNode(
  project: Project,
  server: ModelServer,
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    HOME: project.home,
    TMPDIR: join(project.base, 'tmp'),
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'test',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const child = spawn(process.execPath, args, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(timer);
  return { status, stdout, stderr };
}

/** One `query()` in its own app process, against the server, in the project; nothing of this machine's env inherited. */
async function runApp(
  project: Project,
  server: ModelServer,
  label: string,
  prompt: string,
  lazy: boolean,
  interruptAfterMs?: number,
  /** More of the app's config (`canUseTool`: the library's permission callback in the query's options). */
  more: Record<string, unknown> = {},
): Promise<AppRun> {
  server.setRun(label);
  const trace = join(project.base, `${label}.trace.jsonl`);
  const stderrFile = join(project.base, `${label}.sdk-stderr.log`);
  const config = join(project.base, `${label}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      library: LIBRARY,
      lazy,
      interruptAfterMs,
      cwd: project.dir,
      prompt,
      trace,
      stderr: stderrFile,
      ...more,
      agents: {
        [AGENT_TYPE]: {
          description: 'Plans Terraform changes, waits for the user to approve them, then applies them.',
          prompt: SUBAGENT_PROMPT,
        },
      },
    }),
  );
  const { status, stdout, stderr } = await runNode(project, server, [APP, config]);
  writeFileSync(join(project.base, `${label}.messages.jsonl`), stdout);
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    label,
    status,
    messages: lines(stdout),
    trace: existsSync(trace) ? (lines(readFileSync(trace, 'utf8')) as AppRun['trace']) : [],
    stderr: stderr + (existsSync(stderrFile) ? readFileSync(stderrFile, 'utf8') : ''),
  };
}

/** The architect's sessions, as stored on disk. */
function architectSessions(project: Project) {
  return storeSessions({ storeRoot: join(project.dir, '.claude', 'session') } as Parameters<
    typeof storeSessions
  >[0]).filter((s) => s.agent_name === AGENT_TYPE);
}

/** The architect's only session, once checked to be agent `id` and completed. */
function expectOnlyCompleted(project: Project, id: string): StoredSession {
  const [session, ...others] = architectSessions(project);
  expect({ others: others.length, id: session?.agent_id, phase: session?.phase }).toEqual({
    others: 0,
    id,
    phase: 'completed',
  });
  return session!;
}

function history(session: { history?: unknown }): string[] {
  return ((session.history ?? []) as { from_phase: string; to_phase: string; event?: string }[]).map(
    (h) => `${h.from_phase} → ${h.to_phase}${h.event ? ` (${h.event})` : ''}`,
  );
}

/** The events our callbacks were called for, in order. */
const events = (run: AppRun): string[] => run.trace.map((t) => t.event);

/** What a run's app printed, for a failing expectation's message. */
function described(run: AppRun): string {
  return `${run.label}: status ${run.status}; events ${events(run).join(',')}; stderr ${run.stderr.slice(-1500)}`;
}

/** The sub-agent's requests of a run (the server's record). */
function subagentRequests(server: ModelServer, label: string): MessagesBody[] {
  return server.requests.filter((r) => r.run === label && r.role === 'subagent').map((r) => r.body as MessagesBody);
}

function expectClean(run: AppRun): void {
  const result = run.messages.filter((m) => m.type === 'result').at(-1);
  // The app's own account when it did not end cleanly: its status, the events our callbacks saw, its stderr.
  if (run.status !== 0 || result?.subtype !== 'success')
    throw new Error(`Expected a clean run, got result ${JSON.stringify(result?.subtype)}: ${described(run)}`);
}

let project: Project | undefined;
let server: ModelServer | undefined;
/** Set by a test that got to its end: its temp project is removed; a failed one's is kept, and named. */
let passed = false;
afterEach(async () => {
  await server?.close();
  if (project !== undefined && passed && process.env.AGENT_SESSION_HOST_KEEP !== '1')
    rmSync(project.base, { recursive: true, force: true });
  else if (project !== undefined) process.stderr.write(`sdk host test: kept ${project.base}\n`);
  project = undefined;
  server = undefined;
  passed = false;
});

/** The app's first two runs: park in approval, then resume (returns the parked session's id). */
async function parkAndResume(interrupt: boolean, mode: Mode): Promise<{ parked: string; run2: AppRun }> {
  project = makeProject();
  server = await startModelServer(sdkScript(interrupt, mode));
  require.resolve(SDK_PACKAGE, { paths: [REPO] }); // the SDK is installed (else this throws: a failure, not a skip)

  const run1 = await runApp(project, server, 'run1', `plan adding ${PLAN} with the terraform architect.`, interrupt);
  expectClean(run1);
  expect(events(run1)).toEqual(expect.arrayContaining(['UserPromptSubmit', 'SubagentStart', 'SubagentStop']));
  // The SDK ran the sub-agent as asked: its task_started message says whether in the background.
  const started = run1.messages.filter((m) => m.type === 'system' && m.subtype === 'task_started');
  expect(started.map((m) => m.is_backgrounded)).toEqual([mode === 'background']);
  const [parked, ...others] = architectSessions(project);
  expect({ others: others.length, phase: parked?.phase, plan: parked?.metadata }).toEqual({
    others: 0,
    phase: 'approval',
    plan: { plan: PLAN },
  });
  if (!interrupt) {
    // The handler learnt its caller from our PreToolUse: the SDK handed it the same tool call id (traced by the app).
    const allowed = run1.trace.find((t) => t.event === 'PreToolUse' && t.input.tool_name === RECORD_TOOL);
    const handled = run1.trace.find((t) => t.event === 'tool');
    expect(allowed?.answer).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
    expect((handled?.input.extra as { _meta?: Record<string, unknown> })?._meta?.['claudecode/toolUseId']).toBe(
      allowed?.input.tool_use_id,
    );
  }
  const first = subagentRequests(server, 'run1');
  expect(toolResults(first.at(-1)!).map((r) => r.text)).toEqual([expect.stringContaining('Updated session')]);

  const run2 = await runApp(
    project,
    server,
    'run2',
    'I approve the plan. Have the terraform architect apply it.',
    interrupt,
  );
  // The main agent was told what is parked before it delegated (UserPromptSubmit: the SDK fires no SessionStart).
  const listed = run2.trace.find((t) => t.event === 'UserPromptSubmit')?.answer;
  expect(JSON.stringify(listed)).toContain(parked!.agent_id);
  const main = server.requests.find((r) => r.run === 'run2' && r.role === 'main')!;
  expect(contextsIn((main.body as MessagesBody).messages).map((c) => c.text)).toEqual(
    expect.arrayContaining([expect.stringContaining(parked!.agent_id)]),
  );
  const start = contextsIn(subagentRequests(server, 'run2')[0]?.messages).find((c) => c.hook === 'SubagentStart');
  expect(start?.text).toContain(`resumes session ${parked!.agent_id}`);
  return { parked: parked!.agent_id, run2 };
}

it.each(['foreground', 'background'] as const)(
  `the real ${SDK_PACKAGE}, %s sub-agent: it parks in approval (recording with the in-process tool), a second query() resumes it, it completes`,
  async (mode) => {
    const { parked, run2 } = await parkAndResume(false, mode);
    expectClean(run2);
    const session = expectOnlyCompleted(project!, parked);
    expect(history(session)).toEqual([
      'initializing → approval',
      'approval → approval (resume)',
      'approval → executing',
      'executing → completed',
    ]);
    passed = true;
  },
);

it.each(['foreground', 'background'] as const)(
  `the real ${SDK_PACKAGE}, %s sub-agent: the resumed sub-agent dies of an API error (HTTP 400) in executing, a third query() carries it on to completed`,
  async (mode) => {
    const { parked, run2 } = await parkAndResume(true, mode);
    expect(events(run2)).toContain('StopFailure');
    const [waiting] = architectSessions(project!);
    expect({ phase: waiting?.phase, waiting: waiting?.interruption?.waiting }).toEqual({
      phase: 'executing',
      waiting: true,
    });
    const run3 = await runApp(
      project!,
      server!,
      'run3',
      'The API is back. Have the terraform architect carry on.',
      true,
    );
    expectClean(run3);
    const listed = run3.trace.find((t) => t.event === 'UserPromptSubmit')?.answer;
    expect(JSON.stringify(listed)).toContain('interrupted by');
    const session = expectOnlyCompleted(project!, parked);
    expect(history(session)).toEqual([
      'initializing → approval',
      'approval → approval (resume)',
      'approval → executing',
      'executing → executing (interrupted)',
      'executing → executing (resume)',
      'executing → completed',
    ]);
    expect(session.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
    passed = true;
  },
);

/** The README's example (section "Claude Agent SDK"): its first ```js block. */
function readmeExample(): string {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const match = /```js\n([\s\S]*?)```/.exec(text.slice(text.indexOf('## Claude Agent SDK')));
  if (!match) throw new Error('README.md has no ```js block under "## Claude Agent SDK"');
  return match[1]!;
}

it(`the README's example, as written, type-checks against the SDK's and our declarations and runs: its sub-agent parks in approval`, async () => {
  project = makeProject();
  server = await startModelServer(sdkScript(false, 'foreground'));
  server.setRun('readme');
  // Installed as an app installs them: node_modules/agent-session is this package, the SDK the pinned one.
  mkdirSync(join(project.dir, 'node_modules', '@anthropic-ai'), { recursive: true });
  symlinkSync(REPO, join(project.dir, 'node_modules', 'agent-session'), 'dir');
  symlinkSync(join(REPO, 'node_modules', SDK_PACKAGE), join(project.dir, 'node_modules', SDK_PACKAGE), 'dir');
  writeFileSync(join(project.dir, 'app.mjs'), readmeExample());
  writeFileSync(join(project.dir, 'app.mts'), readmeExample());
  const program = ts.createProgram([join(project.dir, 'app.mts')], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(REPO, 'node_modules', '@types')],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);

  const run = await runNode(project, server, ['app.mjs']);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toContain(`The terraform architect says: Plan ready: ${PLAN}`);
  const [parked, ...others] = architectSessions(project);
  expect({ others: others.length, phase: parked?.phase, metadata: parked?.metadata }).toEqual({
    others: 0,
    phase: 'approval',
    metadata: { plan: PLAN },
  });
  passed = true;
});

it(`the real ${SDK_PACKAGE}: the app interrupts its query while the sub-agent works (no hook fires), closing the hooks leaves the session interrupted, a second query() carries it on`, async () => {
  project = makeProject();
  server = await startModelServer(sdkScript(false, 'foreground', 5000));
  // The app interrupts 1.5 s after its sub-agent started: it has recorded approval, and its next reply takes 5 s.
  const run1 = await runApp(project, server, 'run1', `plan adding ${PLAN} with the terraform architect.`, false, 1500);
  const stopped = run1.messages.find((m) => m.type === 'system' && m.subtype === 'task_notification');
  expect(stopped?.status).toBe('stopped');
  expect(events(run1)).not.toContain('SubagentStop');
  expect(events(run1)).not.toContain('StopFailure');
  const [waiting] = architectSessions(project);
  expect({ phase: waiting?.phase, interruption: waiting?.interruption }).toMatchObject({
    phase: 'approval',
    interruption: { error: 'app_stopped', waiting: true },
  });
  const run2 = await runApp(project, server, 'run2', 'Have the terraform architect go on.', false);
  expectClean(run2);
  expect(JSON.stringify(run2.trace.find((t) => t.event === 'UserPromptSubmit')?.answer)).toContain(
    'interrupted by the app stopping its query (app_stopped)',
  );
  const start = contextsIn(subagentRequests(server, 'run2')[0]?.messages).find((c) => c.hook === 'SubagentStart');
  expect(start?.text).toContain(`resumes session ${waiting!.agent_id}`);
  const session = expectOnlyCompleted(project, waiting!.agent_id);
  expect(session.interruption).toMatchObject({ count: 1, carried_on: 1, waiting: false });
  passed = true;
});

/** The command the permission play's sub-agent runs: it writes a file, so the SDK asks the app's permission callback. */
const PERM_COMMAND = 'touch PERM-FILE && echo PERM-RAN';

/**
 * The permission play's model: the main agent delegates in the foreground, then repeats what the sub-agent said. The
 * sub-agent runs PERM_COMMAND; denied, it says it waits for approval; once it ran, it records `executing` with the
 * in-process tool and says it is done.
 */
function permissionScript(): Script {
  const said = new Map<string, string>();
  return (body, request) => {
    if (stringsIn(body.system).some((s) => s.includes(SUBAGENT_PROMPT))) {
      const last = toolResults(body).at(-1);
      const reply =
        last === undefined
          ? toolUse('Bash', { command: PERM_COMMAND, description: 'scripted command' })
          : last.isError
            ? text(`Waiting for the user's approval: ${last.text.slice(0, 400)}`)
            : last.text.includes('PERM-RAN')
              ? toolUse(RECORD_TOOL, { phase: 'executing' })
              : text(`Done: PERM-FILE created (${last.text.slice(0, 100)}).`);
      const first = reply.blocks[0];
      if (first?.type === 'text') said.set(request.run, first.text);
      return { role: 'subagent', reply };
    }
    if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return { role: 'other', reply: text('OK.') };
    if (!calledTools(body).includes('Agent'))
      return {
        role: 'main',
        reply: toolUse('Agent', {
          description: 'Create the file',
          prompt: 'Create PERM-FILE.',
          subagent_type: AGENT_TYPE,
          run_in_background: false,
        }),
      };
    return { role: 'main', reply: text(`The terraform architect says: ${said.get(request.run) ?? '(nothing)'}`) };
  };
}

it(`the real ${SDK_PACKAGE}: a sub-agent's call that needs permission reaches canUseTool with its agentID, is parked, approved at the terminal, and runs once when a second query() resumes it`, async () => {
  project = makeProject();
  server = await startModelServer(permissionScript());
  const calls = (run: AppRun) => run.trace.filter((t) => t.event === 'canUseTool');
  const run1 = await runApp(
    project,
    server,
    'perm1',
    'Have the terraform architect create PERM-FILE.',
    false,
    undefined,
    {
      canUseTool: true,
    },
  );
  expectClean(run1);
  const [asked] = calls(run1).filter((t) => t.input.name === 'Bash');
  expect(asked?.input).toMatchObject({ agentID: expect.any(String), input: { command: PERM_COMMAND } });
  expect(asked?.answer).toMatchObject({ behavior: 'deny', message: expect.stringContaining('approve') });
  expect(existsSync(join(project.dir, 'PERM-FILE'))).toBe(false);
  const [parked, ...others] = architectSessions(project);
  expect({ others: others.length, phase: parked?.phase }).toEqual({ others: 0, phase: 'approval' });
  expect(parked?.permission_requests).toEqual([
    expect.objectContaining({
      tool: 'Bash',
      status: 'pending',
      input: expect.objectContaining({ command: PERM_COMMAND }),
    }),
  ]);
  // The sub-agent was told where its request waits.
  expect(stringsIn(subagentRequests(server, 'perm1').at(-1)?.messages).join('\n')).toContain(
    `approve ${parked!.agent_id}`,
  );

  // The user approves at their own terminal (outside any agent's shell), with the CLI beside the library.
  const approved = runOutsideAgent(join(REPO, 'dist', 'agent-session.cjs'), ['approve', parked!.agent_id], {
    cwd: project.dir,
    // The app's data folder (HOME's), where the key that seals the decision is (issue 40 item 3).
    env: { HOME: project.home, XDG_DATA_HOME: undefined },
  });
  expect({ status: approved.status, stderr: approved.stderr }).toEqual({ status: 0, stderr: '' });

  const run2 = await runApp(
    project,
    server,
    'perm2',
    'The user approved. Have the terraform architect create PERM-FILE.',
    false,
    undefined,
    {
      canUseTool: true,
    },
  );
  expectClean(run2);
  expect(
    calls(run2)
      .filter((t) => t.input.name === 'Bash')
      .map((t) => t.answer),
  ).toEqual([{ behavior: 'allow', updatedInput: expect.objectContaining({ command: PERM_COMMAND }) }]);
  expect(existsSync(join(project.dir, 'PERM-FILE'))).toBe(true);
  const session = expectOnlyCompleted(project, parked!.agent_id);
  // The SDK asked both canUseTool and the PermissionRequest hook about that call: decided once, nothing parked again.
  expect((session.permission_requests ?? []).map((r: { status: string }) => r.status)).toEqual(['spent']);
  expect(history(session)).toEqual([
    'initializing → approval',
    'approval → executing',
    'executing → executing (resume)',
    'executing → completed',
  ]);
  passed = true;
});
