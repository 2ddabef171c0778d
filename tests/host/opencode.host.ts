// The real opencode (the pinned `opencode-ai`, and the npm registry's latest when it differs: AGENT_SESSION_HOST_OPENCODE)
// run as `opencode run`, fully offline, against the scripted chat-completions server, with a custom sub-agent
// (`.opencode/agent/prober.md`) and the probe plugin (tests/host/opencode-probe.js) loaded from a file. These plays
// prove the harness and the facts an opencode adapter builds on (tests/fixtures/opencode/README.md): a `task`
// delegation and what each plugin hook and event carries; agent-session's library inside opencode's plugin runtime
// (Bun), step for step as in Node; a child resumed by `task_id` across runs, an unknown `task_id`, a `task_id` set by
// the plugin and context injected into both agents' requests; a sub-agent's API errors (400, 429, 503); the answers a
// plugin can give a permission request in `opencode run`; and a run killed by Ctrl-C, carried on by `task_id`.
// With AGENT_SESSION_OPENCODE_FIXTURES=<folder>, the payloads of the pinned version are written there as fixtures.
// A missing or broken binary fails every play, never skips.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calledTools,
  offeredTools,
  startChatServer,
  systemText,
  toolResults,
  userTexts,
  type ChatBody,
  type ChatReply,
  type ChatRequest,
  type ChatServer,
} from './chat-server';
import { REPO } from './claude-host';
import {
  findOpencode,
  makeOpencodeProject,
  opencodeVersions,
  pinnedOpencode,
  runOpencode,
  type Opencode,
  type OpencodeProject,
  type OpencodeRun,
} from './opencode-host';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads as the plugin logged them, read loosely
type Loose = Record<string, any>;

const AGENT = 'prober';
/** In the sub-agent's system prompt: the server tells its requests from the main agent's by it. */
const MARKER = 'HOST-TEST-OPENCODE-SUBAGENT prober';
const PROBE = join(__dirname, 'opencode-probe.js');
const LIBRARY_PROBE = join(__dirname, 'library-probe.cjs');
const LIBRARY = join(REPO, 'dist', 'index.cjs');
const UNKNOWN_TASK = 'ses_doesnotexist123';

/** What the plugin logged: one entry per hook call (`event:<type>` for events), in order. */
interface ProbeEntry {
  readonly t: number;
  readonly hook: string;
  readonly input: Loose;
  readonly output: Loose | null;
  readonly readMs?: number;
  readonly writeMs?: number;
  readonly ms?: number;
}

// --- the scripted model ---

const text = (value: string): ChatReply => ({ text: value });
const task = (prompt: string, taskId?: string): ChatReply => ({
  toolCalls: [
    {
      name: 'task',
      arguments: {
        description: 'probe task',
        prompt,
        subagent_type: AGENT,
        ...(taskId === undefined ? {} : { task_id: taskId }),
      },
    },
  ],
});

/** The child session id a `task` result names (`<task id="…">`, or `Subagent failed (task_id: …)`). */
function taskIdIn(result: string | undefined): string | undefined {
  return /<task id="([^"]+)"|task_id: (ses_\w+)/
    .exec(result ?? '')
    ?.slice(1)
    .find((v) => v !== undefined);
}

/**
 * The main agent's plays: the first user message is `PLAY:<name> [argument]`; the play names the `task` calls in
 * order, each from the results so far; after the last, a text that quotes every result.
 */
const PLAYS: Record<string, (results: string[], argument: string) => (string | [string, string | undefined])[]> = {
  delegate: (r) => ['BASH child-1', ['child-2', taskIdIn(r[0])]],
  remember: () => ['remember-XYZ'],
  resume: (_r, id) => [
    ['child-after-restart', id],
    ['unknown id', UNKNOWN_TASK],
  ],
  rewrite: () => ['orig-prompt'],
  fail: (r) => ['ERROR400', 'ERROR429', 'ERROR503', ['after-error', taskIdIn(r[0])]],
  permission: () => ['BASH allow-me', 'BASH deny-me', 'BASH ask-person'],
  record: () => ['RECORD probe_record', 'RECORD probe_record_own_zod'],
  slow: () => ['SLOW'],
  'carry-on': (_r, id) => [['carry on', id]],
};

/**
 * The model, from the request body alone: the title generator gets a title; the sub-agent (the marker in its system
 * prompt) acts on its last user text (`BASH <word>`: runs `echo <word> $PROBE_SHELL_ENV`, then answers; `RECORD <tool>`:
 * calls that tool with a phase, then answers; `ERROR<status>`:
 * that HTTP error; `SLOW`: answers after a minute); otherwise it answers with what it saw. `slowSeen` is called when a
 * SLOW request arrives (the test interrupts opencode then).
 */
