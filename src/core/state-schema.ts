// The zod schemas of state.json: the one source of what a valid session is. Code that runs in a hook does not import
// this module (zod would cost each hook call ~20 M instructions): it parses with src/generated/state-parsers.ts, which
// `npm run build` generates from these schemas, and loads this module only to word a rejection (state.ts).
import * as z from 'zod/mini';
import { SessionError } from './errors';
import { ID_PATTERN } from './ids';
import { INTERRUPTION_KIND_PATTERN } from './interruption-kinds';
import { PHASES, WORK_PHASES } from './phase-names';
import {
  DECISION_ORIGIN_SCHEMA_VERSION,
  DECISIONS_SCHEMA_VERSION,
  INTERRUPTION_SCHEMA_VERSION,
  HOST_SCHEMA_VERSION,
  BROWSER_ORIGIN_SCHEMA_VERSION,
  PERMISSION_SCHEMA_VERSION,
  OPENCODE_HOST_SCHEMA_VERSION,
  IMPORTED_DECISION_SCHEMA_VERSION,
  PERMISSION_FOLDER_SCHEMA_VERSION,
  PROJECT_SCHEMA_VERSION,
  SEALED_SCHEMA_VERSION,
  TASK_SCHEMA_VERSION,
  SCHEMA_VERSION,
  CONTINUATION_SCHEMA_VERSION,
} from './schema-version';
import './zod-locale';

const Timestamp = z.iso.datetime({ offset: true });

export const HistoryEntrySchema = z.strictObject({
  from_phase: z.enum(PHASES),
  to_phase: z.enum(PHASES),
  timestamp: Timestamp,
  /**
   * `resume`: a hook approved resuming the session; `interrupted`: its agent died of a host failure (an API error, a
   * usage limit: see `interruption`); `continue`: its stopped Claude agent came back with its context (SendMessage,
   * schema_version 9: see `continuation`). All keep the phase (from_phase = to_phase, so the chain holds).
   */
  event: z.optional(z.enum(['resume', 'interrupted', 'continue'])),
});

/** The host's word for a failure (Claude Code's StopFailure `error`: `rate_limit`, `server_error`, `unknown`, …). */
const InterruptionKind = z.string().check(z.regex(INTERRUPTION_KIND_PATTERN));

/**
 * A session's interruptions (schema_version 4): its agent died of a host failure, not of its own error. `count` of
 * them recorded (never in `error_count`), `carried_on` of them picked up by a later delegation, `waiting` from the
 * failure until that pickup; and the last one: when, the host's error kind, an excerpt of its message (keys masked),
 * the phase it stopped in and the Claude agent that died.
 */
export const InterruptionSchema = z.strictObject({
  count: z.int().check(z.gte(1)),
  carried_on: z.int().check(z.gte(0)),
  waiting: z.boolean(),
  at: Timestamp,
  error: InterruptionKind,
  message: z.optional(z.string()),
  phase: z.enum(WORK_PHASES),
  agent_id: z.optional(z.string()),
});

/**
 * What a parked session was when a new Claude agent resumed it: its phase and last activity, and the previous
 * agent's id and last message. Kept on the link so the sub-agent's SubagentStart, whenever it arrives, tells it so.
 */
export const ResumedFromSchema = z.strictObject({
  /**
   * A resumable phase, executing for an approved session picked up by its agent, or any working phase for an
   * interrupted one carried on.
   */
  phase: z.enum(WORK_PHASES),
  last_active: Timestamp,
  agent_id: z.optional(z.string()),
  last_message: z.optional(z.string()),
  /** The interruption this resume carried on from (schema_version 4): when, the host's error kind, its message. */
  interruption: z.optional(z.strictObject({ at: Timestamp, error: InterruptionKind, message: z.optional(z.string()) })),
});

/**
 * The Claude Code sub-agent a session is linked to (set by the Claude Code hooks, absent otherwise):
 * Claude's `agent_id` (the SendMessage target), its `session_id` and `agent_type`, when the link was made,
 * when that agent stopped (absent while it runs; once set for an agent id it stays), an excerpt of its last
 * message, and what the session was when this agent resumed it.
 */
export const ClaudeLinkSchema = z.strictObject({
  agent_id: z.string().check(z.minLength(1)),
  session_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
  linked_at: Timestamp,
  stopped_at: z.optional(Timestamp),
  last_message: z.optional(z.string()),
  resumed_from: z.optional(ResumedFromSchema),
});

/**
 * How the session's Claude agent is carried on (schema_version 9, issue 34): the last choice between continuing the
 * stopped agent itself with its context (SendMessage to `claude_agent_id`, its transcript reachable and within the
 * size limit) and priming a fresh agent with what the session holds, when it was made and why; the transcript looked
 * at; `continuing` from a continuation's SendMessage until its agent starts again; how many times it came back.
 */
