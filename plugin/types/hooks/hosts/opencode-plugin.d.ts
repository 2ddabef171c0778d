/** The plugin's log file, beside the command hooks' (pre-delegate.log, subagent-stop.log). */
export declare const OPENCODE_LOG_FILE = "opencode.log";
/** opencode's tool that runs a sub-agent (`subagent_type`; `task_id` continues that child session). */
export declare const TASK_TOOL = "task";
/**
 * The interruption kind of a sub-agent whose opencode run was stopped (Ctrl-C, a killed process) while it worked:
 * opencode fires nothing then; the next task call of its agent type finds it (core/interruption.ts words it).
 */
export declare const RUN_STOPPED = "run_stopped";
/** opencode's v1 SDK client as a plugin gets it (`ctx.client`): the calls used, a session's read, a permission's reply. */
export interface OpencodeClient {
    readonly session?: {
        get?(options: {
            readonly path: {
                readonly id: string;
            };
        }): Promise<{
            readonly data?: unknown;
        }>;
    };
    postSessionIdPermissionsPermissionId?(options: {
        readonly path: {
            readonly id: string;
            readonly permissionID: string;
        };
        readonly body: {
            readonly response: 'once' | 'always' | 'reject';
        };
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
    event(input: {
        readonly event: {
            readonly type?: string;
            readonly properties?: unknown;
        };
    }): Promise<void>;
    'chat.message'(input: {
        readonly sessionID?: string;
        readonly agent?: string;
    }, output: {
        readonly parts: OpencodePart[];
    }): Promise<void>;
    'tool.execute.before'(input: {
        readonly tool?: string;
        readonly sessionID?: string;
        readonly callID?: string;
    }, output: {
        args: Record<string, unknown>;
    }): Promise<void>;
    'tool.execute.after'(input: {
        readonly tool?: string;
        readonly sessionID?: string;
        readonly callID?: string;
        readonly args?: unknown;
    }, output: {
        readonly output?: unknown;
        readonly metadata?: unknown;
    }): Promise<void>;
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
export declare function opencodePlugin(input: OpencodePluginInput, options?: OpencodePluginOptions): Promise<OpencodeHooks>;
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
export declare function failureOf(error: unknown): Failure;
/**
 * The sub-agent's last answer in a `task` tool's output (`<task id="…" state="completed">\n<task_result>\n…\n
 * </task_result>\n</task>`), else the output itself; undefined when there is no text.
 */
export declare function taskResult(output: unknown): string | undefined;