function script(slowSeen: () => void) {
  return (body: ChatBody): { role: string; reply: ChatReply } => {
    const system = systemText(body);
    const users = userTexts(body);
    const results = toolResults(body);
    if (system.includes('You are a title generator')) return { role: 'title', reply: text('Probe title') };
    if (system.includes(MARKER)) {
      const last = users.at(-1) ?? '';
      const status = /ERROR(\d{3})/.exec(last)?.[1];
      // A retryable error says when to retry: soon, so that opencode's five retries take half a second.
      if (status !== undefined)
        return {
          role: 'subagent',
          reply: {
            error: {
              status: Number(status),
              message: `scripted error ${status}`,
              headers: { 'retry-after-ms': '100' },
            },
          },
        };
      const recorder = /RECORD (\S+)/.exec(last)?.[1];
      if (recorder !== undefined && body.messages?.at(-1)?.role !== 'tool')
        return {
          role: 'subagent',
          reply: { toolCalls: [{ name: recorder, arguments: { phase: 'approval', note: 'plan ready' } }] },
        };
      const word = /BASH (\S+)/.exec(last)?.[1];
      if (word !== undefined && body.messages?.at(-1)?.role !== 'tool')
        return {
          role: 'subagent',
          reply: {
            toolCalls: [{ name: 'bash', arguments: { command: `echo ${word} $PROBE_SHELL_ENV`, description: 'echo' } }],
          },
        };
      if (last.includes('SLOW') && body.messages?.at(-1)?.role === 'user') {
        slowSeen();
        return { role: 'subagent', reply: { text: 'too late', delayMs: 60_000 } };
      }
      return {
        role: 'subagent',
        reply: text(`CHILD REPLY users=${JSON.stringify(users)} results=${JSON.stringify(results)}`),
      };
    }
    const [, name, argument] = /PLAY:([\w-]+)\s*(ses_\w+)?/.exec(users[0] ?? '') ?? [];
    const steps = PLAYS[name ?? '']?.(results, argument ?? '');
    if (steps === undefined) return { role: 'main', reply: text(`No play in ${JSON.stringify(users[0])}`) };
    const made = calledTools(body).filter((call) => call.name === 'task').length;
    const step = steps[made];
    if (step === undefined) return { role: 'main', reply: text(`MAIN DONE ${JSON.stringify(results)}`) };
    return { role: 'main', reply: typeof step === 'string' ? task(step) : task(...step) };
  };
}

// --- the plays' helpers ---

/** The plugin's config for the next runs of a project (the probe reads it at each opencode start). */
function configure(project: OpencodeProject, config: Loose = {}): Record<string, string> {
  const file = join(project.base, 'probe.json');
  writeFileSync(
    file,
    JSON.stringify({ log: join(project.base, 'probe.jsonl'), probeModule: LIBRARY_PROBE, ...config }, null, 2),
  );
  return { PROBE_CONFIG: file };
}

