// The scenario of the real-host test: the model's side (who asks, what it answers) and the checks of one play,
// returned as a list of problems so that a failing repetition says what went wrong, not only that something did.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AGENT_TYPE,
  backgrounded,
  contextsIn,
  debugComplaints,
  debugHookRan,
  hookLog,
  hookResponses,
  makeHostProject,
  projectCli,
  resultText,
  runClaude,
  runInteractive,
  startedAgents,
  transcriptAgents,
  storeSessions,
  stringsIn,
  SUBAGENT_MARKER,
  wiredEvents,
  type Claude,
  type ClaudeRun,
  type DeliveredContext,
  type HostProject,
  type Install,
  type StoredSession,
} from './claude-host';
import {
  calledTools,
  startModelServer,
  toolResults,
  type MessagesBody,
  type RecordedRequest,
  type Reply,
  type Script,
} from './model-server';

export type Mode = 'foreground' | 'background';
/** `print`: `claude -p` with stream-json; `interactive`: Claude Code in a terminal (tmux), the prompt typed. */
export type Runner = 'print' | 'interactive';

export const PLAN = '3 storage buckets';
const text = (value: string): Reply => ({ blocks: [{ type: 'text', text: value }] });
const toolUse = (name: string, input: Record<string, unknown>): Reply => ({
  blocks: [{ type: 'tool_use', name, input }],
});

/** The first SubagentStart context in a sub-agent's conversation. */
export function subagentContext(messages: unknown): DeliveredContext | undefined {
  return contextsIn(messages).find((c) => c.hook === 'SubagentStart');
}

/**
 * The model of the scenario. The main agent (its tools include `Agent`) delegates once to the terraform architect
 * (in the foreground when `mode` says so), then answers with text. The sub-agent (its system prompt has the marker
 * of its definition) reads OUR SubagentStart context: told it resumes a session, it runs the context's command with
 * `--phase executing`; otherwise with `--phase approval` and the plan. After its command it answers with text.
 * With `interrupt`, the API fails the sub-agent that resumed an approved plan: its request after moving to executing
 * is answered HTTP 400 (Claude Code ends the agent with StopFailure); told later that its session was interrupted,
 * the next sub-agent carries on and answers with text.
 * Anything else (title generation, summaries, notification follow-ups) gets a short text, so every run ends.
 */
export function scenarioScript(mode: Mode, attempts?: Attempts, interrupt = false): Script {
  const lastSubagentText = new Map<string, string>();
  /** The runs whose sub-agent the API failed. */
  const failed = new Set<string>();
  return (body, request) => {
    const messages = body.messages ?? [];
    if (stringsIn(body.system).some((s) => s.includes(SUBAGENT_MARKER))) {
      const reply = subagentReply(body, attempts, interrupt);
      if (reply.error !== undefined) failed.add(request.run);
      const said = reply.blocks.find((b) => b.type === 'text');
      if (said?.type === 'text') lastSubagentText.set(request.run, said.text);
      return { role: 'subagent', reply };
    }
    if (!(body.tools ?? []).some((t) => t.name === 'Agent')) return { role: 'other', reply: text('OK.') };
    if (!calledTools(body).includes('Agent')) {
      const said = stringsIn(messages);
      const prompt = said.some((s) => s.includes('carry on'))
        ? 'The API is back: carry on applying the approved plan.'
        : said.some((s) => s.includes('I approve'))
          ? 'The user approved the plan; apply it.'
          : `Plan adding ${PLAN}, then wait for the user's approval.`;
      const input = {
        description: 'Terraform buckets',
        prompt,
        subagent_type: AGENT_TYPE,
        ...(mode === 'foreground' ? { run_in_background: false } : {}),
      };
      return { role: 'main', reply: toolUse('Agent', input) };
    }
    const last = stringsIn(messages.at(-1)?.content).join('\n');
    if (last.includes('Async agent launched'))
      return { role: 'main', reply: text('The terraform architect is working on it in the background.') };
    if (failed.has(request.run)) {
      // The sub-agent died of the API error. `claude -p` ends as soon as this reply ends the main agent's turn,
      // and stops the hooks still running then: StopFailure's (fire-and-forget, ~0.1 s of a Node start) among them. A
      // real model takes seconds to write this reply; the scripted one, answering at once, would cut the hook off.
      return {
        role: 'main',
        reply: { ...text('The terraform architect was interrupted by an API error.'), delayMs: 1500 },
      };
    }
    return {
      role: 'main',
      reply: text(`The terraform architect says: ${lastSubagentText.get(request.run) ?? '(nothing yet)'}`),
    };
  };
}

