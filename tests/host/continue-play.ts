// The continuation plays of issue 34 with the real Claude Code: a temp project with a test sub-agent and our TEST
// hook (continue-hook.ts, bundled here), the scripted model of continue-model.ts, and the checks of each play,
// returned as `kind: detail` problems so that a failing play says what differs (a Claude Code whose layout or
// SendMessage behaves otherwise fails here, loudly: the feature would step aside, and this suite must say so).
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTranscriptLocation, projectSlug } from '../../src/core/claude-transcript';
import { REPO, runClaude, stringsIn, type Claude, type ClaudeRun, type RunProject } from './claude-host';
import { NOTE_MARKER, START_MARKER, type HookConfig, type HookLine } from './continue-hook-log';
import {
  bashCommands,
  CONTINUE_MARKER,
  continueScript,
  runMarker,
  sendMessageResults,
  toolResultTexts,
  type MainStep,
} from './continue-model';
import { startModelServer, type MessagesBody, type ModelServer, type RecordedRequest } from './model-server';

export const AGENT_TYPE = 'continue-tester';

/** Bundles the test hook into `dir` (esbuild, as the product's bins are built): one file node runs fast. */
export function buildHook(dir: string): string {
  const outfile = join(dir, 'continue-hook.cjs');
  buildSync({
    entryPoints: [join(REPO, 'tests', 'host', 'continue-hook.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** A temp project: a folder named to share its slug with a twin, the test sub-agent, Bash allowed, the test hook. */
export interface ContinueProject extends RunProject {
  readonly hookLog: string;
  readonly hookConfig: string;
}

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'StopFailure',
  'SessionEnd',
];

/**
 * A project folder `name` under `base` (HOME `base/home`, shared by every project of a play, as one user's), trusted
 * as a user's one acceptance leaves it, with the `continue-tester` sub-agent (Bash only) and the test hook on every
 * event. `my_app.v2` and `my-app.v2` share Claude Code's project folder (`…-my-app-v2`).
 */
export function makeProject(base: string, name: string, hook: string): ContinueProject {
  const home = join(base, 'home');
  const dir = join(base, name);
  mkdirSync(join(base, 'tmp'), { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
  const config = join(home, '.claude.json');
  const trusted = existsSync(config)
    ? (JSON.parse(readFileSync(config, 'utf8')) as { projects: Record<string, unknown> })
    : { projects: {} };
  trusted.projects[dir] = { hasTrustDialogAccepted: true };
  writeFileSync(config, JSON.stringify(trusted, null, 2));
  writeFileSync(
    join(dir, '.claude', 'agents', `${AGENT_TYPE}.md`),
    [
      '---',
      `name: ${AGENT_TYPE}`,
      'description: Runs the scripted commands it is given.',
      'tools: Bash',
      '---',
      `${CONTINUE_MARKER}. You run the commands you are given.`,
      '',
    ].join('\n'),
  );
  const hookLog = join(base, `${name}.hook.jsonl`);
  const hookConfig = join(base, `${name}.hook-config.json`);
  const command = `node ${JSON.stringify(hook)} ${JSON.stringify(hookLog)} ${JSON.stringify(hookConfig)}`;
  const hooks = Object.fromEntries(
    EVENTS.map((event) => [
      event,
      [{ ...(/Tool/.test(event) ? { matcher: '*' } : {}), hooks: [{ type: 'command', command, timeout: 30 }] }],
    ]),
  );
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] }, hooks }));
  writeConfig({ hookConfig }, { recorded: [], maxTranscriptBytes: 512 * 1024 });
  return { base, home, dir, path: [], hookLog, hookConfig };
}

function writeConfig(project: Pick<ContinueProject, 'hookConfig'>, config: HookConfig): void {
  writeFileSync(project.hookConfig, JSON.stringify(config));
}

function hookLines(project: ContinueProject): HookLine[] {
  if (!existsSync(project.hookLog)) return [];
  return readFileSync(project.hookLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as HookLine);
}

/** One run of a play: its label, what Claude Code printed, what our hook saw, and the model's requests. */
interface Run {
  readonly label: string;
  readonly run: ClaudeRun;
  readonly lines: HookLine[];
  readonly requests: RecordedRequest[];
  readonly ms: number;
}

function payloads(run: Run, event?: string): Record<string, unknown>[] {
  return run.lines.flatMap((line) =>
    line.kind === 'payload' && (event === undefined || line.payload.hook_event_name === event) ? [line.payload] : [],
  );
}

function decisions(run: Run): Extract<HookLine, { kind: 'decision' }>[] {
  return run.lines.filter((line): line is Extract<HookLine, { kind: 'decision' }> => line.kind === 'decision');
}

/** A play's context: its server, its runs in order, its problems. */
class Play {
  readonly runs: Run[] = [];
  readonly problems: string[] = [];
  /** How long each decision (and copy) took inside the hook, in milliseconds. */
  readonly decisionMs: number[] = [];
  constructor(
    readonly claude: Claude,
    readonly server: ModelServer,
    readonly plans: Record<string, MainStep[]>,
  ) {}

  async run(project: ContinueProject, label: string, steps: MainStep[], resume?: string): Promise<Run> {
    this.plans[label] = steps;
    this.server.setRun(label);
    const before = hookLines(project).length;
    const started = Date.now();
    const run = await runClaude(
      this.claude.path,
      project,
      this.server.url,
      label,
      `${runMarker(label)} go`,
      120_000,
      resume === undefined ? {} : { args: ['--resume', resume] },
    );
    const ms = Date.now() - started;
    const result: Run = {
      label,
      run,
      lines: hookLines(project).slice(before),
      requests: this.server.requests.filter((r) => r.run === label),
      ms,
    };
    this.runs.push(result);
    // What the model was asked, kept beside Claude Code's stream and debug file for a failed play's inspection.
    writeFileSync(join(project.base, `${label}.requests.json`), JSON.stringify(result.requests, null, 1));
    const final = run.events.filter((e) => e.type === 'result').at(-1);
    if (run.status !== 0 || run.timedOut || final?.is_error !== false)
      this.problems.push(
        `run_failed: ${label} status ${run.status} timedOut ${run.timedOut} result ${JSON.stringify(final)?.slice(0, 300)} ${run.stderr.slice(0, 300)}`,
      );
    for (const line of result.lines) if (line.kind === 'decision') this.decisionMs.push(line.ms);
    for (const line of result.lines)
      if (line.kind === 'error') this.problems.push(`hook_error: ${label} ${line.message.slice(0, 500)}`);
    for (const hook of run.events.filter((e) => e.type === 'system' && e.subtype === 'hook_response'))
      if (hook.exit_code !== 0)
        this.problems.push(`hook_exit: ${label} ${String(hook.hook_name)} ${String(hook.exit_code)}`);
    return result;
  }
}

/** How run 1 left the agent: parked (SubagentStop) or killed by an HTTP 400 (StopFailure, no SubagentStop). */
export type Park = 'stop' | 'fail400';

/** The delegation of a play's first run: foreground or background. */
export type Spawn = 'foreground' | 'background';

/** How run 2 reaches the agent: a new `claude -p`, or `--resume` of run 1's session. */
export type Reach = 'new' | 'resume';

export interface PlayResult {
  readonly name: string;
  readonly claude: string;
  readonly problems: string[];
  readonly ms: number;
  readonly runs: readonly { label: string; ms: number }[];
  readonly decisionMs: readonly number[];
  readonly base: string;
}

/**
 * Run 1 parks the sub-agent: `echo R1-CONTEXT-<nonce>` (with `fail400`, the output carries FAIL400 and the API
 * refuses the next request: StopFailure). Checks the transcript is where Claude Code 2.1.330–2.1.332 keep it
 * (SubagentStop's `agent_transcript_path`, or the folder, next to the meta file), returns the agent and session ids.
 */
async function parkAgent(
  play: Play,
  project: ContinueProject,
  label: string,
  options: { park: Park; spawn: Spawn; nonce: string },
): Promise<{ agentId: string; sessionId: string; transcriptBytes: number } | undefined> {
  const command = `echo R1-CONTEXT-${options.nonce}${options.park === 'fail400' ? '-FAIL400' : ''}`;
  const run = await play.run(project, label, [
    { kind: 'agent', prompt: `TASK ${label}: CMD:${command}`, background: options.spawn === 'background' },
    { kind: 'text', text: `${label} done` },
  ]);
  const start = payloads(run, 'SubagentStart')[0];
  const agentId = typeof start?.agent_id === 'string' ? start.agent_id : undefined;
  const sessionId = typeof start?.session_id === 'string' ? start.session_id : undefined;
  if (agentId === undefined || sessionId === undefined) {
    play.problems.push(`no_subagent: ${label} no SubagentStart with an agent_id and session_id`);
    return undefined;
  }
  const ended = payloads(run, options.park === 'stop' ? 'SubagentStop' : 'StopFailure').filter(
    (p) => p.agent_id === agentId,
  );
  if (ended.length !== 1)
    play.problems.push(
      `not_parked: ${label} ${ended.length} ${options.park === 'stop' ? 'SubagentStop' : 'StopFailure'} for ${agentId}`,
    );
  if (options.park === 'fail400' && payloads(run, 'SubagentStop').some((p) => p.agent_id === agentId))
    play.problems.push(`stopped_despite_400: ${label} a SubagentStop for ${agentId}`);
  const folder = join(project.home, '.claude', 'projects', projectSlug(project.dir), sessionId, 'subagents');
  const transcript = join(folder, `agent-${agentId}.jsonl`);
  const recorded = ended[0]?.agent_transcript_path;
  if (options.park === 'stop' && agentTranscriptLocation(recorded, ended[0]) === null)
    play.problems.push(
      `layout_changed: ${label} agentTranscriptLocation refuses ${String(recorded)} (the feature would step aside)`,
    );
  if (options.park === 'stop' && recorded !== transcript)
    play.problems.push(
      `layout_changed: ${label} SubagentStop agent_transcript_path ${String(recorded)}, expected ${transcript}`,
    );
  if (!existsSync(transcript) || !existsSync(join(folder, `agent-${agentId}.meta.json`)))
    play.problems.push(
      `layout_changed: ${label} no agent-${agentId}.jsonl and .meta.json in ${folder}: ${existsSync(folder) ? readdirSync(folder).join(', ') : '(no folder)'}`,
    );
  const results = run.requests.filter((r) => r.role === 'subagent' && r.reply?.error !== undefined).length;
  if (options.park === 'fail400' && results === 0) play.problems.push(`no_injected_error: ${label}`);
  return { agentId, sessionId, transcriptBytes: existsSync(transcript) ? readFileSync(transcript).length : 0 };
}

/**
 * Run 2 continues the agent with SendMessage; checks that Claude Code took it (success), that the agent started and
 * stopped again under the same id and type, and that its first request carries run 1's tool call and result.
 */
function checkContinued(play: Play, run: Run, agentId: string, nonce: string, where: 'earlier' | 'here'): void {
  const at = run.label;
  const decided = decisions(run);
  if (decided.length !== 1)
    play.problems.push(`decisions: ${at} ${decided.length} decisions: ${JSON.stringify(decided)}`);
  const decision = decided[0];
  if (decision?.choice.kind !== 'continue' || decision.choice.where !== where)
    play.problems.push(`not_chosen: ${at} expected continue (${where}), got ${JSON.stringify(decision?.choice)}`);
  if (where === 'earlier' && decision?.brought !== 'copied')
    play.problems.push(`not_brought: ${at} ${JSON.stringify(decision?.brought)}`);
  if (where === 'here' && decision?.brought !== undefined)
    play.problems.push(`brought_needlessly: ${at} ${decision.brought}`);
  const sent = sendMessageResults(run.requests);
  if (sent.length !== 1 || !/"success":\s*true/.test(sent[0]!) || !sent[0]!.includes(agentId))
    play.problems.push(`send_failed: ${at} SendMessage answered ${JSON.stringify(sent).slice(0, 400)}`);
  const starts = payloads(run, 'SubagentStart');
  const stops = payloads(run, 'SubagentStop');
  if (starts.length !== 1 || starts[0]!.agent_id !== agentId || starts[0]!.agent_type !== AGENT_TYPE)
    play.problems.push(
      `wrong_start: ${at} ${JSON.stringify(starts.map((p) => [p.agent_id, p.agent_type]))}, expected ${agentId} ${AGENT_TYPE}`,
    );
  if (stops.length !== 1 || stops[0]!.agent_id !== agentId)
    play.problems.push(`wrong_stop: ${at} ${JSON.stringify(stops.map((p) => p.agent_id))}`);
  else if (agentTranscriptLocation(stops[0]!.agent_transcript_path, stops[0]) === null)
    play.problems.push(
      `layout_changed: ${at} the continued agent's transcript is at ${String(stops[0]!.agent_transcript_path)}`,
    );
  const sub = run.requests.filter((r) => r.role === 'subagent');
  const first = (sub[0]?.body as MessagesBody | undefined)?.messages ?? [];
  const command = bashCommands(first).find((c) => c.includes(`R1-CONTEXT-${nonce}`));
  const output = toolResultTexts(first).find((t) => t.includes(`R1-CONTEXT-${nonce}`));
  if (command === undefined || output === undefined)
    play.problems.push(
      `context_lost: ${at} the continued agent's first request lacks run 1's call or result: calls ${JSON.stringify(bashCommands(first))}, results ${JSON.stringify(toolResultTexts(first))}`,
    );
  // The first start's SubagentStart context stays in the transcript; this start's is not delivered (an agent that got
  // one at its first start gets no other: both versions), so what the hook has to say rides on the message.
  const contexts = stringsIn(first)
    .flatMap((text) => [...text.matchAll(new RegExp(`${START_MARKER} ${agentId} in session (\\S+)`, 'g'))])
    .map((m) => m[1]);
  if (contexts.length === 0)
    play.problems.push(`start_context_lost: ${at} the continued agent's first request lacks its first start's context`);
  const note = `${NOTE_MARKER} ${agentId}: ${decision?.choice.reason}`;
  const coordinator = stringsIn(first).find((text) => text.includes('CONT ') && text.includes('R2-CONTINUED'));
  if (coordinator === undefined || !coordinator.includes(note))
    play.problems.push(
      `note_lost: ${at} the message the continued agent got lacks the hook's note: ${JSON.stringify(coordinator)?.slice(0, 400)}`,
    );
  const said = sub.at(-1)?.reply?.blocks.find((b) => b.type === 'text');
  if (said?.type !== 'text' || !said.text.startsWith('SUB-END after 2 tool results'))
    play.problems.push(`wrong_end: ${at} the continued agent ended with ${JSON.stringify(said)}`);
}

/** Starts a play: a temp base, the hook built, the model server. */
async function begin(
  claude: Claude,
  root: string,
): Promise<{ play: Play; base: string; hook: string; started: number }> {
  const base = mkdtempSync(join(tmpdir(), 'agent-session-continue-'));
  const plans: Record<string, MainStep[]> = {};
  const server = await startModelServer(continueScript(plans));
  return { play: new Play(claude, server, plans), base, hook: join(root, 'continue-hook.cjs'), started: Date.now() };
}

async function end(name: string, claude: Claude, play: Play, base: string, started: number): Promise<PlayResult> {
  await play.server.close();
  const result: PlayResult = {
    name,
    claude: claude.version,
    problems: [...play.problems],
    ms: Date.now() - started,
    runs: play.runs.map((r) => ({ label: r.label, ms: r.ms })),
    decisionMs: play.decisionMs,
    base,
  };
  // AGENT_SESSION_HOST_KEEP=1 keeps every play's folder (its `*.hook.jsonl`: each payload as the host sent it, the
  // source of the fixtures of a new release: docs/development.md).
  if (play.problems.length === 0 && process.env.AGENT_SESSION_HOST_KEEP !== '1')
    rmSync(base, { recursive: true, force: true });
  else if (play.problems.length > 0) result.problems.push(`kept_for_inspection: ${base}`);
  return result;
}

const CONTINUE = (agentId: string, label: string): MainStep[] => [
  { kind: 'tool-search' },
  { kind: 'send', to: agentId, message: `CONT ${label}: CMD:echo R2-CONTINUED` },
  { kind: 'text', text: `${label} sent` },
];

/**
 * Park in run 1 (stopped, or killed by an HTTP 400), then continue in run 2 (a new `claude -p`, whose hook brings the
 * transcript from run 1's session folder; or `--resume` of run 1's session, where it already is).
 */
export async function playContinue(
  claude: Claude,
  hookDir: string,
  options: { park: Park; spawn: Spawn; reach: Reach },
): Promise<PlayResult> {
  const name = `${options.reach}, ${options.spawn}, ${options.park === 'stop' ? 'parked' : 'killed by HTTP 400'}`;
  const { play, base, hook, started } = await begin(claude, hookDir);
  try {
    const project = makeProject(base, 'my_app.v2', hook);
    const nonce = Math.random().toString(16).slice(2, 10);
    const parked = await parkAgent(play, project, 'run1', { park: options.park, spawn: options.spawn, nonce });
    if (parked !== undefined) {
      writeConfig(project, { recorded: [parked.agentId], maxTranscriptBytes: 512 * 1024 });
      const run = await play.run(
        project,
        'run2',
        CONTINUE(parked.agentId, 'run2'),
        options.reach === 'resume' ? parked.sessionId : undefined,
      );
      if (options.reach === 'resume' && payloads(run)[0]?.session_id !== parked.sessionId)
        play.problems.push(
          `not_resumed: run2 session ${String(payloads(run)[0]?.session_id)}, expected ${parked.sessionId}`,
        );
      checkContinued(play, run, parked.agentId, nonce, options.reach === 'resume' ? 'here' : 'earlier');
    }
  } catch (error) {
    play.problems.push(`play_error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  return end(name, claude, play, base, started);
}

/**
 * Decoys and the limit: an agent of a twin project sharing our Claude project folder (`my-app.v2`), one of another
 * project, and ours over a limit set below its size; the main agent sends to all three in a new `claude -p`. None is
 * brought (another project's, gone, over the limit), each SendMessage fails as without us ("No transcript found"),
 * no sub-agent starts, and nothing is written into the session's folder.
 */
export async function playDecoys(claude: Claude, hookDir: string): Promise<PlayResult> {
  const { play, base, hook, started } = await begin(claude, hookDir);
  try {
    const twin = makeProject(base, 'my-app.v2', hook);
    const other = makeProject(base, 'other', hook);
    const ours = makeProject(base, 'my_app.v2', hook);
    const nonce = Math.random().toString(16).slice(2, 10);
    const t = await parkAgent(play, twin, 'twin', { park: 'stop', spawn: 'foreground', nonce });
    const o = await parkAgent(play, other, 'other', { park: 'stop', spawn: 'foreground', nonce });
    const a = await parkAgent(play, ours, 'ours', { park: 'stop', spawn: 'foreground', nonce });
    if (t !== undefined && o !== undefined && a !== undefined) {
      // Every id "recorded by one of our sessions", so that the file checks, not the store's, are what refuses them.
      writeConfig(ours, {
        recorded: [t.agentId, o.agentId, a.agentId],
        maxTranscriptBytes: Math.floor(a.transcriptBytes / 2),
      });
      const run = await play.run(ours, 'run2', [
        { kind: 'tool-search' },
        ...[t, o, a].map((agent, i): MainStep => ({
          kind: 'send',
          to: agent.agentId,
          message: `CONT ${i}: CMD:echo NO`,
        })),
        { kind: 'text', text: 'run2 sent' },
      ]);
      const expected: [string, string][] = [
        [t.agentId, 'another-project'],
        [o.agentId, 'gone'],
        [a.agentId, 'over-limit'],
      ];
      const got = decisions(run).map((d) => [
        String(d.agentId),
        d.choice.kind === 'prime' ? d.choice.why! : 'continue',
      ]);
      if (JSON.stringify(got) !== JSON.stringify(expected) || decisions(run).some((d) => d.brought !== undefined))
        play.problems.push(
          `decoy_choices: run2 ${JSON.stringify(decisions(run))}, expected ${JSON.stringify(expected)}`,
        );
      const sent = sendMessageResults(run.requests);
      if (sent.length !== 3 || !sent.every((text) => text.includes('No transcript found for agent ID')))
        play.problems.push(`decoy_continued: run2 SendMessage answered ${JSON.stringify(sent).slice(0, 600)}`);
      if (payloads(run, 'SubagentStart').length > 0 || run.requests.some((r) => r.role === 'subagent'))
        play.problems.push(`decoy_started: run2 a sub-agent started`);
      const session = payloads(run)[0]?.session_id;
      const folder = join(ours.home, '.claude', 'projects', projectSlug(ours.dir), String(session));
      if (existsSync(folder))
        play.problems.push(
          `decoy_written: run2 ${folder} holds ${readdirSync(folder, { recursive: true }).join(', ')}`,
        );
    }
  } catch (error) {
    play.problems.push(`play_error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  return end('decoys and the limit', claude, play, base, started);
}
