import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.cjs';
import { SessionError } from './errors';
import { ID_PATTERN } from './ids';
import { PHASES, RESUMABLE_PHASES } from './phase-names';

// zod/mini loads no locale, so every message would read "Invalid input"; `en` alone adds ~17 KB to a bundle.
// The .cjs path: the package maps `v4/locales/*.js` to its ESM file even for require(), which jest cannot load.
z.config(en());

/**
 * The state.json layout a new session is written with. Files without the field (the original Python store) are
 * version 0, read as 1.
 */
export const SCHEMA_VERSION = 1;

/**
 * The layout of a session that holds `decisions` (approve/reject): version 1 plus that field. A session moves to it
 * with its first decision, so every other file stays readable by an agent-session that knows only version 1, and
 * one that holds a decision is refused by such a version for its version number (a clear word), not a stray key.
 */
export const DECISIONS_SCHEMA_VERSION = 2;

const Timestamp = z.iso.datetime({ offset: true });

export const HistoryEntrySchema = z.strictObject({
  from_phase: z.enum(PHASES),
  to_phase: z.enum(PHASES),
  timestamp: Timestamp,
  /** `resume`: a hook approved resuming the session (from_phase = to_phase, so the chain holds). */
  event: z.optional(z.literal('resume')),
});

/**
 * What a parked session was when a new Claude agent resumed it: its phase and last activity, and the previous
 * agent's id and last message. Kept on the link so the sub-agent's SubagentStart, whenever it arrives, tells it so.
 */
export const ResumedFromSchema = z.strictObject({
  /** A resumable phase, or executing for an approved session picked up by its agent. */
  phase: z.enum([...RESUMABLE_PHASES, 'executing']),
  last_active: Timestamp,
  agent_id: z.optional(z.string()),
  last_message: z.optional(z.string()),
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
 * A user's decision on a session parked in approval (`approve` / `reject`): who, when, what, the note (a rejection's
 * reason), the phase it sent the session to, and since when the session had waited in approval.
 */
export const DecisionSchema = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  by: z.string().check(z.minLength(1)),
  at: Timestamp,
  note: z.optional(z.string()),
  to_phase: z.enum(PHASES),
  waiting_since: Timestamp,
});

export const LastErrorSchema = z.strictObject({ message: z.string(), timestamp: Timestamp });

/** Metadata is any JSON object; it is shallow-merged on update. */
export const MetadataSchema = z.record(z.string(), z.unknown());

/** One session's state.json: the seed's fields, `schema_version`, and the fields finalize adds. */
export const SessionStateSchema = z.strictObject({
  schema_version: z.union([z.literal(SCHEMA_VERSION), z.literal(DECISIONS_SCHEMA_VERSION)]),
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
  /** Approve/reject decisions, oldest first (only in schema_version 2). */
  decisions: z.optional(z.array(DecisionSchema)),
});

export type SessionState = z.infer<typeof SessionStateSchema>;
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type Metadata = z.infer<typeof MetadataSchema>;
export type ClaudeLink = z.infer<typeof ClaudeLinkSchema>;
export type Decision = z.infer<typeof DecisionSchema>;

/** A short summary of a session, as `list --json` prints it. */
export interface SessionSummary {
  readonly agent_id: string;
  readonly agent_name: string;
  readonly purpose: string;
  readonly phase: SessionState['phase'];
  readonly created_at: string;
  readonly last_updated: string;
  readonly resume_ready: boolean;
  readonly error_count: number;
}

/**
 * Validates parsed JSON as a session state, migrating older layouts first.
 * @throws SessionError E_CORRUPT with every problem on one line
 */
export function parseState(raw: unknown): SessionState {
  const migrated = migrate(raw);
  const result = SessionStateSchema.safeParse(migrated);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
      return `${path}: ${issue.message}`;
    });
    throw new SessionError(
      'E_CORRUPT',
      `invalid state: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}`,
    );
  }
  // Version 2 is version 1 plus `decisions`: a file holds them exactly when it says 2 (see DECISIONS_SCHEMA_VERSION).
  const hasDecisions = (result.data.decisions?.length ?? 0) > 0;
  if (hasDecisions !== (result.data.schema_version === DECISIONS_SCHEMA_VERSION)) {
    throw new SessionError(
      'E_CORRUPT',
      `invalid state: decisions: expected ${hasDecisions ? `schema_version ${DECISIONS_SCHEMA_VERSION} with decisions` : `decisions with schema_version ${DECISIONS_SCHEMA_VERSION}`}, got schema_version ${result.data.schema_version} ${hasDecisions ? 'with' : 'without'} decisions`,
    );
  }
  // The record parser copies keys by assignment, which drops an own `__proto__` key (JSON.parse makes it plain
  // data); the validated original keeps every key the user stored, and pollutes nothing.
  return { ...result.data, metadata: (migrated as { metadata: Metadata }).metadata };
}

/** The summary of a valid state. */
export function summarize(state: SessionState): SessionSummary {
  const { agent_id, agent_name, purpose, phase, created_at, last_updated, resume_ready, error_count } = state;
  return { agent_id, agent_name, purpose, phase, created_at, last_updated, resume_ready, error_count };
}

// --- internal ---

function migrate(raw: unknown): unknown {
  // Version 0 is the original Python layout: the same fields without `schema_version`.
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !Object.hasOwn(raw, 'schema_version')) {
    return { schema_version: SCHEMA_VERSION, ...raw };
  }
  return raw;
}