/** The plugin's log of one run (each run appends to the project's log: split by the `init` entries). */
function probeLog(project: OpencodeProject, run: number): ProbeEntry[] {
  const entries = readFileSync(join(project.base, 'probe.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ProbeEntry);
  const starts = entries.flatMap((entry, index) => (entry.hook === 'init' ? [index] : []));
  if (starts[run] === undefined) throw new Error(`The probe plugin logged ${starts.length} runs, not a run ${run}`);
  return entries.slice(starts[run], starts[run + 1]);
}

const hooks = (log: ProbeEntry[], hook: string): ProbeEntry[] => log.filter((entry) => entry.hook === hook);
const of = (log: ProbeEntry[], hook: string, sessionID: string): ProbeEntry[] =>
  hooks(log, hook).filter((entry) => entry.input.sessionID === sessionID);

/** The requests of one run that the script said came from `role`. */
function requests(server: ChatServer, run: string, role: string): ChatRequest[] {
  return server.requests.filter((r) => r.run === run && r.role === role);
}

const sessionOf = (request: ChatRequest): string => String(request.headers['x-session-id']);

/** The main agent's session in a run: the one session.created without a parent. */
function mainSession(log: ProbeEntry[]): string {
  const [main, ...others] = hooks(log, 'event:session.created').filter((e) => e.input.info.parentID === undefined);
  if (main === undefined || others.length > 0) throw new Error(`Expected one main session, got ${others.length + 1}`);
  return main.input.sessionID as string;
}

/** What the run said at last (its final text event), for the checks and a failure's message. */
function finalText(run: OpencodeRun): string {
  const texts = run.events.filter((e) => e.type === 'text').map((e) => String((e.part as Loose | undefined)?.text));
  return texts.at(-1) ?? `(no text; status ${run.status}; logs ${run.logs.slice(-1500)})`;
}

function expectDone(run: OpencodeRun): string {
  const said = finalText(run);
  expect({ status: run.status, said: said.slice(0, 9) }).toEqual({ status: 0, said: 'MAIN DONE' });
  return said;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A fixture: the hook's input and output as the plugin got them. */
function fixture(name: string, version: string, entry: ProbeEntry | Loose | undefined): void {
  const folder = process.env.AGENT_SESSION_OPENCODE_FIXTURES;
  if (folder === undefined || version !== pinnedOpencode()) return;
  if (entry === undefined) throw new Error(`No payload to capture as ${name}`);
  mkdirSync(folder, { recursive: true });
  const { t: _t, readMs: _r, writeMs: _w, ms: _m, ...payload } = entry as Loose;
  writeFileSync(join(folder, `${name}-${version}.json`), `${JSON.stringify(payload, null, 2)}\n`);
}

// --- the plays ---

const base = mkdtempSync(join(tmpdir(), 'agent-session-opencode-host-'));
const timings: string[] = [];
let passedAll = true;

afterAll(() => {
  process.stderr.write(`\nopencode host test timings:\n${timings.join('\n')}\nfolders: ${base}\n`);
  if (passedAll && process.env.AGENT_SESSION_HOST_KEEP !== '1') rmSync(base, { recursive: true, force: true });
});

describe.each(opencodeVersions())('opencode %s', (version) => {
  let opencode: Opencode | Error;
  let server: ChatServer;
  let slowSeen: () => void = () => undefined;

  beforeAll(async () => {
    try {
      opencode = findOpencode(version);
    } catch (error) {
      opencode = error as Error;
    }
    server = await startChatServer(script(() => slowSeen()));
  });
  afterAll(() => server?.close());

  /** A fresh project for a play; fails the play when opencode cannot run here. */
  function project(name: string, config: Loose = {}): OpencodeProject {
    if (opencode instanceof Error) throw opencode;
    return makeOpencodeProject(base, `${version}-${name}`, opencode, server, {
      agents: { [AGENT]: { description: 'Probes what opencode does. Use it when told to.', prompt: MARKER } },
      plugins: { 'probe.js': PROBE },
      config,
    });
  }

  /** Times a play; a failing one keeps the folders. */
  async function timed(name: string, play: () => Promise<OpencodeRun[]>): Promise<void> {
    const started = Date.now();
    try {
      const runs = await play();
      const each = runs.map((r) => `${r.label} ${(r.ms / 1000).toFixed(1)} s`).join(', ');
      timings.push(`  ${version} ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s (${each})`);
    } catch (error) {
      passedAll = false;
      throw error;
    }
  }

  it('a task delegation: which hooks and events fire, with what; a child resumed by task_id in the same run; the library in Bun as in Node, and its cost per hook call', () =>
    timed('delegate', async () => {
      const p = project('delegate');
      const env = configure(p, {
        library: LIBRARY,
        store: join(p.base, 'library-store'),
        eventStore: join(p.base, 'event-store'),
      });
      const label = `${version}:delegate`;
      const run = await runOpencode(p, server, label, 'PLAY:delegate', { env });
      expectDone(run);
      const log = probeLog(p, 0);
      const dir = realpathSync(p.dir);

      // The plugin's input: the project folder (directory, worktree), a git project, Bun, a v1 SDK client.
      const [init] = hooks(log, 'init');
      expect(init!.input).toMatchObject({
        keys: ['$', 'client', 'directory', 'experimental_workspace', 'project', 'serverUrl', 'worktree'],
        directory: dir,
        worktree: dir,
        cwd: dir,
        project: { worktree: dir, vcs: 'git' },
        runtime: { bun: expect.any(String) },
        clientPermission: null,
      });
      expect(init!.input.client).toEqual(expect.arrayContaining(['postSessionIdPermissionsPermissionId', 'session']));
      fixture('plugin-input', version, init);

      // Two sessions made: the main one, and the child (parentID, agent name, title); the resume makes none.
      const main = mainSession(log);
      const children = hooks(log, 'event:session.created').filter((e) => e.input.info.parentID !== undefined);
      expect(children.map((e) => e.input.info)).toEqual([
        expect.objectContaining({
          parentID: main,
          agent: AGENT,
          title: `probe task (@${AGENT} subagent)`,
          directory: dir,
        }),
      ]);
      const child = children[0]!.input.sessionID as string;
      fixture('session-created-main', version, hooks(log, 'event:session.created')[0]);
      fixture('session-created-subagent', version, children[0]);

      // Every request names its session in x-session-id: the title request and the main agent's the main session's.
      expect(new Set([...requests(server, label, 'title'), ...requests(server, label, 'main')].map(sessionOf))).toEqual(
        new Set([main]),
      );
      expect(new Set(requests(server, label, 'subagent').map(sessionOf))).toEqual(new Set([child]));

      // chat.message: the main agent's prompt (no agent in the input; `build` in the message), each child prompt.
      const messages = hooks(log, 'chat.message');
      expect(messages.map((e) => [e.input.sessionID, e.input.agent, e.output!.message.agent])).toEqual([
        [main, undefined, 'build'],
        [child, AGENT, AGENT],
        [child, AGENT, AGENT],
      ]);
      expect(messages.map((e) => e.output!.parts.map((part: Loose) => part.text).join(''))).toEqual([
        'PLAY:delegate',
        'BASH child-1',
        'child-2',
      ]);
      fixture('chat-message-main', version, messages[0]);
      fixture('chat-message-subagent', version, messages[1]);

      // tool.execute.before of task: the parent's session and the call's arguments; no child id yet, then task_id.
      const before = hooks(log, 'tool.execute.before').filter((e) => e.input.tool === 'task');
      expect(before.map((e) => [e.input.sessionID, e.output!.args])).toEqual([
        [main, { description: 'probe task', prompt: 'BASH child-1', subagent_type: AGENT }],
        [main, { description: 'probe task', prompt: 'child-2', subagent_type: AGENT, task_id: child }],
      ]);
      fixture('tool-execute-before-task', version, before[0]);
      fixture('tool-execute-before-task-resume', version, before[1]);

      // tool.execute.after of task: the child's id and its parent in metadata, its answer in the output.
      const after = hooks(log, 'tool.execute.after').filter((e) => e.input.tool === 'task');
      expect(after.map((e) => e.output!.metadata)).toEqual([
        expect.objectContaining({ parentSessionId: main, sessionId: child }),
        expect.objectContaining({ parentSessionId: main, sessionId: child }),
      ]);
      expect(after[0]!.output!.output).toMatch(new RegExp(`^<task id="${child}" state="completed">`));
      fixture('tool-execute-after-task', version, after[0]);

      // The child's session.idle comes before each tool.execute.after; the main session's idle ends the run.
      const order = log
        .filter((e) => e.hook === 'event:session.idle' || (e.hook === 'tool.execute.after' && e.input.tool === 'task'))
        .map((e) =>
          e.hook === 'tool.execute.after' ? 'after' : e.input.sessionID === main ? 'idle main' : 'idle child',
        );
      expect(order).toEqual(['idle child', 'after', 'idle child', 'after', 'idle main']);
      // The plugin's dispose is the last call of a run that ends by itself.
      expect(log.at(-1)!.hook).toBe('dispose');
      fixture('session-idle-subagent', version, of(log, 'event:session.idle', child)[0]);

      // The child's bash: its own hooks under the child's session; shell.env reaches the command.
      const shell = hooks(log, 'shell.env');
      expect(shell.map((e) => e.input.sessionID)).toEqual([child]);
      fixture('shell-env', version, shell[0]);
      const childRequests = requests(server, label, 'subagent');
      expect(toolResults(childRequests[1]!.body!)).toEqual(['child-1 set-by-plugin\n']);
      // Resumed by task_id: the child's next request carries its whole history.
      expect(userTexts(childRequests.at(-1)!.body!)).toEqual(['BASH child-1', 'child-2']);

      // The library inside opencode's Bun, step for step as in this Node.
      const [bun] = hooks(log, 'library');
      const { probeLibrary } = require(LIBRARY_PROBE) as {
        probeLibrary: (o: Loose) => Promise<{ runtime: string; steps: Loose[] }>;
      };
      const node = await probeLibrary({
        library: LIBRARY,
        store: join(p.base, 'node-store'),
        cwd: p.dir,
        holderPid: process.ppid,
      });
      const outcome = (steps: Loose[]) => steps.map((s) => [s.step, s.ok, s.code ?? null]);
      expect(bun!.input.runtime).toMatch(/^bun /);
      expect(outcome(bun!.input.steps)).toEqual(outcome(node.steps));
      expect(outcome(bun!.input.steps)).toEqual([
        ['load', true, null],
        ['open', true, null],
        ['create', true, null],
        ['update', true, null],
        ['read', true, null],
        ['files', true, null],
        ['symlinked state', false, 'E_CORRUPT'],
        ['live lock', false, 'E_BUSY'],
        ['dead lock', true, null],
        ['files after', true, null],
        ['close', true, null],
      ]);
      const step = (steps: Loose[], name: string) => steps.find((s) => s.step === name)!;
      expect(step(bun!.input.steps, 'read').detail).toEqual({ phase: 'investigating', metadata: { n: 1 }, history: 1 });
      expect(step(bun!.input.steps, 'files after').detail).toEqual(['state.json']);
      expect(step(bun!.input.steps, 'dead lock').detail).toEqual({ n: 3 });
      // The lock's wait (Atomics.wait) sleeps in Bun too: E_BUSY only after the 600 ms timeout.
      expect(step(bun!.input.steps, 'live lock').ms).toBeGreaterThanOrEqual(600);

      // The cost of a session read and write: at each hook call (wall clock inside the plugin, opencode's other work
      // interleaved at each await), back to back in a hook opencode awaits, and in a Bun and a Node of their own.
      const costs = log.filter((e) => e.readMs !== undefined);
      expect(costs.length).toBeGreaterThan(20);
      const [inside] = hooks(log, 'burst');
      const alone = spawnSync(p.opencode.path, [LIBRARY_PROBE, LIBRARY, join(p.base, 'bun-store'), '30'], {
        env: { ...p.env, BUN_BE_BUN: '1' },
        encoding: 'utf8',
      });
      expect({ status: alone.status, stderr: alone.stderr }).toEqual({ status: 0, stderr: '' });
      const { openProbe, burst } = require(LIBRARY_PROBE) as {
        openProbe: (library: string, store: string, cwd: string) => Promise<Loose>;
        burst: (probe: Loose, count: number) => Promise<{ reads: number[]; writes: number[] }>;
      };
      const nodeProbe = await openProbe(LIBRARY, join(p.base, 'node-event-store'), p.dir);
      const nodeBurst = await burst(nodeProbe, 30);
      await nodeProbe.close();
      const ms = (values: number[]) => `${median(values).toFixed(2)}`;
      const pair = (b: { reads: number[]; writes: number[] }) => `read ${ms(b.reads)}, write ${ms(b.writes)} ms`;
      const steps = (s: Loose[]) => s.map((x) => `${x.step} ${(x.ms as number).toFixed(1)}`).join(', ');
      timings.push(
        `  ${version} library in ${bun!.input.runtime}: ${steps(bun!.input.steps)} ms; in ${node.runtime}: ${steps(node.steps)} ms`,
        `  ${version} medians: at each of ${costs.length} hook calls ${pair({ reads: costs.map((e) => e.readMs!), writes: costs.map((e) => e.writeMs!) })}; ` +
          `30 back to back in a hook ${pair(inside!.input as { reads: number[]; writes: number[] })}; ` +
          `in Bun alone ${pair(JSON.parse(alone.stdout) as { reads: number[]; writes: number[] })}; in ${node.runtime} ${pair(nodeBurst)}`,
      );
      return [run];
    }));

  it('a child resumed by task_id in a later run (under the new main session); an unknown task_id makes a fresh child; the plugin sets task_id and adds context to the prompt, the system prompts and the user message', () =>
    timed('resume', async () => {
      const p = project('resume');
      const env = configure(p);
      const first = await runOpencode(p, server, `${version}:remember`, 'PLAY:remember', { env });
      expectDone(first);
      const log1 = probeLog(p, 0);
      const [remembered] = hooks(log1, 'tool.execute.after').map((e) => e.output!.metadata.sessionId as string);
      expect(remembered).toMatch(/^ses_/);

      const label = `${version}:resume`;
      const second = await runOpencode(p, server, label, `PLAY:resume ${remembered}`, { env });
      expectDone(second);
      const log2 = probeLog(p, 1);
      const main2 = mainSession(log2);
      // The child of the first run: no new session, the new main session its parent now, its history carried.
      const after = hooks(log2, 'tool.execute.after').map((e) => e.output!.metadata);
      expect(after[0]).toMatchObject({ sessionId: remembered, parentSessionId: main2 });
      const resumed = requests(server, label, 'subagent').filter((r) => sessionOf(r) === remembered);
      expect(resumed.map((r) => userTexts(r.body!))).toEqual([['remember-XYZ', 'child-after-restart']]);
      // An unknown task_id: a fresh child, silently, named in the result.
      const created = hooks(log2, 'event:session.created').filter((e) => e.input.info.parentID !== undefined);
      expect(created.map((e) => e.input.sessionID)).toEqual([after[1]!.sessionId]);
      expect(after[1]!.sessionId).not.toBe(UNKNOWN_TASK);
      const unknown = hooks(log2, 'tool.execute.after')[1]!;
      expect(unknown.input.args.task_id).toBe(UNKNOWN_TASK);
      expect(unknown.output!.output).toContain(`<task id="${after[1]!.sessionId}"`);
      fixture('tool-execute-after-task-unknown-id', version, unknown);

      // The plugin resumes the child itself (task_id set in tool.execute.before), and adds context everywhere.
      const rewrite = `${version}:rewrite`;
      const env3 = configure(p, {
        taskId: remembered,
        prependPrompt: '[AGENT-SESSION PROMPT] ',
        system: 'AGENT-SESSION SYSTEM',
        chatPart: 'AGENT-SESSION USER CONTEXT',
      });
      const third = await runOpencode(p, server, rewrite, 'PLAY:rewrite', { env: env3 });
      expectDone(third);
      const log3 = probeLog(p, 2);
      const main3 = mainSession(log3);
      const [child] = requests(server, rewrite, 'subagent');
      expect(sessionOf(child!)).toBe(remembered);
      expect(userTexts(child!.body!).at(-1)).toBe('[AGENT-SESSION PROMPT] orig-prompt');
      expect(systemText(child!.body!)).toMatch(new RegExp(`AGENT-SESSION SYSTEM \\(session ${remembered}\\)$`));
      const mains = requests(server, rewrite, 'main');
      for (const request of mains)
        expect(systemText(request.body!)).toMatch(new RegExp(`AGENT-SESSION SYSTEM \\(session ${main3}\\)$`));
      // The part added in chat.message is in the user message the model reads, in every later request too.
      const firstUser = mains.map((r) => r.body!.messages!.find((m) => m.role === 'user'));
      for (const message of firstUser)
        expect((message!.content as Loose[]).map((part) => part.text)).toEqual([
          'PLAY:rewrite',
          'AGENT-SESSION USER CONTEXT',
        ]);
      // The rewritten arguments are what the parent's transcript keeps.
      expect(calledTools(mains.at(-1)!.body!).find((c) => c.name === 'task')?.arguments).toEqual({
        description: 'probe task',
        prompt: '[AGENT-SESSION PROMPT] orig-prompt',
        subagent_type: AGENT,
        task_id: remembered,
      });
      expect(hooks(log3, 'tool.execute.after')[0]!.input.args.task_id).toBe(remembered);
      fixture('system-transform', version, of(log3, 'experimental.chat.system.transform', remembered!)[0]);
      return [first, second, third];
    }));

  it("a sub-agent's API errors: 400 fails it at once, 429 and 503 after five retries; session.error, no tool.execute.after; the failed child is resumed by task_id (opencode started in a subfolder: directory against worktree)", () =>
    timed('errors', async () => {
      const p = project('errors');
      const env = configure(p);
      const label = `${version}:fail`;
      // Started in a subfolder: the plugin's directory is that folder, its worktree the repository's root, whose
      // .opencode/ (agent, plugin) is found from there.
      const sub = join(p.dir, 'packages', 'app');
      mkdirSync(sub, { recursive: true });
      const run = await runOpencode(p, server, label, 'PLAY:fail', { env, cwd: sub });
      const said = expectDone(run);
      const log = probeLog(p, 0);
      expect(hooks(log, 'init')[0]!.input).toMatchObject({
        directory: realpathSync(sub),
        worktree: realpathSync(p.dir),
      });
      const children = hooks(log, 'event:session.created')
        .filter((e) => e.input.info.parentID !== undefined)
        .map((e) => e.input.sessionID as string);
      expect(children).toHaveLength(3);
      const errors = hooks(log, 'event:session.error');
      expect(errors.map((e) => [e.input.sessionID, e.input.error.name, e.input.error.data.statusCode])).toEqual([
        [children[0], 'APIError', 400],
        [children[1], 'APIError', 429],
        [children[2], 'APIError', 503],
      ]);
      expect(errors.map((e) => e.input.error.data.isRetryable)).toEqual([false, true, true]);
      fixture('session-error-400', version, errors[0]);
      fixture('session-error-429', version, errors[1]);
      // Retries: session.status `retry` events (attempt 1..5), six requests in all; a 400 is not retried.
      const retries = (id: string) =>
        of(log, 'event:session.status', id).filter((e) => e.input.status.type === 'retry');
      expect(children.map((id) => retries(id).map((e) => e.input.status.attempt))).toEqual([
        [],
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4, 5],
      ]);
      fixture('session-status-retry', version, retries(children[1]!)[0]);
      const sent = (id: string) => requests(server, label, 'subagent').filter((r) => sessionOf(r) === id).length;
      expect(children.map(sent)).toEqual([2, 6, 6]); // the 400'd child's second: its resume below
      // No tool.execute.after for a failed task: only the resume's.
      expect(hooks(log, 'tool.execute.after').map((e) => e.output!.metadata.sessionId)).toEqual([children[0]]);
      expect(hooks(log, 'tool.execute.before')).toHaveLength(4);
      // What tells the plugin that a task failed: the parent's task part, updated (an event) to `error`, naming the
      // child; `running` named it (and the call's arguments) already, right after the child was made.
      const parts = hooks(log, 'event:message.part.updated').filter((e) => e.input.part.tool === 'task');
      const states = (status: string) => parts.filter((e) => e.input.part.state.status === status);
      expect(states('error').map((e) => [e.input.part.state.metadata.sessionId, e.input.part.state.error])).toEqual(
        [400, 429, 503].map((status, index) => [
          children[index],
          `Subagent failed (task_id: ${children[index]}): scripted error ${status}`,
        ]),
      );
      expect(states('running')[0]!.input.part.state).toMatchObject({
        metadata: { sessionId: children[0], parentSessionId: mainSession(log) },
        input: { prompt: 'ERROR400', subagent_type: AGENT },
      });
      fixture('message-part-updated-task-running', version, states('running')[0]);
      fixture('message-part-updated-task-error', version, states('error')[0]);
      fixture('message-part-updated-task-completed', version, states('completed')[0]);
      // The parent is told, and carries on; the failed child resumes without its failed turn.
      for (const [index, status] of [
        [0, 400],
        [1, 429],
        [2, 503],
      ] as const)
        expect(said).toContain(`Subagent failed (task_id: ${children[index]}): scripted error ${status}`);
      const resumed = requests(server, label, 'subagent')
        .filter((r) => sessionOf(r) === children[0])
        .at(-1)!;
      expect(userTexts(resumed.body!)).toEqual(['ERROR400', 'after-error']);
      return [run];
    }));

  it("a sub-agent's bash that needs permission in `opencode run`: permission.ask never fires; replying to permission.asked at once through the plugin's client wins (once: it runs; reject with a message: the agent reads it and goes on); no reply: the run rejects it and the sub-agent fails", () =>
    timed('permission', async () => {
      const p = project('permission', { permission: { bash: 'ask' } });
      const env = configure(p, {
        permissionReplies: {
          'allow-me': { reply: 'once', call: 'v1' },
          'deny-me': { reply: 'reject', call: 'v2', message: 'Parked: wait for the approval' },
        },
      });
      const label = `${version}:permission`;
      const run = await runOpencode(p, server, label, 'PLAY:permission', { env });
      const said = expectDone(run);
      const log = probeLog(p, 0);
      expect(hooks(log, 'permission.ask')).toEqual([]);
      const asked = hooks(log, 'event:permission.asked');
      expect(asked.map((e) => [e.input.permission, e.input.patterns])).toEqual([
        ['bash', ['echo allow-me $PROBE_SHELL_ENV']],
        ['bash', ['echo deny-me $PROBE_SHELL_ENV']],
        ['bash', ['echo ask-person $PROBE_SHELL_ENV']],
      ]);
      fixture('permission-asked', version, asked[0]);
      const replied = hooks(log, 'event:permission.replied');
      expect(replied.map((e) => [e.input.requestID, e.input.reply])).toEqual([
        [asked[0]!.input.id, 'once'],
        [asked[1]!.input.id, 'reject'],
        [asked[2]!.input.id, 'reject'],
      ]);
      fixture('permission-replied', version, replied[0]);
      // Our two replies were accepted (200, true): the calls a plugin has.
      expect(hooks(log, 'permission.reply').map((e) => [e.input.call, e.output])).toEqual([
        ['v1', { status: 200, data: true, error: null }],
        ['v2', { status: 200, data: true, error: null }],
      ]);
      const children = asked.map((e) => e.input.sessionID as string);
      const results = (id: string) =>
        toolResults(
          requests(server, label, 'subagent')
            .filter((r) => sessionOf(r) === id)
            .at(-1)!.body!,
        );
      expect(results(children[0]!)).toEqual(['allow-me set-by-plugin\n']);
      expect(results(children[1]!)).toEqual([
        'The user rejected permission to use this specific tool call with the following feedback: Parked: wait for the approval',
      ]);
      expect(said).toContain(
        `Subagent failed (task_id: ${children[2]}): The user rejected permission to use this specific tool call.`,
      );
      expect(run.logs).toContain('permission requested: bash (echo ask-person $PROBE_SHELL_ENV); auto-rejecting');
      // A rejection is no session.error: the rejected child goes idle like one that finished; only its task's part
      // (state error) and the missing tool.execute.after tell them apart.
      expect(hooks(log, 'event:session.error')).toEqual([]);
      const taskAfter = hooks(log, 'tool.execute.after').filter((e) => e.input.tool === 'task');
      expect(taskAfter.map((e) => e.output!.metadata.sessionId)).toEqual(children.slice(0, 2));
      expect(of(log, 'event:session.idle', children[2]!)).not.toEqual([]);
      return [run];
    }));

  it("a tool of the plugin's own (its zod the plugin package's, or agent-session's copy): offered to the main agent and the sub-agent, called with the child's session id and agent name, its answer the tool result", () =>
    timed('plugin tool', async () => {
      const p = project('tool');
      const env = configure(p, {
        tools: { probe_record: 'plugin', probe_record_own_zod: join(REPO, 'node_modules', 'zod') },
      });
      const label = `${version}:record`;
      const run = await runOpencode(p, server, label, 'PLAY:record', { env });
      expectDone(run);
      const log = probeLog(p, 0);
      for (const request of [...requests(server, label, 'main'), ...requests(server, label, 'subagent')])
        expect(offeredTools(request.body!)).toEqual(expect.arrayContaining(['probe_record', 'probe_record_own_zod']));
      const children = hooks(log, 'event:session.created')
        .filter((e) => e.input.info.parentID !== undefined)
        .map((e) => e.input.sessionID as string);
      const calls = log.filter((e) => e.hook.startsWith('tool:'));
      expect(calls.map((e) => [e.hook, e.input.args, e.input.context.sessionID, e.input.context.agent])).toEqual([
        ['tool:probe_record', { phase: 'approval', note: 'plan ready' }, children[0], AGENT],
        ['tool:probe_record_own_zod', { phase: 'approval', note: 'plan ready' }, children[1], AGENT],
      ]);
      expect(calls[0]!.input.context).toMatchObject({ directory: realpathSync(p.dir), worktree: realpathSync(p.dir) });
      fixture('plugin-tool-execute', version, calls[0]);
      const answered = requests(server, label, 'subagent')
        .filter((r) => sessionOf(r) === children[0])
        .at(-1)!;
      expect(toolResults(answered.body!)).toEqual([`Recorded approval for ${AGENT} in ${children[0]}`]);
      return [run];
    }));

  it("a plugin that throws: in an event, logged and nothing else; in tool.execute.before, the tool call fails with its message; in tool.execute.after, the message replaces the tool's result; in chat.message, the run fails (exit 1) before any request; at its start, it is not loaded", () =>
    timed('throwing plugin', async () => {
      const p = project('throwing');
      const label = `${version}:throwing`;
      const env = configure(p, {
        throwIn: ['event:session.created', 'tool.execute.before:bash', 'tool.execute.after:task'],
      });
      const run = await runOpencode(p, server, label, 'PLAY:delegate', { env });
      const said = expectDone(run);
      const thrown = (hook: string) => `probe plugin: thrown in ${hook} as configured`;
      expect(run.logs).toContain(thrown('event:session.created'));
      const children = [...new Set(requests(server, label, 'subagent').map(sessionOf))];
      const last = (id: string) =>
        requests(server, label, 'subagent')
          .filter((r) => sessionOf(r) === id)
          .at(-1)!.body!;
      // The child's bash failed with the message (the child went on); the task's result became the message, so the
      // main agent lost the child's id and its second task made a fresh child.
      expect(toolResults(last(children[0]!))).toEqual([thrown('tool.execute.before')]);
      expect(said).toBe(`MAIN DONE ${JSON.stringify([thrown('tool.execute.after'), thrown('tool.execute.after')])}`);
      expect(children).toHaveLength(2);

      const failed = `${version}:throwing-chat`;
      const second = await runOpencode(p, server, failed, 'PLAY:delegate', {
        env: configure(p, { throwIn: ['chat.message'] }),
      });
      expect(second.status).toBe(1);
      expect(second.logs).toContain(thrown('chat.message'));
      expect(server.requests.filter((r) => r.run === failed)).toEqual([]);

      const unloaded = `${version}:throwing-init`;
      const third = await runOpencode(p, server, unloaded, 'PLAY:delegate', {
        env: configure(p, { throwIn: ['init'] }),
      });
      expectDone(third);
      expect(third.logs).toMatch(
        /"failed to load plugin" path=\S+probe\.js error="probe plugin: thrown in init as configured"/,
      );
      // No plugin: no shell.env variable in the child's bash.
      const [child] = requests(server, unloaded, 'subagent');
      expect(
        toolResults(requests(server, unloaded, 'subagent').filter((r) => sessionOf(r) === sessionOf(child!))[1]!.body!),
      ).toEqual(['child-1\n']);
      return [run, second, third];
    }));

  it('Ctrl-C while a sub-agent works: opencode dies with no event (no session.error, no idle, no tool.execute.after, no dispose); a later run carries the child on by task_id', () =>
    timed('interrupt', async () => {
      const p = project('interrupt');
      const env = configure(p);
      const seen = new Promise<void>((resolve) => (slowSeen = resolve));
      const first = await runOpencode(p, server, `${version}:slow`, 'PLAY:slow', {
        env,
        interrupt: { signal: 'SIGINT', when: seen.then(() => new Promise((r) => setTimeout(r, 1000))) },
      });
      expect({ status: first.status, texts: first.events.filter((e) => e.type === 'text') }).toEqual({
        status: null,
        texts: [],
      });
      const log = probeLog(p, 0);
      const [created] = hooks(log, 'event:session.created').filter((e) => e.input.info.parentID !== undefined);
      const child = created!.input.sessionID as string;
      expect(
        log
          .filter((e) => e.input?.sessionID === child)
          .filter((e) => ['event:session.idle', 'event:session.error', 'tool.execute.after'].includes(e.hook)),
      ).toEqual([]);
      expect(hooks(log, 'tool.execute.after')).toEqual([]);
      expect(hooks(log, 'dispose')).toEqual([]);
      expect(hooks(log, 'tool.execute.before').map((e) => e.input.tool)).toEqual(['task']);

      const label = `${version}:carry-on`;
      const second = await runOpencode(p, server, label, `PLAY:carry-on ${child}`, { env });
      expectDone(second);
      const [resumed] = requests(server, label, 'subagent');
      expect(sessionOf(resumed!)).toBe(child);
      expect(userTexts(resumed!.body!)).toEqual(['SLOW', 'carry on']);
      return [first, second];
    }));
});
