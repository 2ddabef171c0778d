// The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`) as a host: the hooks of `query()` as in-process callbacks.
// The SDK fires Claude Code's own events with Claude Code's own payloads, so every callback answers through the one
// answer of every host (answer.ts answerPayload → handlers/) on one call opened for the hooks object's life
// (app/hook-call.ts): no process start, no store opened per event. Its callbacks are the rows of src/core/events.ts
// that name the SDK.
import { eventsOf } from '../../core/events';
import { SessionError } from '../../core/errors';
import type { Host } from '../../core/host';
import { openHookCall } from '../../app/hook-call';
import { answerPayload, eventHead, writeLog, type Outcome } from '../answer';
import { agentRunOf, type RunningAgent } from '../handlers/attach';
import type { ClaudeCodeAnswer } from '../handlers';
import type { UpdatedInputAnswer } from '../handlers/continue';
import type { PermissionAnswer } from '../handlers/permission';
import { logValue } from '../log';
import { workingDirectory } from '../../platform/working-directory';
import { isClaudeCodePayload } from './claude-code';
import { ADAPTERS } from '.';
import { recorderOf, type AgentSdkToolKit, type RecordAllowAnswer } from './record-tool';

/** The host these hooks answer for (core/host.ts): the sessions they make name it. */
const SDK_HOST: Host = 'agent-sdk';

export type { AgentSdkToolKit } from './record-tool';

/** The SDK package, loaded only when the app does not hand us its functions (it is an optional peer). */
const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';
/** The in-process MCP server's name: its tool is `mcp__<name>__record` to the model. */
export const SDK_SERVER_NAME = 'agent-session';
/** The tool sub-agents record their phase with, as the model and the hooks' payloads name it. */
export const RECORD_TOOL = `mcp__${SDK_SERVER_NAME}__record`;
/** The log file of the in-process hooks, beside the command hooks' (pre-delegate.log, subagent-stop.log). */
export const SDK_LOG_FILE = 'agent-sdk.log';

/**
 * The SDK's matcher of a row's: the tool names anchored (the command hooks' matchers are Claude Code's settings', which
 * match a whole name), plus our own tool at PreToolUse, whose call the hooks map to its sub-agent and let run.
 */
function sdkMatcher(event: string, matcher: string | undefined): string | undefined {
  const tools = event === 'PreToolUse' ? [matcher, RECORD_TOOL].filter((t) => t !== undefined).join('|') : matcher;
  if (tools === undefined) return undefined;
  return tools.includes('|') ? `^(${tools})$` : `^${tools}$`;
}

/** What a callback answers: one of our hook answers, or `{}` (nothing to say: the SDK goes on as without us). */
export type SdkHookOutput =
  ClaudeCodeAnswer | PermissionAnswer | RecordAllowAnswer | UpdatedInputAnswer | Record<string, never>;

/** A hook callback in the SDK's shape (`HookCallback`): the payload, the tool use id, an abort signal. */
export type SdkHookCallback = (
  input: unknown,
  toolUseId: string | undefined,
  options: { readonly signal: AbortSignal },
) => Promise<SdkHookOutput>;

/** The SDK's permission answer (`PermissionResult`), as far as ours go. */
export type SdkPermissionResult =
  | { readonly behavior: 'allow'; readonly updatedInput: Record<string, unknown> }
  | { readonly behavior: 'deny'; readonly message: string };

/** The SDK's permission callback (`CanUseTool`), as an app's own one is passed to ours as `fallback`. */
export type SdkCanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: { readonly signal?: AbortSignal; readonly agentID?: string; readonly toolUseID?: string },
) => Promise<SdkPermissionResult>;

/** The deny words of the permission callback when it is not ours to decide and the app gave no fallback. */
export const SDK_NOT_DECIDED = 'Permission to use this tool was not granted: no one can answer this request here.';

/** One matcher group of `options.hooks` (`HookCallbackMatcher`). */
export interface SdkHookMatcher {
  readonly matcher?: string;
  readonly hooks: SdkHookCallback[];
}

