import * as z from 'zod/mini';
import './zod-locale';
export declare const HistoryEntrySchema: z.ZodMiniObject<{
    from_phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
        completed: "completed";
        failed: "failed";
        abandoned: "abandoned";
    }>;
    to_phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
        completed: "completed";
        failed: "failed";
        abandoned: "abandoned";
    }>;
    timestamp: z.z.iso.ZodMiniISODateTime;
    event: z.ZodMiniOptional<z.ZodMiniEnum<{
        resume: "resume";
        interrupted: "interrupted";
        continue: "continue";
    }>>;
}, z.z.core.$strict>;
/**
 * A session's interruptions (schema_version 4): its agent died of a host failure, not of its own error. `count` of
 * them recorded (never in `error_count`), `carried_on` of them picked up by a later delegation, `waiting` from the
 * failure until that pickup; and the last one: when, the host's error kind, an excerpt of its message (keys masked),
 * the phase it stopped in and the Claude agent that died.
 */
export declare const InterruptionSchema: z.ZodMiniObject<{
    count: z.ZodMiniInt;
    carried_on: z.ZodMiniInt;
    waiting: z.ZodMiniBoolean<boolean>;
    at: z.z.iso.ZodMiniISODateTime;
    error: z.ZodMiniString<string>;
    message: z.ZodMiniOptional<z.ZodMiniString<string>>;
    phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
    }>;
    agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
}, z.z.core.$strict>;
/**
 * What a parked session was when a new Claude agent resumed it: its phase and last activity, and the previous
 * agent's id and last message. Kept on the link so the sub-agent's SubagentStart, whenever it arrives, tells it so.
 */
export declare const ResumedFromSchema: z.ZodMiniObject<{
    phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
    }>;
    last_active: z.z.iso.ZodMiniISODateTime;
    agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
    last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
    interruption: z.ZodMiniOptional<z.ZodMiniObject<{
        at: z.z.iso.ZodMiniISODateTime;
        error: z.ZodMiniString<string>;
        message: z.ZodMiniOptional<z.ZodMiniString<string>>;
    }, z.z.core.$strict>>;
}, z.z.core.$strict>;
/**
 * The Claude Code sub-agent a session is linked to (set by the Claude Code hooks, absent otherwise):
 * Claude's `agent_id` (the SendMessage target), its `session_id` and `agent_type`, when the link was made,
 * when that agent stopped (absent while it runs; once set for an agent id it stays), an excerpt of its last
 * message, and what the session was when this agent resumed it.
 */
export declare const ClaudeLinkSchema: z.ZodMiniObject<{
    agent_id: z.ZodMiniString<string>;
    session_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
    agent_type: z.ZodMiniOptional<z.ZodMiniString<string>>;
    linked_at: z.z.iso.ZodMiniISODateTime;
    stopped_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
    resumed_from: z.ZodMiniOptional<z.ZodMiniObject<{
        phase: z.ZodMiniEnum<{
            initializing: "initializing";
            investigating: "investigating";
            planning: "planning";
            approval: "approval";
            executing: "executing";
            validating: "validating";
        }>;
        last_active: z.z.iso.ZodMiniISODateTime;
        agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
        last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
        interruption: z.ZodMiniOptional<z.ZodMiniObject<{
            at: z.z.iso.ZodMiniISODateTime;
            error: z.ZodMiniString<string>;
            message: z.ZodMiniOptional<z.ZodMiniString<string>>;
        }, z.z.core.$strict>>;
    }, z.z.core.$strict>>;
}, z.z.core.$strict>;
/**
 * How the session's Claude agent is carried on (schema_version 9, issue 34): the last choice between continuing the
 * stopped agent itself with its context (SendMessage to `claude_agent_id`, its transcript reachable and within the
 * size limit) and priming a fresh agent with what the session holds, when it was made and why; the transcript looked
 * at; `continuing` from a continuation's SendMessage until its agent starts again; how many times it came back.
 */
