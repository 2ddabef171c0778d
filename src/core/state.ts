import { SessionError } from './errors';
import { lazily } from './lazy';
import {
  BROWSER_ORIGIN_SCHEMA_VERSION,
  CONTINUATION_SCHEMA_VERSION,
  DECISION_ORIGIN_SCHEMA_VERSION,
  DECISIONS_SCHEMA_VERSION,
  HOST_SCHEMA_VERSION,
  OPENCODE_HOST_SCHEMA_VERSION,
  IMPORTED_DECISION_SCHEMA_VERSION,
  INTERRUPTION_SCHEMA_VERSION,
  PERMISSION_FOLDER_SCHEMA_VERSION,
  PERMISSION_SCHEMA_VERSION,
  PROJECT_SCHEMA_VERSION,
  SCHEMA_VERSION,
  SEALED_SCHEMA_VERSION,
  TASK_SCHEMA_VERSION,
} from './schema-version';
import { parseSessionState } from '../generated/state-parsers';
import type { Metadata, SessionState } from './state-schema';

export {
  BROWSER_ORIGIN_SCHEMA_VERSION,
  CONTINUATION_SCHEMA_VERSION,
  DECISION_ORIGIN_SCHEMA_VERSION,
  DECISIONS_SCHEMA_VERSION,
  HOST_SCHEMA_VERSION,
  OPENCODE_HOST_SCHEMA_VERSION,
  IMPORTED_DECISION_SCHEMA_VERSION,
  INTERRUPTION_SCHEMA_VERSION,
  PERMISSION_FOLDER_SCHEMA_VERSION,
  PERMISSION_SCHEMA_VERSION,
  PROJECT_SCHEMA_VERSION,
  SCHEMA_VERSION,
  SEALED_SCHEMA_VERSION,
  TASK_SCHEMA_VERSION,
};
export type {
  ClaudeLink,
  Continuation,
  Decision,
  DecisionImport,
  HistoryEntry,
  Interruption,
  Metadata,
  PermissionRequest,
  RecordedOrigin,
  ResumedFrom,
  SessionState,
  Task,
} from './state-schema';

// The zod schemas (state-schema.ts), loaded only to word a rejection: a valid state is parsed by the function
// generated from them (state-parsers.ts), and a hook process that never meets an invalid state never evaluates zod
// (~20 M instructions per call, docs/performance.md). `require`, not `import`: a static import would evaluate it.
const schemas = lazily(
  // eslint-disable-next-line no-restricted-globals, @typescript-eslint/no-require-imports -- lazy on purpose (above)
  () => require('./state-schema') as typeof import('./state-schema'),
);

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
  // zod itself decides what the generated parser refused (and words why), so the two can never disagree here.
  const data = parseSessionState(migrated) ?? schemas().strictState(migrated);
  // Each version adds one field to the one before (schema-version.ts): a file says exactly the version its content needs.
  const expected = versionFor(data);
  if (data.schema_version !== expected) {
    throw new SessionError(
      'E_CORRUPT',
      `invalid state: schema_version: expected ${expected} (${VERSION_CONTENT[expected]}), got ${data.schema_version}`,
    );
  }
  // The record parser copies keys by assignment, which drops an own `__proto__` key (JSON.parse makes it plain
  // data); the validated original keeps every key the user stored, and pollutes nothing.
  return { ...data, metadata: (migrated as { metadata: Metadata }).metadata };
}

/**
 * The schema_version a state's content needs (schema-version.ts): each version adds one field to the one before, so
 * the highest field present decides: 14 once it keeps its delegated task, 13 once a decision or grant is sealed, 12 once a permission request names its folder, 11 for an opencode session, 10 once a decision was made in the browser, 9 once it records a continuation (issue 34), 8 once it records a permission request, 7 once a decision was imported, 6 once it names its host, 5 once it names its project, else 4 once it records an interruption, else 3
 * once a decision has an origin, 2 with decisions, 1 otherwise. Every change that adds or removes such a field
 * stamps this.
 */
export function versionFor(
  state: Pick<
    SessionState,
    'decisions' | 'interruption' | 'project' | 'host' | 'permission_requests' | 'continuation' | 'task'
  >,
): SessionState['schema_version'] {
  // The highest number first: the highest version a state's content needs wins.
  if (state.task !== undefined) return TASK_SCHEMA_VERSION;
  const sealed = (item: { readonly mac?: string | undefined }) => item.mac !== undefined;
  if ((state.decisions ?? []).some(sealed) || (state.permission_requests ?? []).some(sealed))
    return SEALED_SCHEMA_VERSION;
  if ((state.permission_requests ?? []).some((request) => request.cwd !== undefined))
    return PERMISSION_FOLDER_SCHEMA_VERSION;
  if (state.host === 'opencode') return OPENCODE_HOST_SCHEMA_VERSION;
  if ((state.decisions ?? []).some((decision) => decision.origin?.via !== undefined))
    return BROWSER_ORIGIN_SCHEMA_VERSION;
  if (state.continuation !== undefined) return CONTINUATION_SCHEMA_VERSION;
  if (state.permission_requests !== undefined) return PERMISSION_SCHEMA_VERSION;
  if (state.decisions?.some((decision) => decision.imported !== undefined)) return IMPORTED_DECISION_SCHEMA_VERSION;
  if (state.host !== undefined) return HOST_SCHEMA_VERSION;
  if (state.project !== undefined) return PROJECT_SCHEMA_VERSION;
  if (state.interruption !== undefined) return INTERRUPTION_SCHEMA_VERSION;
  const decisions = state.decisions ?? [];
  if (decisions.some((decision) => decision.origin !== undefined)) return DECISION_ORIGIN_SCHEMA_VERSION;
  return decisions.length > 0 ? DECISIONS_SCHEMA_VERSION : SCHEMA_VERSION;
}

/** The summary of a valid state. */
export function summarize(state: SessionState): SessionSummary {
  const { agent_id, agent_name, purpose, phase, created_at, last_updated, resume_ready, error_count } = state;
  return { agent_id, agent_name, purpose, phase, created_at, last_updated, resume_ready, error_count };
}

// --- internal ---

const VERSION_CONTENT: Readonly<Record<SessionState['schema_version'], string>> = {
  [SCHEMA_VERSION]: 'no decisions',
  [DECISIONS_SCHEMA_VERSION]: 'decisions, none with an origin',
  [DECISION_ORIGIN_SCHEMA_VERSION]: 'decisions, one with an origin at least',
  [INTERRUPTION_SCHEMA_VERSION]: 'an interruption record',
  [PROJECT_SCHEMA_VERSION]: 'a project',
  [HOST_SCHEMA_VERSION]: 'a host',
  [PERMISSION_SCHEMA_VERSION]: 'a permission request',
  [CONTINUATION_SCHEMA_VERSION]: 'a continuation record',
  [BROWSER_ORIGIN_SCHEMA_VERSION]: 'a decision made in the browser',
  [OPENCODE_HOST_SCHEMA_VERSION]: 'the host opencode',
  [IMPORTED_DECISION_SCHEMA_VERSION]: 'an imported decision',
  [PERMISSION_FOLDER_SCHEMA_VERSION]: "a permission request's folder",
  [SEALED_SCHEMA_VERSION]: 'a sealed decision or grant',
  [TASK_SCHEMA_VERSION]: 'a delegated task',
};

function migrate(raw: unknown): unknown {
  // Version 0 is the original Python layout: the same fields without `schema_version`.
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !Object.hasOwn(raw, 'schema_version')) {
    return { schema_version: SCHEMA_VERSION, ...raw };
  }
  return raw;
}