/**
 * What a sub-agent tries beyond its own recording, in the first run: to record into another agent's session (`decoy`),
 * and to chain a second command onto its own recording command (which would create `marker`). Both must be denied.
 */
export interface Attempts {
  readonly decoy: string;
  readonly marker: string;
}

/** The API's answer to the resumed sub-agent's request after it moved to executing, in an interrupted play. */
export const INJECTED_ERROR = {
  status: 400,
  type: 'invalid_request_error',
  message: 'Injected by the host test: this request is refused',
} as const;

function subagentReply(body: MessagesBody, attempts: Attempts | undefined, interrupt: boolean): Reply {
  const context = subagentContext(body.messages);
  if (context === undefined) return text('No agent-session context reached me, so nothing was recorded.');
  const command = /^- phase: (.+?) --phase </m.exec(context.text)?.[1];
  if (command === undefined) return text('The agent-session context names no command to record my phase.');
  const resumes = /resumes session/.test(context.text);
  const carriesOn = /was interrupted by/.test(context.text);
  const results = toolResults(body);
  if (results.length === 0) {
    const args = resumes ? '--phase executing' : `--phase approval --metadata '${JSON.stringify({ plan: PLAN })}'`;
    return toolUse('Bash', { command: `${command} ${args}`, description: 'Record the session phase' });
  }
  if (!results[0]!.text.includes('Updated session'))
    return text(`Recording the phase failed: ${results[0]!.text.slice(0, 300)}`);
  // The API fails the agent that resumed the approved plan, once it works in executing (every retry of that request).
  if (interrupt && resumes && !carriesOn && results.length === 1) return { blocks: [], error: INJECTED_ERROR };
  if (!resumes && attempts !== undefined && results.length === 1) {
    const other = command.replace(/ update \S+$/, ` update ${attempts.decoy}`);
    return toolUse('Bash', { command: `${other} --phase executing`, description: "Record another agent's phase" });
  }
  if (!resumes && attempts !== undefined && results.length === 2) {
    const chained = `${command} --metadata '{"sneaked":true}' && touch ${attempts.marker}`;
    return toolUse('Bash', { command: chained, description: 'Record and do something else' });
  }
  if (carriesOn) return text(`Carried on after the interruption: ${PLAN} created.`);
  return text(
    resumes ? `Applied the approved plan: ${PLAN} created.` : `Plan ready: ${PLAN} to add. Waiting for your approval.`,
  );
}

/** The outcome of one play of the scenario. */
export interface Play {
  readonly interrupted: boolean;
  readonly install: Install;
  readonly runner: Runner;
  readonly claude: string;
  readonly mode: Mode;
  readonly label: string;
  /** `kind: detail` lines; empty when the play was clean. */
  readonly problems: string[];
  readonly transcript: string;
}

const PROMPTS = [
  `plan adding ${PLAN} with the terraform architect, then wait for my approval.`,
  'I approve the plan. Have the terraform architect apply it.',
] as const;

/** An interrupted play's third run, after the API failed the second run's sub-agent. */
const CARRY_ON_PROMPT = 'The API is back. Have the terraform architect carry on with the approved plan.';

const EXPECTED_HISTORY = [
  'initializing → approval',
  'approval → approval (resume)',
  'approval → executing',
  'executing → completed',
];

const EXPECTED_INTERRUPTED_HISTORY = [
  'initializing → approval',
  'approval → approval (resume)',
  'approval → executing',
  'executing → executing (interrupted)',
  'executing → executing (resume)',
  'executing → completed',
];

/**
 * Plays the scenario once in a fresh temp project: run 1 delegates and the sub-agent parks in approval; run 2
 * (a new `claude -p`) delegates again and the sub-agent, told it resumes, moves to executing and completes.
 * With `interrupt`, run 2's sub-agent dies of an injected API error once in executing, and run 3 carries it on to
 * completed. Writes a readable transcript into `transcripts`. The temp project is removed when the play was clean.
 */