export declare const ContinuationSchema: z.ZodMiniObject<{
    choice: z.ZodMiniEnum<{
        continue: "continue";
        prime: "prime";
    }>;
    reason: z.ZodMiniString<string>;
    decided_at: z.z.iso.ZodMiniISODateTime;
    claude_agent_id: z.ZodMiniString<string>;
    transcript_path: z.ZodMiniOptional<z.ZodMiniString<string>>;
    transcript_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
    continuing: z.ZodMiniBoolean<boolean>;
    continued_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    count: z.ZodMiniInt;
}, z.z.core.$strict>;
/**
 * Where a decision was recorded from (schema_version 3): the OS account of the recording process (the password
 * database's name, else `uid N`), whether its stdin was a terminal, and whether the decision's `by` was claimed
 * (`--by`, not checked) rather than that OS user. A process detected inside an AI agent's shell records none: it is
 * refused (core/origin.ts).
 */
export declare const DecisionOriginSchema: z.ZodMiniObject<{
    os_user: z.ZodMiniString<string>;
    terminal: z.ZodMiniBoolean<boolean>;
    claimed: z.ZodMiniBoolean<boolean>;
    via: z.ZodMiniOptional<z.ZodMiniEnum<{
        browser: "browser";
    }>>;
}, z.z.core.$strict>;
/**
 * How a decision came into this store (schema_version 7): by `import` of a file or `copy` from another store, by whom
 * (the importing process's OS user), when (the target store's clock), from where (the file's path, the source store).
 * Its `origin` was recorded elsewhere and is not vouched for here.
 */
export declare const DecisionImportSchema: z.ZodMiniObject<{
    by: z.ZodMiniString<string>;
    at: z.z.iso.ZodMiniISODateTime;
    from: z.ZodMiniString<string>;
}, z.z.core.$strict>;
/**
 * A user's decision on a session parked in approval (`approve` / `reject`): who, when, what, the note (a rejection's
 * reason), the phase it sent the session to, since when the session had waited in approval, and where it was
 * recorded from (absent on decisions of schema_version 2).
 */
export declare const DecisionSchema: z.ZodMiniObject<{
    mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
    unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
    decision: z.ZodMiniEnum<{
        approved: "approved";
        rejected: "rejected";
    }>;
    by: z.ZodMiniString<string>;
    at: z.z.iso.ZodMiniISODateTime;
    note: z.ZodMiniOptional<z.ZodMiniString<string>>;
    to_phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
        completed: "completed";
        failed: "failed";
        abandoned: "abandoned";
    }>;
    waiting_since: z.z.iso.ZodMiniISODateTime;
    origin: z.ZodMiniOptional<z.ZodMiniObject<{
        os_user: z.ZodMiniString<string>;
        terminal: z.ZodMiniBoolean<boolean>;
        claimed: z.ZodMiniBoolean<boolean>;
        via: z.ZodMiniOptional<z.ZodMiniEnum<{
            browser: "browser";
        }>>;
    }, z.z.core.$strict>>;
    imported: z.ZodMiniOptional<z.ZodMiniObject<{
        by: z.ZodMiniString<string>;
        at: z.z.iso.ZodMiniISODateTime;
        from: z.ZodMiniString<string>;
    }, z.z.core.$strict>>;
}, z.z.core.$strict>;
/**
 * A sub-agent's permission request (schema_version 8, issue 33): a tool call the host would have asked a person about
 * when nobody could answer (a background sub-agent, a headless run). The tool and its exact input, when it was asked,
 * by which Claude agent, and its status: `pending` (the session waits in approval), `approved` (a grant of exactly this
 * call, once, until `expires_at`), `rejected` (with the user's `reason`), `spent` (the grant was used: when, by which
 * Claude agent) or `expired` (a grant past its expiry, or a request a newer one of the same agent replaced).
 */
