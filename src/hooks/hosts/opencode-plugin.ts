// opencode (https://opencode.ai) as a host: agent-session's plugin, in-process. opencode loads it from
// `.opencode/plugin/agent-session.js` (written by `agent-session init --host opencode`), calls it once at start and
// awaits its hooks; each hook is read as the Claude Code payload of a row of src/core/events.ts that names opencode and
// answered through the one answer of every host (answer.ts answerPayload → handlers/), on one call opened for the
// plugin's life (app/hook-call.ts): no process per event, no store opened per event. What opencode fires and carries
// is in tests/fixtures/opencode/README.md (captured from opencode 1.18.33).
import type { Host } from '../../core/host';
import { openHookCall, type HookCall } from '../../app/hook-call';
import { processGone, processMark } from '../../platform/lock';
import { workingDirectory } from '../../platform/working-directory';
import { excerpt } from '../../core/text';
import { delegatedTaskOf } from '../../core/task';
import { answerPayload, eventHead, writeLog, type Outcome } from '../answer';
import { logValue } from '../log';
import { ADAPTERS, type HostPayload } from '.';

/** The host this plugin answers for (core/host.ts): the sessions it makes name it. */
const OPENCODE_HOST: Host = 'opencode';
/** The plugin's log file, beside the command hooks' (pre-delegate.log, subagent-stop.log). */
export const OPENCODE_LOG_FILE = 'opencode.log';
/** opencode's tool that runs a sub-agent (`subagent_type`; `task_id` continues that child session). */
export const TASK_TOOL = 'task';
/**
 * The interruption kind of a sub-agent whose opencode run was stopped (Ctrl-C, a killed process) while it worked:
 * opencode fires nothing then; the next task call of its agent type finds it (core/interruption.ts words it).
 */
export const RUN_STOPPED = 'run_stopped';

/** opencode's v1 SDK client as a plugin gets it (`ctx.client`): the calls used, a session's read, a permission's reply. */
export interface OpencodeClient {
  readonly session?: {
    get?(options: { readonly path: { readonly id: string } }): Promise<{ readonly data?: unknown }>;
  };
  postSessionIdPermissionsPermissionId?(options: {
    readonly path: { readonly id: string; readonly permissionID: string };
    readonly body: { readonly response: 'once' | 'always' | 'reject' };
  }): Promise<unknown>;
}

/** What opencode hands a plugin (`PluginInput` of @opencode-ai/plugin 1.18): the fields read here. */
export interface OpencodePluginInput {
  /** Where opencode started (the store is searched from it, as from a Claude Code payload's `cwd`). */
  readonly directory?: string;
  readonly worktree?: string;
  readonly client?: OpencodeClient;
}

/** Where the plugin finds its store. Every field is optional (tests and apps; opencode passes none). */
export interface OpencodePluginOptions {
  /** The store folder; default as the CLI and the command hooks: AGENT_SESSION_DIR, else `<project>/.claude/session`. */
  readonly dir?: string;
  /** The environment read for AGENT_SESSION_* settings; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The mark of the process the task calls run in (platform/lock.ts processMark), written into the links' agent ids;
   * default this process's. Only a test stands for another process with it.
   */
  readonly processMark?: string;
}

/** A message part as `chat.message` hands it (a text part has `text`). */
export interface OpencodePart {
  readonly id?: string;
  readonly type?: string;
  readonly text?: string;
  readonly [key: string]: unknown;
}

/** The hooks opencode calls (`Hooks` of @opencode-ai/plugin 1.18): those agent-session answers. */
export interface OpencodeHooks {
  event(input: { readonly event: { readonly type?: string; readonly properties?: unknown } }): Promise<void>;
  'chat.message'(
    input: { readonly sessionID?: string; readonly agent?: string },
    output: { readonly parts: OpencodePart[] },
  ): Promise<void>;
  'tool.execute.before'(
    input: { readonly tool?: string; readonly sessionID?: string; readonly callID?: string },
    output: { args: Record<string, unknown> },
  ): Promise<void>;
  'tool.execute.after'(
    input: { readonly tool?: string; readonly sessionID?: string; readonly callID?: string; readonly args?: unknown },
    output: { readonly output?: unknown; readonly metadata?: unknown },
  ): Promise<void>;
}