export const ContinuationSchema = z.strictObject({
  choice: z.enum(['continue', 'prime']),
  reason: z.string(),
  decided_at: Timestamp,
  claude_agent_id: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.string()),
  transcript_bytes: z.optional(z.int().check(z.gte(0))),
  continuing: z.boolean(),
  continued_at: z.optional(Timestamp),
  count: z.int().check(z.gte(0)),
});

/**
 * Where a decision was recorded from (schema_version 3): the OS account of the recording process (the password
 * database's name, else `uid N`), whether its stdin was a terminal, and whether the decision's `by` was claimed
 * (`--by`, not checked) rather than that OS user. A process detected inside an AI agent's shell records none: it is
 * refused (core/origin.ts).
 */
export const DecisionOriginSchema = z.strictObject({
  os_user: z.string().check(z.minLength(1)),
  terminal: z.boolean(),
  claimed: z.boolean(),
  /** Where the decision was made when not at the CLI: `browser`, the page of `agent-session serve` (version 10). */
  via: z.optional(z.enum(['browser'])),
});

/**
 * How a decision came into this store (schema_version 7): by `import` of a file or `copy` from another store, by whom
 * (the importing process's OS user), when (the target store's clock), from where (the file's path, the source store).
 * Its `origin` was recorded elsewhere and is not vouched for here.
 */
export const DecisionImportSchema = z.strictObject({
  by: z.string().check(z.minLength(1)),
  at: Timestamp,
  from: z.string().check(z.minLength(1)),
});

/**
 * How a decision or a grant is vouched for (schema_version 13, issue 40 item 3, core/seal.ts): `mac`, the HMAC-SHA256
 * (hex) this machine's user's key made of it as `approve` or `reject` recorded it (absent on PostgreSQL, whose
 * decisions are the team's, and on those of older versions); `unverified`, set as a file store reads it when the MAC
 * does not check out here, never written: such a decision or grant counts for nothing.
 */
const sealFields = {
  mac: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  unverified: z.optional(z.literal(true)),
};

/**
 * A user's decision on a session parked in approval (`approve` / `reject`): who, when, what, the note (a rejection's
 * reason), the phase it sent the session to, since when the session had waited in approval, and where it was
 * recorded from (absent on decisions of schema_version 2).
 */
export const DecisionSchema = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  by: z.string().check(z.minLength(1)),
  at: Timestamp,
  note: z.optional(z.string()),
  to_phase: z.enum(PHASES),
  waiting_since: Timestamp,
  origin: z.optional(DecisionOriginSchema),
  imported: z.optional(DecisionImportSchema),
  ...sealFields,
});

/**
 * A sub-agent's permission request (schema_version 8, issue 33): a tool call the host would have asked a person about
 * when nobody could answer (a background sub-agent, a headless run). The tool and its exact input, when it was asked,
 * by which Claude agent, and its status: `pending` (the session waits in approval), `approved` (a grant of exactly this
 * call, once, until `expires_at`), `rejected` (with the user's `reason`), `spent` (the grant was used: when, by which
 * Claude agent) or `expired` (a grant past its expiry, or a request a newer one of the same agent replaced).
 */
export const PermissionRequestSchema = z.strictObject({
  tool: z.string().check(z.minLength(1)),
  /** The tool's input exactly as the host sent it (any JSON). */
  input: z.unknown(),
  at: Timestamp,
  claude_agent_id: z.string().check(z.minLength(1)),
  /**
   * The folder the call would run in (schema_version 12, issue 40 item 7): the host's `cwd`, absolute and normalized;
   * a grant is spent only by the same call from this folder. Absent: the host did not say (or an older version).
   */
  cwd: z.optional(z.string().check(z.minLength(1))),
  status: z.enum(['pending', 'approved', 'rejected', 'spent', 'expired']),
  decided_at: z.optional(Timestamp),
  expires_at: z.optional(Timestamp),
  reason: z.optional(z.string()),
  spent_at: z.optional(Timestamp),
  spent_by: z.optional(z.string()),
  ...sealFields,
});

/** A delegation's own words for its task (core/task.ts): its description and the start of its prompt, each cut. */
const DelegatedTaskFields = {
  description: z.optional(z.string().check(z.minLength(1))),
  prompt: z.optional(z.string().check(z.minLength(1))),
};

/**
 * The task a session was delegated (schema_version 14, issue 44 item 7): the words of the latest delegation whose task
 * the host gave that started or resumed it (description, the start of the prompt), when; and `passed_over`, the
 * latest delegation of another task that did not take it while it held a decision or a grant (core/task.ts
 * `takeover`): the next start of its agent type then takes a fresh session, until a delegation of its own task; and
 * `passed_over_id` on that fresh session. Without words (a host that gives none at a start) it holds only that id.
 */