export declare const PermissionRequestSchema: z.ZodMiniObject<{
    mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
    unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
    tool: z.ZodMiniString<string>;
    input: z.ZodMiniUnknown;
    at: z.z.iso.ZodMiniISODateTime;
    claude_agent_id: z.ZodMiniString<string>;
    cwd: z.ZodMiniOptional<z.ZodMiniString<string>>;
    status: z.ZodMiniEnum<{
        approved: "approved";
        rejected: "rejected";
        pending: "pending";
        spent: "spent";
        expired: "expired";
    }>;
    decided_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    expires_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    reason: z.ZodMiniOptional<z.ZodMiniString<string>>;
    spent_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    spent_by: z.ZodMiniOptional<z.ZodMiniString<string>>;
}, z.z.core.$strict>;
/**
 * The task a session was delegated (schema_version 14, issue 44 item 7): the words of the latest delegation whose task
 * the host gave that started or resumed it (description, the start of the prompt), when; and `passed_over`, the
 * latest delegation of another task that did not take it while it held a decision or a grant (core/task.ts
 * `takeover`): the next start of its agent type then takes a fresh session, until a delegation of its own task; and
 * `passed_over_id` on that fresh session. Without words (a host that gives none at a start) it holds only that id.
 */
export declare const TaskSchema: z.ZodMiniObject<{
    at: z.z.iso.ZodMiniISODateTime;
    passed_over: z.ZodMiniOptional<z.ZodMiniObject<{
        at: z.z.iso.ZodMiniISODateTime;
        description: z.ZodMiniOptional<z.ZodMiniString<string>>;
        prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
    }, z.z.core.$strict>>;
    passed_over_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
    description: z.ZodMiniOptional<z.ZodMiniString<string>>;
    prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
}, z.z.core.$strict>;
export declare const LastErrorSchema: z.ZodMiniObject<{
    message: z.ZodMiniString<string>;
    timestamp: z.z.iso.ZodMiniISODateTime;
}, z.z.core.$strict>;
/** Metadata is any JSON object; it is shallow-merged on update. */
export declare const MetadataSchema: z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>;
/** One session's state.json: the seed's fields, `schema_version`, and the fields finalize adds. */
export declare const SessionStateSchema: z.ZodMiniObject<{
    schema_version: z.ZodMiniUnion<readonly [z.ZodMiniLiteral<1>, z.ZodMiniLiteral<2>, z.ZodMiniLiteral<3>, z.ZodMiniLiteral<4>, z.ZodMiniLiteral<5>, z.ZodMiniLiteral<6>, z.ZodMiniLiteral<8>, z.ZodMiniLiteral<9>, z.ZodMiniLiteral<10>, z.ZodMiniLiteral<11>, z.ZodMiniLiteral<7>, z.ZodMiniLiteral<12>, z.ZodMiniLiteral<13>, z.ZodMiniLiteral<14>]>;
    agent_id: z.ZodMiniString<string>;
    agent_name: z.ZodMiniString<string>;
    purpose: z.ZodMiniString<string>;
    created_at: z.z.iso.ZodMiniISODateTime;
    last_updated: z.z.iso.ZodMiniISODateTime;
    phase: z.ZodMiniEnum<{
        initializing: "initializing";
        investigating: "investigating";
        planning: "planning";
        approval: "approval";
        executing: "executing";
        validating: "validating";
        completed: "completed";
        failed: "failed";
        abandoned: "abandoned";
    }>;
    metadata: z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>;
    resume_ready: z.ZodMiniBoolean<boolean>;
    history: z.ZodMiniArray<z.ZodMiniObject<{
        from_phase: z.ZodMiniEnum<{
            initializing: "initializing";
            investigating: "investigating";
            planning: "planning";
            approval: "approval";
            executing: "executing";
            validating: "validating";
            completed: "completed";
            failed: "failed";
            abandoned: "abandoned";
        }>;
        to_phase: z.ZodMiniEnum<{
            initializing: "initializing";
            investigating: "investigating";
            planning: "planning";
            approval: "approval";
            executing: "executing";
            validating: "validating";
            completed: "completed";
            failed: "failed";
            abandoned: "abandoned";
        }>;
        timestamp: z.z.iso.ZodMiniISODateTime;
        event: z.ZodMiniOptional<z.ZodMiniEnum<{
            resume: "resume";
            interrupted: "interrupted";
            continue: "continue";
        }>>;
    }, z.z.core.$strict>>;
    history_dropped: z.ZodMiniOptional<z.ZodMiniInt>;
    resumes_dropped: z.ZodMiniOptional<z.ZodMiniInt>;
    error_count: z.ZodMiniInt;
    last_error: z.ZodMiniNullable<z.ZodMiniObject<{
        message: z.ZodMiniString<string>;
        timestamp: z.z.iso.ZodMiniISODateTime;
    }, z.z.core.$strict>>;
    finalized_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
    summary: z.ZodMiniOptional<z.ZodMiniString<string>>;
    duration_seconds: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
    claude: z.ZodMiniOptional<z.ZodMiniObject<{
        agent_id: z.ZodMiniString<string>;
        session_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
        agent_type: z.ZodMiniOptional<z.ZodMiniString<string>>;
        linked_at: z.z.iso.ZodMiniISODateTime;
        stopped_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
        last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
        resumed_from: z.ZodMiniOptional<z.ZodMiniObject<{
            phase: z.ZodMiniEnum<{
                initializing: "initializing";
                investigating: "investigating";
                planning: "planning";
                approval: "approval";
                executing: "executing";
                validating: "validating";
            }>;
            last_active: z.z.iso.ZodMiniISODateTime;
            agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
            last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
            interruption: z.ZodMiniOptional<z.ZodMiniObject<{
                at: z.z.iso.ZodMiniISODateTime;
                error: z.ZodMiniString<string>;
                message: z.ZodMiniOptional<z.ZodMiniString<string>>;
            }, z.z.core.$strict>>;
        }, z.z.core.$strict>>;
    }, z.z.core.$strict>>;
    decisions: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniObject<{
        mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
        unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
        decision: z.ZodMiniEnum<{
            approved: "approved";
            rejected: "rejected";
        }>;
        by: z.ZodMiniString<string>;
        at: z.z.iso.ZodMiniISODateTime;
        note: z.ZodMiniOptional<z.ZodMiniString<string>>;
        to_phase: z.ZodMiniEnum<{
            initializing: "initializing";
            investigating: "investigating";
            planning: "planning";
            approval: "approval";
            executing: "executing";
            validating: "validating";
            completed: "completed";
            failed: "failed";
            abandoned: "abandoned";
        }>;
        waiting_since: z.z.iso.ZodMiniISODateTime;
        origin: z.ZodMiniOptional<z.ZodMiniObject<{
            os_user: z.ZodMiniString<string>;
            terminal: z.ZodMiniBoolean<boolean>;
            claimed: z.ZodMiniBoolean<boolean>;
            via: z.ZodMiniOptional<z.ZodMiniEnum<{
                browser: "browser";
            }>>;
        }, z.z.core.$strict>>;
        imported: z.ZodMiniOptional<z.ZodMiniObject<{
            by: z.ZodMiniString<string>;
            at: z.z.iso.ZodMiniISODateTime;
            from: z.ZodMiniString<string>;
        }, z.z.core.$strict>>;
    }, z.z.core.$strict>>>;
    interruption: z.ZodMiniOptional<z.ZodMiniObject<{
        count: z.ZodMiniInt;
        carried_on: z.ZodMiniInt;
        waiting: z.ZodMiniBoolean<boolean>;
        at: z.z.iso.ZodMiniISODateTime;
        error: z.ZodMiniString<string>;
        message: z.ZodMiniOptional<z.ZodMiniString<string>>;
        phase: z.ZodMiniEnum<{
            initializing: "initializing";
            investigating: "investigating";
            planning: "planning";
            approval: "approval";
            executing: "executing";
            validating: "validating";
        }>;
        agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
    }, z.z.core.$strict>>;
    project: z.ZodMiniOptional<z.ZodMiniString<string>>;
    host: z.ZodMiniOptional<z.ZodMiniEnum<{
        codex: "codex";
        "agent-sdk": "agent-sdk";
        opencode: "opencode";
    }>>;
    permission_requests: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniObject<{
        mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
        unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
        tool: z.ZodMiniString<string>;
        input: z.ZodMiniUnknown;
        at: z.z.iso.ZodMiniISODateTime;
        claude_agent_id: z.ZodMiniString<string>;
        cwd: z.ZodMiniOptional<z.ZodMiniString<string>>;
        status: z.ZodMiniEnum<{
            approved: "approved";
            rejected: "rejected";
            pending: "pending";
            spent: "spent";
            expired: "expired";
        }>;
        decided_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
        expires_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
        reason: z.ZodMiniOptional<z.ZodMiniString<string>>;
        spent_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
        spent_by: z.ZodMiniOptional<z.ZodMiniString<string>>;
    }, z.z.core.$strict>>>;
    continuation: z.ZodMiniOptional<z.ZodMiniObject<{
        choice: z.ZodMiniEnum<{
            continue: "continue";
            prime: "prime";
        }>;
        reason: z.ZodMiniString<string>;
        decided_at: z.z.iso.ZodMiniISODateTime;
        claude_agent_id: z.ZodMiniString<string>;
        transcript_path: z.ZodMiniOptional<z.ZodMiniString<string>>;
        transcript_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
        continuing: z.ZodMiniBoolean<boolean>;
        continued_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
        count: z.ZodMiniInt;
    }, z.z.core.$strict>>;
    task: z.ZodMiniOptional<z.ZodMiniObject<{
        at: z.z.iso.ZodMiniISODateTime;
        passed_over: z.ZodMiniOptional<z.ZodMiniObject<{
            at: z.z.iso.ZodMiniISODateTime;
            description: z.ZodMiniOptional<z.ZodMiniString<string>>;
            prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
        }, z.z.core.$strict>>;
        passed_over_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
        description: z.ZodMiniOptional<z.ZodMiniString<string>>;
        prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
    }, z.z.core.$strict>>;
}, z.z.core.$strict>;
export type SessionState = z.infer<typeof SessionStateSchema>;
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type Metadata = z.infer<typeof MetadataSchema>;
export type ClaudeLink = z.infer<typeof ClaudeLinkSchema>;
export type Decision = z.infer<typeof DecisionSchema>;
export type RecordedOrigin = z.infer<typeof DecisionOriginSchema>;
export type DecisionImport = z.infer<typeof DecisionImportSchema>;
export type Interruption = z.infer<typeof InterruptionSchema>;
export type ResumedFrom = z.infer<typeof ResumedFromSchema>;
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;
export type Continuation = z.infer<typeof ContinuationSchema>;
export type Task = z.infer<typeof TaskSchema>;
/** The parse functions `npm run build` writes into src/generated/state-parsers.ts (scripts/parsers.mjs). */
export declare const PARSERS: {
    readonly parseSessionState: {
        readonly schema: z.ZodMiniObject<{
            schema_version: z.ZodMiniUnion<readonly [z.ZodMiniLiteral<1>, z.ZodMiniLiteral<2>, z.ZodMiniLiteral<3>, z.ZodMiniLiteral<4>, z.ZodMiniLiteral<5>, z.ZodMiniLiteral<6>, z.ZodMiniLiteral<8>, z.ZodMiniLiteral<9>, z.ZodMiniLiteral<10>, z.ZodMiniLiteral<11>, z.ZodMiniLiteral<7>, z.ZodMiniLiteral<12>, z.ZodMiniLiteral<13>, z.ZodMiniLiteral<14>]>;
            agent_id: z.ZodMiniString<string>;
            agent_name: z.ZodMiniString<string>;
            purpose: z.ZodMiniString<string>;
            created_at: z.z.iso.ZodMiniISODateTime;
            last_updated: z.z.iso.ZodMiniISODateTime;
            phase: z.ZodMiniEnum<{
                initializing: "initializing";
                investigating: "investigating";
                planning: "planning";
                approval: "approval";
                executing: "executing";
                validating: "validating";
                completed: "completed";
                failed: "failed";
                abandoned: "abandoned";
            }>;
            metadata: z.ZodMiniRecord<z.ZodMiniString<string>, z.ZodMiniUnknown>;
            resume_ready: z.ZodMiniBoolean<boolean>;
            history: z.ZodMiniArray<z.ZodMiniObject<{
                from_phase: z.ZodMiniEnum<{
                    initializing: "initializing";
                    investigating: "investigating";
                    planning: "planning";
                    approval: "approval";
                    executing: "executing";
                    validating: "validating";
                    completed: "completed";
                    failed: "failed";
                    abandoned: "abandoned";
                }>;
                to_phase: z.ZodMiniEnum<{
                    initializing: "initializing";
                    investigating: "investigating";
                    planning: "planning";
                    approval: "approval";
                    executing: "executing";
                    validating: "validating";
                    completed: "completed";
                    failed: "failed";
                    abandoned: "abandoned";
                }>;
                timestamp: z.z.iso.ZodMiniISODateTime;
                event: z.ZodMiniOptional<z.ZodMiniEnum<{
                    resume: "resume";
                    interrupted: "interrupted";
                    continue: "continue";
                }>>;
            }, z.z.core.$strict>>;
            history_dropped: z.ZodMiniOptional<z.ZodMiniInt>;
            resumes_dropped: z.ZodMiniOptional<z.ZodMiniInt>;
            error_count: z.ZodMiniInt;
            last_error: z.ZodMiniNullable<z.ZodMiniObject<{
                message: z.ZodMiniString<string>;
                timestamp: z.z.iso.ZodMiniISODateTime;
            }, z.z.core.$strict>>;
            finalized_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
            summary: z.ZodMiniOptional<z.ZodMiniString<string>>;
            duration_seconds: z.ZodMiniOptional<z.ZodMiniNumber<number>>;
            claude: z.ZodMiniOptional<z.ZodMiniObject<{
                agent_id: z.ZodMiniString<string>;
                session_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
                agent_type: z.ZodMiniOptional<z.ZodMiniString<string>>;
                linked_at: z.z.iso.ZodMiniISODateTime;
                stopped_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
                last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
                resumed_from: z.ZodMiniOptional<z.ZodMiniObject<{
                    phase: z.ZodMiniEnum<{
                        initializing: "initializing";
                        investigating: "investigating";
                        planning: "planning";
                        approval: "approval";
                        executing: "executing";
                        validating: "validating";
                    }>;
                    last_active: z.z.iso.ZodMiniISODateTime;
                    agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
                    last_message: z.ZodMiniOptional<z.ZodMiniString<string>>;
                    interruption: z.ZodMiniOptional<z.ZodMiniObject<{
                        at: z.z.iso.ZodMiniISODateTime;
                        error: z.ZodMiniString<string>;
                        message: z.ZodMiniOptional<z.ZodMiniString<string>>;
                    }, z.z.core.$strict>>;
                }, z.z.core.$strict>>;
            }, z.z.core.$strict>>;
            decisions: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniObject<{
                mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
                unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
                decision: z.ZodMiniEnum<{
                    approved: "approved";
                    rejected: "rejected";
                }>;
                by: z.ZodMiniString<string>;
                at: z.z.iso.ZodMiniISODateTime;
                note: z.ZodMiniOptional<z.ZodMiniString<string>>;
                to_phase: z.ZodMiniEnum<{
                    initializing: "initializing";
                    investigating: "investigating";
                    planning: "planning";
                    approval: "approval";
                    executing: "executing";
                    validating: "validating";
                    completed: "completed";
                    failed: "failed";
                    abandoned: "abandoned";
                }>;
                waiting_since: z.z.iso.ZodMiniISODateTime;
                origin: z.ZodMiniOptional<z.ZodMiniObject<{
                    os_user: z.ZodMiniString<string>;
                    terminal: z.ZodMiniBoolean<boolean>;
                    claimed: z.ZodMiniBoolean<boolean>;
                    via: z.ZodMiniOptional<z.ZodMiniEnum<{
                        browser: "browser";
                    }>>;
                }, z.z.core.$strict>>;
                imported: z.ZodMiniOptional<z.ZodMiniObject<{
                    by: z.ZodMiniString<string>;
                    at: z.z.iso.ZodMiniISODateTime;
                    from: z.ZodMiniString<string>;
                }, z.z.core.$strict>>;
            }, z.z.core.$strict>>>;
            interruption: z.ZodMiniOptional<z.ZodMiniObject<{
                count: z.ZodMiniInt;
                carried_on: z.ZodMiniInt;
                waiting: z.ZodMiniBoolean<boolean>;
                at: z.z.iso.ZodMiniISODateTime;
                error: z.ZodMiniString<string>;
                message: z.ZodMiniOptional<z.ZodMiniString<string>>;
                phase: z.ZodMiniEnum<{
                    initializing: "initializing";
                    investigating: "investigating";
                    planning: "planning";
                    approval: "approval";
                    executing: "executing";
                    validating: "validating";
                }>;
                agent_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
            }, z.z.core.$strict>>;
            project: z.ZodMiniOptional<z.ZodMiniString<string>>;
            host: z.ZodMiniOptional<z.ZodMiniEnum<{
                codex: "codex";
                "agent-sdk": "agent-sdk";
                opencode: "opencode";
            }>>;
            permission_requests: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniObject<{
                mac: z.ZodMiniOptional<z.ZodMiniString<string>>;
                unverified: z.ZodMiniOptional<z.ZodMiniLiteral<true>>;
                tool: z.ZodMiniString<string>;
                input: z.ZodMiniUnknown;
                at: z.z.iso.ZodMiniISODateTime;
                claude_agent_id: z.ZodMiniString<string>;
                cwd: z.ZodMiniOptional<z.ZodMiniString<string>>;
                status: z.ZodMiniEnum<{
                    approved: "approved";
                    rejected: "rejected";
                    pending: "pending";
                    spent: "spent";
                    expired: "expired";
                }>;
                decided_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
                expires_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
                reason: z.ZodMiniOptional<z.ZodMiniString<string>>;
                spent_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
                spent_by: z.ZodMiniOptional<z.ZodMiniString<string>>;
            }, z.z.core.$strict>>>;
            continuation: z.ZodMiniOptional<z.ZodMiniObject<{
                choice: z.ZodMiniEnum<{
                    continue: "continue";
                    prime: "prime";
                }>;
                reason: z.ZodMiniString<string>;
                decided_at: z.z.iso.ZodMiniISODateTime;
                claude_agent_id: z.ZodMiniString<string>;
                transcript_path: z.ZodMiniOptional<z.ZodMiniString<string>>;
                transcript_bytes: z.ZodMiniOptional<z.ZodMiniInt>;
                continuing: z.ZodMiniBoolean<boolean>;
                continued_at: z.ZodMiniOptional<z.z.iso.ZodMiniISODateTime>;
                count: z.ZodMiniInt;
            }, z.z.core.$strict>>;
            task: z.ZodMiniOptional<z.ZodMiniObject<{
                at: z.z.iso.ZodMiniISODateTime;
                passed_over: z.ZodMiniOptional<z.ZodMiniObject<{
                    at: z.z.iso.ZodMiniISODateTime;
                    description: z.ZodMiniOptional<z.ZodMiniString<string>>;
                    prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
                }, z.z.core.$strict>>;
                passed_over_id: z.ZodMiniOptional<z.ZodMiniString<string>>;
                description: z.ZodMiniOptional<z.ZodMiniString<string>>;
                prompt: z.ZodMiniOptional<z.ZodMiniString<string>>;
            }, z.z.core.$strict>>;
        }, z.z.core.$strict>;
        readonly type: "SessionState";
        readonly doc: "A state.json as SessionStateSchema parses it.";
    };
};
/**
 * The state zod makes of `migrated` (an object already migrated to a current layout), or E_CORRUPT with zod's words
 * for every problem on one line (the first three, and how many more).
 * @throws SessionError E_CORRUPT
 */
export declare function strictState(migrated: unknown): SessionState;