/**
 * agent-session's opencode plugin: the parked sessions told to the main agent with each prompt of its (`chat.message`:
 * a text part added), a sub-agent's session made or resumed when the `task` tool runs (`tool.execute.before`: the
 * session's context put before the task's prompt, and `task_id` set to the parked session's last child session when
 * opencode still has it, so the child continues with its own history; a primed new child otherwise), its stop
 * (`tool.execute.after`) and its interruption (the child's `session.error`, the task's part turned `error`). The agent
 * id of a link is the task call's id, its `session_id` the opencode child session. Every hook fails open: whatever
 * breaks is logged (`opencode.log` in the hooks' log folder) and opencode goes on as without us.
 * @throws SessionError E_IO when the store root cannot be resolved (opencode then logs that the plugin failed to load
 *   and runs without it)
 */
export async function opencodePlugin(
  input: OpencodePluginInput,
  options: OpencodePluginOptions = {},
): Promise<OpencodeHooks> {
  const env = options.env ?? process.env;
  const cwd = input.directory ?? workingDirectory();
  const call = openHookCall(env, cwd, {
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    inProcess: true,
    // Its sessions name opencode: a Claude Code, Codex or Agent SDK delegation of the same agent name never takes them.
    host: OPENCODE_HOST,
  });
  // The contexts' CLI commands run the bin beside this library, with the shell's node.
  const cli = ADAPTERS[OPENCODE_HOST].cliWords({ binDir: __dirname, env: {} }, call.root);
  const log = (line: string, level: Outcome['level']): void => writeLog(call, OPENCODE_LOG_FILE, line, level);
  const ask = async (payload: HostPayload): Promise<object | null> => {
    const outcome = await answerPayload({ ...payload, ...(cwd === undefined ? {} : { cwd }) }, call, env, {
      host: OPENCODE_HOST,
      cli,
    });
    log(outcome.line, outcome.level);
    return outcome.answer;
  };
  const answer = async (payload: HostPayload): Promise<string | undefined> => contextOf(await ask(payload));
  const tasks = new TaskCalls(options.processMark ?? processMark());
  // One step at a time, in the order opencode fired them: a task's start (before), its child learnt (an event), its
  // stop (after) or failure (events). The `event` hook is not awaited by opencode; the others are.
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (hook: string, work: () => Promise<void>): Promise<void> => {
    const step = queue.then(() => guarded(log, hook, work));
    queue = step;
    return step;
  };
  return {
    event: ({ event }) => {
      // A permission asked is answered at once, beside the queue (it only reads): `opencode run` rejects every ask
      // itself milliseconds later.
      const permission = permissionStep(event, tasks, ask, input.client);
      if (permission !== null) return guarded(log, 'event:permission.asked', permission);
      const step = eventStep(event, tasks, answer);
      return step === null ? Promise.resolve() : inOrder(`event:${event.type ?? ''}`, step);
    },
    'chat.message': (message, output) =>
      // A sub-agent's prompt names its agent: only the main agent's prompts get the overview.
      message.agent !== undefined
        ? Promise.resolve()
        : inOrder('chat.message', async () => {
            const context = await answer({
              hook_event_name: 'UserPromptSubmit',
              ...(message.sessionID === undefined ? {} : { session_id: message.sessionID }),
            });
            const first = output.parts.find((part) => part.type === 'text' && typeof part.id === 'string');
            if (context === undefined || first === undefined) return;
            output.parts.push({ ...first, id: `${first.id}as`, text: context, synthetic: true });
          }),
    'tool.execute.before': (tool, output) =>
      tool.tool !== TASK_TOOL || typeof tool.callID !== 'string'
        ? Promise.resolve()
        : inOrder('tool.execute.before', () =>
            taskStarts(call, input.client, tool.callID!, output.args, tasks, answer),
          ),
    'tool.execute.after': (tool, output) =>
      tool.tool !== TASK_TOOL || typeof tool.callID !== 'string'
        ? Promise.resolve()
        : inOrder('tool.execute.after', async () => {
            const callId = tool.callID!;
            const task = tasks.get(callId);
            const agentId = tasks.agentId(callId);
            const child = textField(output.metadata, 'sessionId') ?? task?.child;
            const agentType = task?.agentType ?? textField(tool.args, 'subagent_type');
            const message = taskResult(output.output);
            tasks.end(callId);
            await answer({
              hook_event_name: 'SubagentStop',
              agent_id: agentId,
              ...(agentType === undefined ? {} : { agent_type: agentType }),
              ...(child === undefined ? {} : { session_id: child }),
              ...(message === undefined ? {} : { last_assistant_message: message }),
            });
          }),
  };
}