/** Where the hooks object finds its store, and how it reaches the SDK. Every field is optional. */
export interface AgentSessionHooksOptions<Server = unknown> {
  /** The store folder; default as the CLI and the command hooks: AGENT_SESSION_DIR, else `<project>/.claude/session`. */
  readonly dir?: string;
  /** The folder the project is searched from; default the working directory (pass the `cwd` you give `query()`). */
  readonly cwd?: string;
  /** The environment read for AGENT_SESSION_* settings; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The SDK's `tool` and `createSdkMcpServer` (pass them from your import: the very SDK your app runs); default:
   * loaded with `import('@anthropic-ai/claude-agent-sdk')`.
   */
  readonly sdk?: AgentSdkToolKit<Server>;
}

/** What `query()` takes from us: spread `hooks` and `mcpServers` into its options; close when done. */
export interface AgentSessionHooks<Server = unknown> {
  /** `options.hooks`: our callbacks per event. Merge them with your own per event if you have any. */
  readonly hooks: Record<string, SdkHookMatcher[]>;
  /** `options.mcpServers`: the in-process server holding the `record` tool. */
  readonly mcpServers: Record<string, Server>;
  /** The tool's full name as the model sees it (`mcp__agent-session__record`), e.g. for an agent's `tools` list. */
  readonly recordTool: string;
  /** The store folder in use. */
  readonly root: string;
  /**
   * Tells agent-session that a query was stopped (`interrupt()`, its abort controller, a thrown iteration): the SDK then
   * fires no SubagentStop, so every sub-agent started through these hooks that has not stopped (of the query whose
   * `session_id` is given, else of every query) has its session wait, interrupted (kind `app_stopped`), for the next
   * delegation to carry it on. Never rejects (a failure is logged). @returns how many sessions it interrupted
   */
  interrupted(sessionId?: string): Promise<number>;
  /**
   * `options.canUseTool` of `query()` (issue 33, docs/permissions.md): a sub-agent's call (the SDK gives its `agentID`)
   * that is its own recording command or the call the user approved for its session (once) is allowed; one nobody
   * can answer (the SDK's run is non-interactive; `permission_inbox`) is parked in its session and denied with the
   * message naming the inbox item. Everything else (the main agent's calls, `permission_inbox: off`) goes to
   * `fallback` (your own permission callback) if you give one, else is denied with the SDK's plain words.
   */
  canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    options: { readonly signal?: AbortSignal; readonly agentID?: string; readonly toolUseID?: string },
    fallback?: SdkCanUseTool,
  ): Promise<SdkPermissionResult>;
  /**
   * Closes the store (a PostgreSQL connection) after `interrupted()` for the sub-agents still running (none when every
   * query ended normally); later events are answered with nothing.
   */
  close(): Promise<void>;
}

/**
 * A ready hooks object for the Claude Agent SDK's `query()`: the behaviour of the Claude Code hooks in-process (the
 * parked sessions listed before a delegation, the resumed session given to a sub-agent at SubagentStart, the stop
 * policy at SubagentStop, interruptions at StopFailure), and an in-process MCP tool with which a sub-agent records
 * its phase, findings or an error without a shell command or a permission prompt. Pass `settingSources: []` (or
 * settings without our command hooks) to `query()`, so the same events are not answered twice.
 * Every callback fails open: whatever breaks is logged (`agent-sdk.log` in the hooks' log folder) and answered `{}`.
 * @throws SessionError E_IO when the store root cannot be resolved; E_USAGE when the SDK is needed and cannot be loaded
 */
