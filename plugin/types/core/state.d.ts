import { BROWSER_ORIGIN_SCHEMA_VERSION, CONTINUATION_SCHEMA_VERSION, DECISION_ORIGIN_SCHEMA_VERSION, DECISIONS_SCHEMA_VERSION, HOST_SCHEMA_VERSION, OPENCODE_HOST_SCHEMA_VERSION, IMPORTED_DECISION_SCHEMA_VERSION, INTERRUPTION_SCHEMA_VERSION, PERMISSION_FOLDER_SCHEMA_VERSION, PERMISSION_SCHEMA_VERSION, PROJECT_SCHEMA_VERSION, SCHEMA_VERSION, SEALED_SCHEMA_VERSION, TASK_SCHEMA_VERSION } from './schema-version';
import type { SessionState } from './state-schema';
export { BROWSER_ORIGIN_SCHEMA_VERSION, CONTINUATION_SCHEMA_VERSION, DECISION_ORIGIN_SCHEMA_VERSION, DECISIONS_SCHEMA_VERSION, HOST_SCHEMA_VERSION, OPENCODE_HOST_SCHEMA_VERSION, IMPORTED_DECISION_SCHEMA_VERSION, INTERRUPTION_SCHEMA_VERSION, PERMISSION_FOLDER_SCHEMA_VERSION, PERMISSION_SCHEMA_VERSION, PROJECT_SCHEMA_VERSION, SCHEMA_VERSION, SEALED_SCHEMA_VERSION, TASK_SCHEMA_VERSION, };
export type { ClaudeLink, Continuation, Decision, DecisionImport, HistoryEntry, Interruption, Metadata, PermissionRequest, RecordedOrigin, ResumedFrom, SessionState, Task, } from './state-schema';
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
export declare function parseState(raw: unknown): SessionState;
/**
 * The schema_version a state's content needs (schema-version.ts): each version adds one field to the one before, so
 * the highest field present decides: 14 once it keeps its delegated task, 13 once a decision or grant is sealed, 12 once a permission request names its folder, 11 for an opencode session, 10 once a decision was made in the browser, 9 once it records a continuation (issue 34), 8 once it records a permission request, 7 once a decision was imported, 6 once it names its host, 5 once it names its project, else 4 once it records an interruption, else 3
 * once a decision has an origin, 2 with decisions, 1 otherwise. Every change that adds or removes such a field
 * stamps this.
 */
export declare function versionFor(state: Pick<SessionState, 'decisions' | 'interruption' | 'project' | 'host' | 'permission_requests' | 'continuation' | 'task'>): SessionState['schema_version'];
/** The summary of a valid state. */
export declare function summarize(state: SessionState): SessionSummary;