export interface PlayOptions {
  readonly claude: Claude;
  readonly install: Install;
  readonly mode: Mode;
  readonly runner?: Runner;
  readonly label: string;
  readonly transcripts: string;
  /** The npm-installed bins (npmInstall), for `install: 'npm'`. */
  readonly npmBin?: string;
  /** Issue 22: run 2's sub-agent dies of an API error in executing; run 3 carries the session on. */
  readonly interrupt?: boolean;
}

export async function playScenario(options: PlayOptions): Promise<Play> {
  const { claude, install, mode, label, transcripts } = options;
  const runner = options.runner ?? 'print';
  const interrupt = options.interrupt === true;
  const prompts = interrupt ? [...PROMPTS, CARRY_ON_PROMPT] : [...PROMPTS];
  const project = makeHostProject(install, claude, options.npmBin);
  // Another agent's session, made by the user with the CLI: the sub-agent must not be able to record into it.
  const attempts: Attempts = {
    decoy: projectCli(project, 'create', '--agent', 'reviewer', '--purpose', 'decoy'),
    marker: join(project.base, 'chained-command-ran'),
  };
  const decoyBefore = storeSessions(project).find((s) => s.agent_id === attempts.decoy);
  const server = await startModelServer(scenarioScript(mode, attempts, interrupt));
  const problems: string[] = [];
  const report: string[] = [
    `# Real Claude Code ${claude.version} (${runner}), installed by ${install}, ${mode} sub-agent${interrupt ? ', interrupted by an API error' : ''} (${label})`,
    '',
    `Project: ${project.dir}`,
    '',
  ];
  try {
    let parked: StoredSession | undefined;
    for (const [index, prompt] of prompts.entries()) {
      const failing = interrupt && index === 1;
      const last = index === prompts.length - 1;
      const runLabel = `run${index + 1}`;
      server.setRun(runLabel);
      const prompted = `${runLabel.toUpperCase()} (${mode}): ${prompt}`;
      const seen = transcriptAgents(project);
      const run =
        runner === 'print'
          ? await runClaude(claude.path, project, server.url, runLabel, prompted)
          : await runInteractive(claude.path, project, server.url, runLabel, prompted, () =>
              storeSessions(project).some(
                (s) =>
                  s.agent_name === AGENT_TYPE &&
                  (index === 0
                    ? s.phase === 'approval' && s.claude?.stopped_at !== undefined
                    : failing
                      ? s.interruption?.waiting === true
                      : s.phase === 'completed'),
              ),
            );
      const requests = server.requests.filter((r) => r.run === runLabel);
      problems.push(
        ...(runner === 'print'
          ? checkRun(run, requests, mode, failing)
          : checkInteractiveRun(run, requests, attempts, index === 0)),
      );
      problems.push(
        ...checkParkedList(project, requests, index === 0 ? undefined : parked, runLabel, interrupt && last),
      );
      const agents =
        runner === 'print' ? startedAgents(run) : transcriptAgents(project).filter((a) => !seen.includes(a));
      if (runner === 'interactive' && agents.length !== 1)
        problems.push(`agent_count: ${runLabel} Claude Code's transcripts show ${agents.length} new agents`);
      const subContexts = requests
        .filter((r) => r.role === 'subagent')
        .map((r) => subagentContext((r.body as MessagesBody).messages));
      const sessions = storeSessions(project).filter((s) => s.agent_name === AGENT_TYPE);
      problems.push(...checkStore(project, runLabel, attempts.decoy));
      if (index === 0) {
        // The session the sub-agent parked (a duplicate, if any, is reported by checkStore).
        parked = sessions.find((s) => s.phase === 'approval') ?? sessions[0];
        problems.push(...checkParked(sessions, agents, subContexts, runLabel));
        if (runner === 'print') problems.push(...checkTold(run, parked));
        problems.push(...checkRefused(project, requests, attempts, decoyBefore, parked, runLabel));
      } else if (failing) {
        if (runner === 'print') problems.push(...checkTold(run, undefined));
        problems.push(...checkInterrupted(sessions, parked, agents, requests, runLabel));
      } else {
        if (runner === 'print') problems.push(...checkTold(run, undefined));
        problems.push(...checkCompleted(sessions, parked, agents, subContexts, runLabel, interrupt));
      }
      report.push(...describeRun(run, requests, project));
    }
    problems.push(...checkLog(project, interrupt));
  } catch (error) {
    problems.push(`play_error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await server.close();
  }
  report.push(
    '## Our hook log',
    '',
    '```',
    ...hookLog(project),
    '```',
    '',
    '## Problems',
    '',
    ...(problems.length === 0 ? ['none'] : problems.map((p) => `- ${p}`)),
    '',
  );
  const transcript = join(transcripts, `${label}.md`);
  writeFileSync(transcript, report.join('\n'));
  if (problems.length === 0) rmSync(project.base, { recursive: true, force: true });
  else problems.push(`kept_for_inspection: ${project.base}`);
  return { interrupted: interrupt, install, runner, claude: claude.version, mode, label, problems, transcript };
}

// --- checks: each returns `kind: detail` lines ---

/**
 * A `claude -p` run: the mode asked for, a clean exit and result, every hook exit 0, the hooks of a delegation ran (a
 * sub-agent the API failed gets StopFailure instead of SubagentStop, and in the foreground no PostToolUse: its Agent
 * tool failed), no complaint in the debug file but the API error itself when `failing`, one agent, a sub-agent request.
 */
function checkRun(run: ClaudeRun, requests: readonly RecordedRequest[], mode: Mode, failing = false): string[] {
  const problems: string[] = [];
  const at = run.label;
  if (backgrounded(run).some((b) => b !== (mode === 'background'))) {
    problems.push(
      `mode_mismatch: ${at} a ${mode} play started agents with is_backgrounded ${backgrounded(run).join(', ')}`,
    );
  }
  if (run.timedOut || run.status !== 0)
    problems.push(
      `run_failed: ${at} status ${run.status} signal ${run.signal} timedOut ${run.timedOut}: ${run.stderr.slice(0, 300)}`,
    );
  const result = run.events.filter((e) => e.type === 'result').at(-1);
  if (result === undefined || result.is_error !== false)
    problems.push(`run_failed: ${at} result ${JSON.stringify(result)?.slice(0, 300)}`);
  for (const hook of hookResponses(run)) {
    if (hook.exit_code !== 0 || hook.outcome !== 'success') {
      const what = `${String(hook.hook_name)} exit ${String(hook.exit_code)} ${String(hook.outcome)}`;
      problems.push(`hook_error: ${at} ${what}: ${String(hook.stderr).slice(0, 200)}`);
    }
  }
  const ran = new Set(hookResponses(run).map((h) => h.hook_event));
  const expected = failing
    ? ['PreToolUse', 'SubagentStart', ...(mode === 'background' ? ['PostToolUse'] : [])]
    : ['PreToolUse', 'SubagentStart', 'SubagentStop', 'PostToolUse'];
  for (const event of expected) if (!ran.has(event)) problems.push(`hook_missing: ${at} no ${event} hook ran`);
  // StopFailure's hooks are fire-and-forget: stream-json does not list them, the debug file does.
  if (failing && !debugHookRan(run, 'StopFailure', 'subagent-stop'))
    problems.push(`hook_missing: ${at} no StopFailure hook ran subagent-stop (debug file)`);
  problems.push(
    ...debugComplaints(run, failing ? INJECTED_ERROR.message : undefined).map((l) => `debug_complaint: ${l}`),
  );
  if (failing && !requests.some((r) => r.reply?.error !== undefined))
    problems.push(`no_injected_error: ${at} the API never failed the sub-agent`);
  if (startedAgents(run).length !== 1) problems.push(`agent_count: ${at} started ${startedAgents(run).length} agents`);
  if (!requests.some((r) => r.role === 'subagent')) problems.push(`no_subagent_request: ${at}`);
  return problems;
}

/**
 * An interactive run (no stream-json): it reached its goal before the time limit, Claude Code's debug file has no
 * complaint about our hooks and took our SubagentStart answer, one sub-agent asked the model.
 */
function checkInteractiveRun(
  run: ClaudeRun,
  requests: readonly RecordedRequest[],
  attempts: Attempts,
  first: boolean,
): string[] {
  const problems: string[] = [];
  // The user is asked about exactly the two attempts of the first run (another agent's session, a chained command),
  // never about the sub-agent's own recording command: that one our PermissionRequest answer lets through.
  // Where the terminal wraps a long command depends on the length of the paths in it (CI's checkout is deeper than
  // ours), and a wrap may eat the space it falls on: compare with the frame and all white space taken out.
  const prompts = run.prompts ?? [];
  const expected = first ? [attempts.decoy, '&& touch'] : [];
  const flat = prompts.map((p) => p.replace(/\s*\n\s*│?\s*/g, ' '));
  const bare = (text: string): string => text.replace(/[\s│]+/g, '');
  if (prompts.length !== expected.length || expected.some((part, i) => !bare(flat[i]!).includes(bare(part))))
    problems.push(
      `prompts: ${run.label} the user was asked ${prompts.length} times: ${JSON.stringify(flat).slice(0, 600)}`,
    );
  if (run.timedOut)
    problems.push(
      `run_failed: ${run.label} the store never reached the run's goal; screen: ${run.stdout.trim().slice(-400)}`,
    );
  problems.push(...debugComplaints(run).map((line) => `debug_complaint: ${line}`));
  if (!requests.some((r) => r.role === 'subagent')) problems.push(`no_subagent_request: ${run.label}`);
  return problems;
}

/**
 * Issue 44 item 2: what the person of `claude -p` is told (stream-json's system messages): after the run that parked
 * the approval, one line from our Stop hook naming the agent, what waits (its plan, or the call it asked for that the
 * inbox parked: the play's refused attempts) and the command that decides it; after any other run
 * (the session resumed, interrupted or completed: nothing new waits), none.
 */
function checkTold(run: ClaudeRun, parked: StoredSession | undefined): string[] {
  const told = run.events
    .filter((e) => e.type === 'system' && e.subtype === 'informational' && typeof e.content === 'string')
    .map((e) => String(e.content))
    .filter((content) => content.includes('agent-session:') && content.includes('decision'));
  if (parked === undefined)
    return told.length === 0 ? [] : [`told_again: ${run.label} the person was told again: ${JSON.stringify(told)}`];
  const expected = new RegExp(
    `^Stop says: agent-session: 1 decision waits — ${AGENT_TYPE} \\(\\w{8}\\) (waits for approval|asks to run) .* · decide with \`agent-session approve ${String(parked.agent_id)}\``,
  );
  return told.length === 1 && expected.test(told[0]!)
    ? []
    : [
        `not_told: ${run.label} stream-json's system messages from agent-session: ${JSON.stringify(told).slice(0, 600)}`,
      ];
}

/** Hooks that may list parked sessions for the main agent before it delegates (SessionStart, UserPromptSubmit). */
const PARKED_LIST_HOOKS = ['SessionStart', 'UserPromptSubmit'];

/**
 * The main agent's view before it delegates: with nothing parked (run 1) no parked-session list reaches it; with a
 * parked session (run 2) and SessionStart or UserPromptSubmit wired by `init`, its first request lists that session.
 */
function checkParkedList(
  project: HostProject,
  requests: readonly RecordedRequest[],
  parked: StoredSession | undefined,
  at: string,
  interrupted = false,
): string[] {
  const first = requests.find((r) => r.role === 'main');
  if (first === undefined) return [`no_main_request: ${at}`];
  const lists = contextsIn((first.body as MessagesBody).messages).filter((c) => PARKED_LIST_HOOKS.includes(c.hook));
  if (parked === undefined) {
    return lists.map(
      (c) => `parked_list_unexpected: ${at} ${c.hook} context with nothing parked: ${c.text.slice(0, 200)}`,
    );
  }
  if (!wiredEvents(project).some((event) => PARKED_LIST_HOOKS.includes(event))) return [];
  const listed = (c: DeliveredContext): boolean =>
    c.text.includes(parked.agent_id) &&
    c.text.includes(AGENT_TYPE) &&
    (!interrupted || c.text.includes('interrupted by'));
  if (lists.some(listed)) return [];
  return [
    `no_parked_list: ${at} the main agent's first request lists no parked ${parked.agent_id}: ${JSON.stringify(lists)}`,
  ];
}

function checkStore(project: HostProject, at: string, decoy: string): string[] {
  const all = storeSessions(project).filter((s) => s.agent_id !== decoy);
  const problems = all
    .filter((s) => s.phase === 'initializing')
    .map((s) => `initializing_left: ${at} ${s.agent_id} linked to ${s.claude?.agent_id}`);
  const mine = all.filter((s) => s.agent_name === AGENT_TYPE);
  if (mine.length !== 1)
    problems.push(
      `duplicate_session: ${at} ${mine.length} sessions for ${AGENT_TYPE}: ${mine.map((s) => `${s.agent_id} ${s.phase}`).join(', ')}`,
    );
  if (all.length !== mine.length)
    problems.push(
      `foreign_session: ${at} sessions of other agents: ${all
        .filter((s) => s.agent_name !== AGENT_TYPE)
        .map((s) => s.agent_name)
        .join(', ')}`,
    );
  return problems;
}

/**
 * The sub-agent's attempts beyond its own recording were denied: the other agent's session is as the user left it,
 * the chained command never ran and its recording part wrote nothing, both tool calls came back as errors, and our
 * log shows why our PermissionRequest answer let them go (while its own command was allowed by it).
 */
function checkRefused(
  project: HostProject,
  requests: readonly RecordedRequest[],
  attempts: Attempts,
  decoyBefore: StoredSession | undefined,
  parked: StoredSession | undefined,
  at: string,
): string[] {
  const problems: string[] = [];
  const decoy = storeSessions(project).find((s) => s.agent_id === attempts.decoy);
  if (decoyBefore === undefined || JSON.stringify(decoy) !== JSON.stringify(decoyBefore))
    problems.push(`decoy_written: ${at} another agent's session changed: ${JSON.stringify(decoy)?.slice(0, 300)}`);
  if (existsSync(attempts.marker)) problems.push(`chained_ran: ${at} the chained command created ${attempts.marker}`);
  if (parked?.metadata?.sneaked !== undefined) problems.push(`chained_recorded: ${at} ${parked.agent_id} has sneaked`);
  const last = requests.filter((r) => r.role === 'subagent').at(-1);
  const results = last === undefined ? [] : toolResults(last.body as MessagesBody);
  if (results.length !== 3) problems.push(`attempts_missing: ${at} the sub-agent made ${results.length} of 3 calls`);
  else if (results[0]!.isError || !results[1]!.isError || !results[2]!.isError)
    problems.push(`attempts_not_denied: ${at} ${JSON.stringify(results).slice(0, 400)}`);
  const log = hookLog(project).join('\n');
  for (const note of ['recording_allowed', 'not_its_session'])
    if (!log.includes(note)) problems.push(`permission_log: ${at} no ${note} line in our log`);
  // The chained command is no recording: parked as an inbox item where nobody can answer it (issue 33: a background
  // sub-agent, a headless run), else left to Claude Code; never allowed (the results above: denied).
  if (!/ permission_parked | not_ours /.test(log))
    problems.push(`permission_log: ${at} no permission_parked or not_ours line in our log`);
  return problems;
}

function checkParked(
  sessions: StoredSession[],
  agents: string[],
  contexts: (DeliveredContext | undefined)[],
  at: string,
): string[] {
  const problems: string[] = [];
  const parked = sessions.find((s) => s.phase === 'approval');
  if (parked === undefined)
    return [`not_parked: ${at} no session in approval (${sessions.map((s) => `${s.agent_id} ${s.phase}`).join(', ')})`];
  if (parked.claude?.stopped_at === undefined)
    problems.push(`left_running: ${at} ${parked.agent_id} parked without stopped_at`);
  if (parked.claude?.agent_id !== agents[0])
    problems.push(
      `wrong_link: ${at} ${parked.agent_id} linked to ${parked.claude?.agent_id}, the run started ${agents[0]}`,
    );
  if (parked.metadata?.plan !== PLAN)
    problems.push(`no_metadata: ${at} ${parked.agent_id} metadata ${JSON.stringify(parked.metadata)}`);
  if (contexts.length === 0 || contexts.some((c) => c === undefined))
    problems.push(`no_start_context: ${at} a sub-agent request without our SubagentStart context`);
  else if (!contexts.every((c) => c!.text.includes(`session ${parked.agent_id}`)))
    problems.push(`context_wrong_session: ${at} the context did not name ${parked.agent_id}`);
  return problems;
}

function checkCompleted(
  sessions: StoredSession[],
  parked: StoredSession | undefined,
  agents: string[],
  contexts: (DeliveredContext | undefined)[],
  at: string,
  interrupted = false,
): string[] {
  const problems: string[] = [];
  if (parked === undefined) return [`not_parked: ${at} run 1 left nothing parked to resume`];
  const first = contexts[0];
  if (contexts.length === 0 || contexts.some((c) => c === undefined))
    problems.push(`no_start_context: ${at} a sub-agent request without our SubagentStart context`);
  else if (!contexts.every((c) => c!.text.includes(`resumes session ${parked.agent_id}`))) {
    problems.push(
      `no_resume_context: ${at} the sub-agent was not told it resumes ${parked.agent_id}: ${first?.text.split('\n')[0]}`,
    );
  } else if (!first!.text.includes('approval') || !first!.text.includes(PLAN)) {
    problems.push(`resume_context_incomplete: ${at} no previous phase or metadata in: ${first!.text.slice(0, 300)}`);
  } else if (
    interrupted &&
    !['was interrupted by an API error (unknown)', 'in phase executing', INJECTED_ERROR.message].every((fact) =>
      first!.text.includes(fact),
    )
  ) {
    problems.push(`carry_on_context_incomplete: ${at} the interruption is not told in: ${first!.text.slice(0, 500)}`);
  }
  const session = sessions.find((s) => s.agent_id === parked.agent_id);
  if (session === undefined) return [...problems, `parked_lost: ${at} ${parked.agent_id} is gone`];
  if (session.phase !== 'completed')
    problems.push(
      `not_completed: ${at} ${session.agent_id} in ${session.phase}${session.claude?.stopped_at ? '' : ' (no stopped_at: left running)'}`,
    );
  if (session.finalized_at === undefined && session.phase === 'completed')
    problems.push(`not_finalized: ${at} ${session.agent_id} completed without finalized_at`);
  if (session.claude?.agent_id !== agents[0])
    problems.push(
      `wrong_link: ${at} ${session.agent_id} linked to ${session.claude?.agent_id}, the run started ${agents[0]}`,
    );
  const history = (session.history as { from_phase: string; to_phase: string; event?: string }[]).map(
    (h) => `${h.from_phase} → ${h.to_phase}${h.event ? ` (${h.event})` : ''}`,
  );
  if (JSON.stringify(history) !== JSON.stringify(interrupted ? EXPECTED_INTERRUPTED_HISTORY : EXPECTED_HISTORY))
    problems.push(`wrong_history: ${at} ${session.agent_id}: ${history.join('; ')}`);
  if (interrupted) {
    const { count, carried_on, waiting } = session.interruption ?? {};
    if (count !== 1 || carried_on !== 1 || waiting !== false)
      problems.push(`wrong_interruption: ${at} ${session.agent_id}: ${JSON.stringify(session.interruption)}`);
  }
  if (interrupted && session.error_count !== 0)
    problems.push(`interruption_counted_as_error: ${at} ${session.agent_id} has ${session.error_count} errors`);
  return problems;
}

/**
 * After the run whose sub-agent the API failed: the session it resumed waits in executing, interrupted (kind
 * `unknown`, the API's message), its link stopped on that agent, not finalized, no error counted; the API failed it.
 */
function checkInterrupted(
  sessions: StoredSession[],
  parked: StoredSession | undefined,
  agents: string[],
  requests: readonly RecordedRequest[],
  at: string,
): string[] {
  if (parked === undefined) return [`not_parked: ${at} run 1 left nothing parked to resume`];
  const session = sessions.find((s) => s.agent_id === parked.agent_id);
  if (session === undefined) return [`parked_lost: ${at} ${parked.agent_id} is gone`];
  const problems: string[] = [];
  if (!requests.some((r) => r.role === 'subagent' && r.reply?.error !== undefined))
    problems.push(`no_injected_error: ${at}`);
  const interruption = session.interruption;
  if (session.phase !== 'executing' || interruption?.waiting !== true)
    problems.push(
      `not_interrupted: ${at} ${session.agent_id} in ${session.phase}, interruption ${JSON.stringify(interruption)}`,
    );
  else if (
    interruption.error !== 'unknown' ||
    interruption.phase !== 'executing' ||
    interruption.agent_id !== agents[0] ||
    !String(interruption.message).includes(INJECTED_ERROR.message)
  )
    problems.push(`wrong_interruption: ${at} ${JSON.stringify(interruption)} (agent ${agents[0]})`);
  if (session.claude?.agent_id !== agents[0] || session.claude?.stopped_at === undefined)
    problems.push(`link_not_stopped: ${at} ${JSON.stringify(session.claude)}`);
  if (session.error_count !== 0) problems.push(`interruption_counted_as_error: ${at} ${session.error_count} errors`);
  return problems;
}

function checkLog(project: HostProject, interrupted = false): string[] {
  const lines = hookLog(project);
  const problems = lines.filter((line) => /\berror\b|warning=/.test(line)).map((line) => `log_error: ${line}`);
  if (
    interrupted &&
    !lines.some((line) => line.includes('event="StopFailure"') && line.includes('interruption="recorded"'))
  )
    problems.push('log_missing: no StopFailure line recording the interruption in our log');
  for (const event of ['SubagentStart', 'SubagentStop']) {
    const count = lines.filter((line) => line.includes(`event="${event}"`)).length;
    if (count < 2) problems.push(`log_missing: ${count} ${event} lines in our log for 2 runs`);
  }
  return problems;
}

// --- the transcript ---

function describeRun(run: ClaudeRun, requests: readonly RecordedRequest[], project: HostProject): string[] {
  const lines = [
    `## ${run.label}`,
    '',
    '```',
    `$ claude -p ${JSON.stringify(run.prompt)}`,
    '```',
    '',
    '### Hooks Claude Code ran (stream-json)',
    '',
  ];
  for (const hook of hookResponses(run)) {
    const output = String(hook.output ?? '').trim();
    lines.push(
      `- ${String(hook.hook_name)}: exit ${String(hook.exit_code)}${output ? `, answered ${output.length} characters` : ', no answer'}`,
    );
  }
  lines.push('', '### Our contexts as they reached the model', '');
  const seen = new Set<string>();
  for (const request of requests) {
    for (const context of contextsIn((request.body as MessagesBody).messages)) {
      const key = `${request.role} ${context.hook} ${context.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(
        `**${context.hook}**, in the ${request.role === 'subagent' ? 'sub-agent' : `${request.role} agent`}'s request:`,
        '',
        '```',
        context.text,
        '```',
        '',
      );
    }
  }
  if (seen.size === 0) lines.push('(none)', '');
  lines.push('### What the sub-agent did', '');
  for (const request of requests.filter((r) => r.role === 'subagent')) {
    const error = request.reply?.error;
    if (error !== undefined) lines.push(`- got an API error: HTTP ${error.status} ${error.type}: ${error.message}`);
    for (const block of request.reply?.blocks ?? []) {
      lines.push(
        block.type === 'text'
          ? `- said: ${block.text}`
          : `- ran ${block.name}: \`${String(block.input.command ?? JSON.stringify(block.input))}\``,
      );
    }
  }
  lines.push(
    '',
    '### What the user saw (the result of `claude -p`)',
    '',
    '```',
    resultText(run) ?? '(no result)',
    '```',
    '',
    `### The store after ${run.label}`,
    '',
  );
  for (const s of storeSessions(project)) {
    const history = (s.history ?? [])
      .map((h: StoredSession) => `${h.from_phase}→${h.to_phase}${h.event ? `(${h.event})` : ''}`)
      .join(', ');
    const link = `Claude agent ${s.claude?.agent_id ?? '-'}, stopped ${s.claude?.stopped_at ?? '-'}`;
    const interruption =
      s.interruption === undefined
        ? ''
        : `, interrupted ${s.interruption.count}× (carried on ${s.interruption.carried_on}${s.interruption.waiting ? ', waiting' : ''}; last ${s.interruption.error}: ${s.interruption.message ?? '-'})`;
    lines.push(
      `- ${s.agent_id} \`${s.agent_name}\` phase ${s.phase}, ${link}${interruption}, history: ${history || '-'}`,
    );
  }
  lines.push('');
  return lines;
}