export async function agentSessionHooks<Server = unknown>(
  options: AgentSessionHooksOptions<Server> = {},
): Promise<AgentSessionHooks<Server>> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? workingDirectory();
  const call = openHookCall(env, cwd, {
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    inProcess: true,
    // Its sessions name the SDK: a Claude Code or Codex delegation of the same agent name never takes them over.
    host: SDK_HOST,
  });
  const sdk = options.sdk ?? ((await loadSdk()) as AgentSdkToolKit<Server>);
  // The contexts' CLI commands (the overview's `list`, a Bash recording) run the bin beside this library (no plugin's).
  const cli = ADAPTERS[SDK_HOST].cliWords({ binDir: __dirname, execPath: process.execPath, env: {} }, call.root);
  const log = (line: string, level: Outcome['level']): void => writeLog(call, SDK_LOG_FILE, `sdk ${line}`, level);
  const recorder = recorderOf(call, RECORD_TOOL, log);
  let closed = false;
  const running = new RunningAgents();
  const permissions = new CallDecisions();
  const callback: SdkHookCallback = async (input, toolUseId) => {
    if (closed || !isClaudeCodePayload(input)) return {};
    if (input.hook_event_name === 'PreToolUse' && input.tool_name === RECORD_TOOL) return recorder.preToolUse(input);
    running.saw(input);
    const answer = async (): Promise<SdkHookOutput | null> => {
      // As in canUseTool: an SDK app's run is non-interactive (known without the sub-agent's files, which the SDK's
      // Claude Code may not have written yet when it asks).
      const outcome = await answerPayload(input, call, env, {
        host: SDK_HOST,
        cli,
        recordingTool: RECORD_TOOL,
        launch: HEADLESS,
      });
      log(outcome.line, outcome.level);
      return outcome.answer as SdkHookOutput | null;
    };
    if (input.hook_event_name !== 'PermissionRequest') return (await answer()) ?? {};
    const decided = await permissions.once(toolUseId, async () => (await answer()) as PermissionAnswer | null);
    return decided ?? {};
  };
  const interrupted = async (sessionId?: string): Promise<number> => {
    if (closed) return 0;
    let count = 0;
    for (const agent of running.take(sessionId)) {
      const head = `${eventHead({ hook_event_name: 'app_stopped' }, SDK_HOST)} claude_agent=${logValue(agent.agent_id)}`;
      try {
        const attached = await call.sessions().claudeAgentFailed({ ...agent, error: APP_STOPPED });
        if (attached === null) {
          log(`${head} unknown_agent`, 'info');
          continue;
        }
        count++;
        log(
          `${head} ${attached.action} interruption=${logValue(attached.interruption)} phase=${logValue(attached.state.phase)} session=${logValue(attached.state.agent_id)}`,
          'info',
        );
      } catch (error) {
        log(`${head} error error=${logValue(error instanceof Error ? error.message : String(error))}`, 'error');
      }
    }
    return count;
  };
  const canUseTool: AgentSessionHooks['canUseTool'] = async (toolName, input, options, fallback) => {
    const notOurs = (): Promise<SdkPermissionResult> =>
      fallback === undefined
        ? Promise.resolve({ behavior: 'deny', message: SDK_NOT_DECIDED })
        : fallback(toolName, input, options);
    if (closed) return notOurs();
    const decided = await permissions.once(options.toolUseID, () => decideCall(toolName, input, options));
    const decision = decided?.hookSpecificOutput?.decision;
    if (decision?.behavior === 'allow') return { behavior: 'allow', updatedInput: input };
    if (decision?.behavior === 'deny') return { behavior: 'deny', message: decision.message };
    return notOurs();
  };
  const decideCall = async (
    toolName: string,
    input: Record<string, unknown>,
    options: { readonly agentID?: string },
  ): Promise<PermissionAnswer | null> => {
    const payload = {
      hook_event_name: 'PermissionRequest',
      tool_name: toolName,
      tool_input: input,
      // The SDK's callback names no folder: its calls run in the query's (issue 40 item 7: a grant holds there only).
      cwd,
      ...(options.agentID === undefined ? {} : { agent_id: options.agentID }),
    };
    // An SDK app runs non-interactively: a sub-agent's request there has nobody to ask (as in `claude -p`).
    const outcome = await answerPayload(payload, call, env, {
      host: SDK_HOST,
      cli,
      recordingTool: RECORD_TOOL,
      launch: HEADLESS,
    });
    log(`can_use_tool ${outcome.line}`, outcome.level);
    return outcome.answer as PermissionAnswer | null;
  };
  const hooks: Record<string, SdkHookMatcher[]> = {};
  for (const row of eventsOf(SDK_HOST)) {
    const matcher = sdkMatcher(row.event, row.matcher);
    hooks[row.event] = [{ ...(matcher === undefined ? {} : { matcher }), hooks: [callback] }];
  }
  // alwaysLoad: by default the SDK defers MCP tools behind its tool search, and a sub-agent told to record with the
  // tool would not find it among its tools (seen with 0.3.332).
  const server = sdk.createSdkMcpServer({
    name: SDK_SERVER_NAME,
    version: '1',
    tools: [recorder.tool(sdk)],
    alwaysLoad: true,
  });
  return {
    hooks,
    mcpServers: { [SDK_SERVER_NAME]: server },
    recordTool: RECORD_TOOL,
    root: call.root,
    interrupted,
    canUseTool,
    close: async () => {
      await interrupted();
      closed = true;
      await call.close();
    },
  };
}