/**
 * A task call starting: the resume decided (the agent type's parked session; its last child session continued by
 * `task_id` when opencode still has it, and the model named none), the session attached to this call, its context put
 * before the prompt.
 */
async function taskStarts(
  call: HookCall,
  client: OpencodeClient | undefined,
  callId: string,
  args: Record<string, unknown>,
  tasks: TaskCalls,
  answer: (payload: HostPayload) => Promise<string | undefined>,
): Promise<void> {
  const agentType = textField(args, 'subagent_type');
  if (agentType === undefined) return;
  const sessions = call.sessions();
  // A run stopped while this type's sub-agent worked left its session running: interrupted now, so it is parked.
  const newest = await sessions.newestOf(agentType);
  const link = newest?.claude;
  if (link !== undefined && link.stopped_at === undefined && tasks.ranInGoneProcess(link.agent_id)) {
    await answer({
      hook_event_name: 'StopFailure',
      agent_id: link.agent_id,
      agent_type: agentType,
      ...(link.session_id === undefined ? {} : { session_id: link.session_id }),
      error: RUN_STOPPED,
    });
  }
  let child = textField(args, 'task_id');
  // The task's own words, read before the session's context is put before its prompt (core/task.ts).
  const task = delegatedTaskOf(args);
  if (child === undefined) {
    // A parked session holding a decision or a grant for another task is passed over (not continued by task_id).
    const offered = await sessions.offerDelegation(agentType, task);
    const parked = offered?.kind === 'resume' ? offered.state : null;
    const last = parked?.claude?.session_id;
    // An unknown task_id would make a fresh child silently: set only one opencode still has.
    if (last !== undefined && (await sessionExists(client, last))) {
      args.task_id = last;
      child = last;
    }
  }
  tasks.start(callId, agentType, child);
  const context = await answer({
    hook_event_name: 'SubagentStart',
    agent_id: tasks.agentId(callId),
    agent_type: agentType,
    ...(child === undefined ? {} : { session_id: child }),
    ...(task === null ? {} : { tool_input: task }),
  });
  if (context === undefined) return;
  const prompt = typeof args.prompt === 'string' ? args.prompt : '';
  args.prompt = `${context}\n\n${prompt}`;
}

/**
 * A sub-agent's `permission.asked` for `bash` (`{id, sessionID, permission, patterns, metadata: {command}}`), as the
 * PermissionRequest of Claude Code's Bash: its own recording command (and nothing else) is allowed, by replying `once`
 * through opencode's client. Anything else gets no reply: opencode's own flow decides.
 */