export const TaskSchema = z.strictObject({
  ...DelegatedTaskFields,
  at: Timestamp,
  passed_over: z.optional(z.strictObject({ ...DelegatedTaskFields, at: Timestamp })),
  /**
   * The session of its agent type that the delegation which made this one passed over (it held a decision or a grant
   * for another task): while this session is its type's newest, a delegation of that task carries that one on.
   */
  passed_over_id: z.optional(z.string().check(z.regex(ID_PATTERN))),
});

export const LastErrorSchema = z.strictObject({ message: z.string(), timestamp: Timestamp });

/** Metadata is any JSON object; it is shallow-merged on update. */
export const MetadataSchema = z.record(z.string(), z.unknown());

/** One session's state.json: the seed's fields, `schema_version`, and the fields finalize adds. */
export const SessionStateSchema = z.strictObject({
  schema_version: z.union([
    z.literal(SCHEMA_VERSION),
    z.literal(DECISIONS_SCHEMA_VERSION),
    z.literal(DECISION_ORIGIN_SCHEMA_VERSION),
    z.literal(INTERRUPTION_SCHEMA_VERSION),
    z.literal(PROJECT_SCHEMA_VERSION),
    z.literal(HOST_SCHEMA_VERSION),
    z.literal(PERMISSION_SCHEMA_VERSION),
    z.literal(CONTINUATION_SCHEMA_VERSION),
    z.literal(BROWSER_ORIGIN_SCHEMA_VERSION),
    z.literal(OPENCODE_HOST_SCHEMA_VERSION),
    z.literal(IMPORTED_DECISION_SCHEMA_VERSION),
    z.literal(PERMISSION_FOLDER_SCHEMA_VERSION),
    z.literal(SEALED_SCHEMA_VERSION),
    z.literal(TASK_SCHEMA_VERSION),
  ]),
  agent_id: z.string().check(z.regex(ID_PATTERN)),
  agent_name: z.string().check(z.minLength(1)),
  purpose: z.string(),
  created_at: Timestamp,
  last_updated: Timestamp,
  phase: z.enum(PHASES),
  metadata: MetadataSchema,
  resume_ready: z.boolean(),
  history: z.array(HistoryEntrySchema),
  /** How many of the oldest history entries were dropped by the history cap. */
  history_dropped: z.optional(z.int().check(z.gte(0))),
  /** How many of those dropped entries were resumes (`stats` counts them). */
  resumes_dropped: z.optional(z.int().check(z.gte(0))),
  error_count: z.int().check(z.gte(0)),
  last_error: z.nullable(LastErrorSchema),
  finalized_at: z.optional(Timestamp),
  summary: z.optional(z.string()),
  duration_seconds: z.optional(z.number().check(z.gte(0))),
  claude: z.optional(ClaudeLinkSchema),
  /** Approve/reject decisions, oldest first (only in schema_version 2, and 3 when one has an `origin`, or 4). */
  decisions: z.optional(z.array(DecisionSchema)),
  /** Host failures that killed its agents (only in schema_version 4). */
  interruption: z.optional(InterruptionSchema),
  /**
   * The project the session belongs to (schema_version 5; core/project.ts): only that project's lookups find it.
   * Absent: the project of the file store's folder, or none (an older store's session, unassigned until adopted).
   */
  project: z.optional(z.string().check(z.minLength(1))),
  /**
   * The host whose hooks made the session (schema_version 6; core/host.ts): only that host's delegations resume it.
   * Absent: Claude Code (every session before the field, and Claude Code's own since).
   */
  host: z.optional(z.enum(['codex', 'agent-sdk', 'opencode'])),
  /** The permission requests its sub-agents parked it with, oldest first (schema_version 8; core/permission.ts). */
  permission_requests: z.optional(z.array(PermissionRequestSchema)),
  /** How its Claude agent is carried on: continued with its context or primed afresh (schema_version 9). */
  continuation: z.optional(ContinuationSchema),
  /** The task it was delegated, and a delegation of another task that passed it over (schema_version 14). */
  task: z.optional(TaskSchema),
});

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
export const PARSERS = {
  parseSessionState: {
    schema: SessionStateSchema,
    type: 'SessionState',
    doc: 'A state.json as SessionStateSchema parses it.',
  },
} as const;

/**
 * The state zod makes of `migrated` (an object already migrated to a current layout), or E_CORRUPT with zod's words
 * for every problem on one line (the first three, and how many more).
 * @throws SessionError E_CORRUPT
 */
export function strictState(migrated: unknown): SessionState {
  const result = SessionStateSchema.safeParse(migrated);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    return `${path}: ${issue.message}`;
  });
  throw new SessionError(
    'E_CORRUPT',
    `invalid state: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}`,
  );
}