/**
 * The interruption kind of a sub-agent whose query the app stopped (core/interruption.ts words it); no message: the
 * contexts would quote it as the host's.
 */
export const APP_STOPPED = 'app_stopped';
/**
 * The sub-agents these hooks saw start and not stop (handlers/attach.ts agentRunOf): the SDK fires no hook when the app
 * stops a query (`interrupt()`, abort; seen with 0.3.332: a `task_notification` with status `stopped` is the only
 * trace), so the hooks object remembers them for `interrupted()`.
 */
class RunningAgents {
  readonly #agents = new Map<string, RunningAgent>();

  saw(payload: Record<string, unknown>): void {
    const run = agentRunOf(payload);
    if (run === null) return;
    if ('ended' in run) this.#agents.delete(run.ended);
    else this.#agents.set(run.started.agent_id, run.started);
  }

  /** Removes and returns the running agents (of one query when `sessionId` is given). */
  take(sessionId?: string): RunningAgent[] {
    const taken = [...this.#agents.values()].filter((a) => sessionId === undefined || a.session_id === sessionId);
    for (const agent of taken) this.#agents.delete(agent.agent_id);
    return taken;
  }
}

/** The SDK's functions, from the package (ESM only: a dynamic import, which esbuild keeps as one in our CommonJS). */
async function loadSdk(): Promise<AgentSdkToolKit<unknown>> {
  try {
    return (await import(SDK_PACKAGE)) as AgentSdkToolKit<unknown>;
  } catch (error) {
    throw new SessionError(
      'E_USAGE',
      `agentSessionHooks needs ${SDK_PACKAGE} (npm install ${SDK_PACKAGE}), or its functions as \`sdk: { tool, createSdkMcpServer }\`: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** What the SDK host knows of every sub-agent's launch: nobody sits at an SDK app's run to answer a prompt. */
const HEADLESS = { headless: true } as const;

/** How many calls' decisions are kept: far more than one query has in flight at once. */
const KEPT_DECISIONS = 1000;

/**
 * One permission decision per tool call. The SDK asks both the app's permission callback (our `canUseTool`, when the
 * app wires it) and the PermissionRequest hook about the same call, with the same tool use id (the real SDK, 0.3.332:
 * `canUseTool` first, the hook a millisecond later: tests/host/sdk.host.ts). Decided twice, a grant spent by the first
 * would be parked again by the second, and the session sent back to approval after its call ran. So the first asker
 * decides, and the second gets the same answer; the promise is kept at once, so an asker that comes while the first
 * is still deciding waits for it. A call without an id is decided each time.
 */
class CallDecisions {
  readonly #decided = new Map<string, Promise<PermissionAnswer | null>>();

  /** The decision of call `toolUseId`: the one made first, else `decide()`'s (never rejects: answerPayload fails open). */
  once(
    toolUseId: string | undefined,
    decide: () => Promise<PermissionAnswer | null>,
  ): Promise<PermissionAnswer | null> {
    if (toolUseId === undefined || toolUseId === '') return decide();
    const earlier = this.#decided.get(toolUseId);
    if (earlier !== undefined) return earlier;
    const decision = decide();
    this.#decided.set(toolUseId, decision);
    if (this.#decided.size > KEPT_DECISIONS) this.#decided.delete(this.#decided.keys().next().value!);
    return decision;
  }
}