function permissionStep(
  event: { readonly type?: string; readonly properties?: unknown },
  tasks: TaskCalls,
  ask: (payload: HostPayload) => Promise<object | null>,
  client: OpencodeClient | undefined,
): (() => Promise<void>) | null {
  if (event.type !== 'permission.asked') return null;
  const properties = objectOf(event.properties);
  const child = textField(properties, 'sessionID');
  const id = textField(properties, 'id');
  const command = textField(properties?.metadata, 'command');
  const callId = child === undefined ? undefined : tasks.callOf(child);
  const reply = client?.postSessionIdPermissionsPermissionId;
  if (properties?.permission !== 'bash' || id === undefined || command === undefined || callId === undefined)
    return null;
  return async () => {
    const answer = await ask({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command },
      agent_id: tasks.agentId(callId),
      agent_type: tasks.get(callId)?.agentType ?? '',
      session_id: child!,
    });
    const decision = objectOf(objectOf(objectOf(answer)?.hookSpecificOutput)?.decision);
    if (decision?.behavior !== 'allow' || reply === undefined) return;
    await reply.call(client, { path: { id: child!, permissionID: id }, body: { response: 'once' } });
  };
}

/** The work of one opencode event, or null when it is none of ours (most events: parts' deltas, statuses). */
function eventStep(
  event: { readonly type?: string; readonly properties?: unknown },
  tasks: TaskCalls,
  answer: (payload: HostPayload) => Promise<string | undefined>,
): (() => Promise<void>) | null {
  const properties = objectOf(event.properties);
  if (event.type === 'message.part.updated') {
    const part = objectOf(properties?.part);
    const callId = textField(part, 'callID');
    if (part?.type !== 'tool' || part.tool !== TASK_TOOL || callId === undefined) return null;
    const task = tasks.get(callId);
    if (task === undefined) return null;
    const state = objectOf(part.state);
    const child = textField(state?.metadata, 'sessionId');
    if (state?.status === 'running' && child !== undefined && task.child !== child) {
      // The child session learnt (a new one: its id goes on the link, for a later task_id resume).
      tasks.child(callId, child);
      return async () => {
        await answer({
          hook_event_name: 'SubagentStart',
          agent_id: tasks.agentId(callId),
          agent_type: task.agentType,
          session_id: child,
        });
      };
    }
    if (state?.status === 'error') {
      tasks.end(callId);
      const failure = (child === undefined ? undefined : tasks.failureOf(child)) ?? {
        kind: 'unknown',
        message: textField(state, 'error'),
      };
      return () => failed(answer, tasks.agentId(callId), task.agentType, child ?? task.child, failure);
    }
    return null;
  }
  if (event.type === 'session.error') {
    const child = textField(properties, 'sessionID');
    const callId = child === undefined ? undefined : tasks.callOf(child);
    if (child === undefined || callId === undefined) return null;
    const failure = failureOf(properties?.error);
    tasks.failed(child, failure);
    const task = tasks.get(callId);
    return () => failed(answer, tasks.agentId(callId), task?.agentType, child, failure);
  }
  return null;
}

function failed(
  answer: (payload: HostPayload) => Promise<string | undefined>,
  agentId: string,
  agentType: string | undefined,
  child: string | undefined,
  failure: Failure,
): Promise<void> {
  return answer({
    hook_event_name: 'StopFailure',
    agent_id: agentId,
    ...(agentType === undefined ? {} : { agent_type: agentType }),
    ...(child === undefined ? {} : { session_id: child }),
    error: failure.kind,
    ...(failure.message === undefined ? {} : { error_details: failure.message }),
  }).then(() => undefined);
}

/** A child session's failure: the interruption kind (core/interruption-kinds.ts) and the API's message. */
export interface Failure {
  readonly kind: string;
  readonly message?: string;
}

/**
 * The failure of an opencode `session.error`'s `error` (`{name, data: {message, statusCode, isRetryable}}`): its kind
 * in Claude Code's words by the HTTP status (a rate limit, an overload, a server error, a login, a refused request),
 * else `unknown`; its message.
 */
export function failureOf(error: unknown): Failure {
  const data = objectOf(objectOf(error)?.data);
  const status = typeof data?.statusCode === 'number' ? data.statusCode : undefined;
  const message = textField(data, 'message') ?? textField(error, 'name');
  const kind =
    status === 429
      ? 'rate_limit'
      : status === 503 || status === 529
        ? 'overloaded'
        : status === 401 || status === 403
          ? 'authentication_failed'
          : status === 404
            ? 'model_not_found'
            : status !== undefined && status >= 500
              ? 'server_error'
              : status !== undefined && status >= 400
                ? 'invalid_request'
                : 'unknown';
  return { kind, ...(message === undefined ? {} : { message }) };
}

const RESULT_LIMIT = 2000;

/**
 * The sub-agent's last answer in a `task` tool's output (`<task id="…" state="completed">\n<task_result>\n…\n
 * </task_result>\n</task>`), else the output itself; undefined when there is no text.
 */
export function taskResult(output: unknown): string | undefined {
  if (typeof output !== 'string') return undefined;
  const inner = /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(output)?.[1] ?? output;
  const text = inner.trim();
  return text === '' ? undefined : excerpt(text, RESULT_LIMIT);
}

/**
 * The task calls this plugin saw start and not end: their agent type, child session and the child's failure; and the
 * agent id of a call on a link: `<callID>@<this process's mark>` (platform/lock.ts processMark), so that a later run
 * can tell a link left running by a process that is gone.
 */
class TaskCalls {
  readonly #mark: string;
  readonly #calls = new Map<string, { agentType: string; child?: string }>();
  readonly #failures = new Map<string, Failure>();

  constructor(mark: string) {
    this.#mark = mark;
  }

  /** The agent id of a task call on its session's link. */
  agentId(callId: string): string {
    return `${callId}@${this.#mark}`;
  }

  /** Whether a link's agent id names a task call of an opencode process that is gone (never this one's). */
  ranInGoneProcess(agentId: string): boolean {
    const at = agentId.lastIndexOf('@');
    if (at < 0) return false;
    const mark = agentId.slice(at + 1);
    return mark !== this.#mark && processGone(mark);
  }

  start(callId: string, agentType: string, child: string | undefined): void {
    this.#calls.set(callId, { agentType, ...(child === undefined ? {} : { child }) });
  }

  get(callId: string): { readonly agentType: string; readonly child?: string } | undefined {
    return this.#calls.get(callId);
  }

  child(callId: string, child: string): void {
    const call = this.#calls.get(callId);
    if (call !== undefined) call.child = child;
  }

  callOf(child: string): string | undefined {
    for (const [callId, call] of this.#calls) if (call.child === child) return callId;
    return undefined;
  }

  failed(child: string, failure: Failure): void {
    this.#failures.set(child, failure);
  }

  failureOf(child: string): Failure | undefined {
    return this.#failures.get(child);
  }

  end(callId: string): void {
    const child = this.#calls.get(callId)?.child;
    if (child !== undefined) this.#failures.delete(child);
    this.#calls.delete(callId);
  }
}

/** Whether opencode still has a session (`client.session.get`); false when it cannot tell. */
async function sessionExists(client: OpencodeClient | undefined, id: string): Promise<boolean> {
  const get = client?.session?.get;
  if (get === undefined) return false;
  try {
    const found = await get.call(client!.session, { path: { id } });
    return textField(found?.data, 'id') === id;
  } catch {
    return false;
  }
}

/** One hook's work, failing open: whatever it throws is logged and nothing else happens. */
async function guarded(
  log: (line: string, level: Outcome['level']) => void,
  hook: string,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    log(`${eventHead({ hook_event_name: hook }, OPENCODE_HOST)} error error=${logValue(problem)}`, 'error');
  }
}

function contextOf(answer: object | null): string | undefined {
  const output = objectOf((answer as Record<string, unknown> | null)?.hookSpecificOutput);
  return textField(output, 'additionalContext');
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function textField(value: unknown, key: string): string | undefined {
  const field = objectOf(value)?.[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}
