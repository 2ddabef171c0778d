import { isSessionError } from '../../core/errors';
import { isValidId } from '../../core/ids';
import { agentNameProblem } from '../../core/input';
import type { Phase } from '../../core/phase-names';
import type { ResumeReason } from '../../core/rules';
import { lastDecision } from '../../core/decision';
import { lastPermission } from '../../core/permission';
import { seedStopOutcome } from '../../core/stop-policy';
import type { Decision, HistoryEntry, Metadata, PermissionRequest, SessionState } from '../../core/state';
import { AgentMismatchError, OtherProjectError, type ResumeDecision, type Sessions } from '../../service/sessions';
import { excerpt } from '../../core/text';
import { lazily } from '../../core/lazy';
import { parsePreDelegateInput, parseSubagentStopInput } from '../../generated/seed-parsers';

/** The answer of `pre-delegate` in the seed protocol. */
export interface PreDelegateAnswer {
  readonly should_resume: boolean;
  readonly reason: ResumeReason | 'no_existing_session' | 'invalid_input' | 'error';
  readonly agent_id?: string;
  readonly resume_metadata?: {
    readonly previous_phase: Phase;
    readonly created_at: string;
    readonly last_updated: string;
    readonly history: readonly HistoryEntry[];
    readonly metadata: Metadata;
    /** The last approve/reject decision on the session (who, when, what, the note), when one was recorded. */
    readonly decision?: Decision;
    /**
     * The session's last sub-agent permission request (issue 33): the tool, its exact input, its status (`approved`:
     * issue it exactly as before, once; `rejected`: with the user's `reason`), when and by which agent.
     */
    readonly permission?: PermissionRequest;
    /** The interruption this resume carries on from (reason `session_interrupted`): when, its kind, the message. */
    readonly interruption?: {
      readonly at: string;
      readonly error: string;
      readonly message?: string;
      readonly phase: Phase;
    };
    /** Present when the answer was cut to ANSWER_LIMIT bytes: what was left out (the session itself is whole). */
    readonly truncated?: {
      readonly limit_bytes: number;
      readonly metadata_keys_dropped: number;
      readonly history_entries_dropped: number;
    };
  };
  /** What was wrong with the input, with reason `invalid_input`. */
  readonly error?: string;
}

/** The answer of `subagent-stop` in the seed protocol. */
export type SubagentStopAnswer =
  | { readonly finalized: true; readonly agent_id: string; readonly outcome: 'completed' | 'failed' }
  | {
      readonly finalized: false;
      readonly reason:
        /** The agent was interrupted (`interrupted` in the input): the session stays open, waiting to be carried on. */
        | 'interrupted'
        | 'invalid_input'
        | 'no_agent_id'
        | 'session_not_found'
        | 'already_final'
        | 'invalid_state'
        | 'agent_mismatch'
        | 'other_project'
        | 'unassigned'
        | 'error';
      readonly agent_id?: string;
      readonly error?: string;
    };

// The inputs' zod schemas (seed-schema.ts), loaded only to word a rejection: the generated parsers (seed-parsers.ts)
// decide, and a hook that never meets a bad input never evaluates zod (~20 M instructions per call). `require`, not
// `import`: a static import would evaluate it.
const schema = lazily(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (above)
  () => require('./seed-schema') as typeof import('./seed-schema'),
);

const SUMMARY_LIMIT = 1000;

/**
 * The largest `pre-delegate` answer line, in bytes (docs/seed-protocol.md): past it, metadata keys that do not fit and the
 * oldest history entries are left out and `resume_metadata.truncated` says how many. 50 MB of metadata must not
 * become a 50 MB line for the host to read.
 */
export const ANSWER_LIMIT = 64 * 1024;

/**
 * Decides whether to resume, from `{agent_name, agent_id?, …}`, within the service's project: with an id, on that
 * session (`other_project` or `unassigned` for a session of another project or of none, `agent_mismatch` when a name
 * is given too and the session is another agent's); with only a name, on that agent's most recently active session of
 * the project by the one rule both protocols use (`session_running` while a Claude agent runs it). Never throws for
 * bad input.
 */
export async function preDelegate(sessions: Sessions, input: unknown): Promise<PreDelegateAnswer> {
  const parsed = parsePreDelegateInput(input);
  if (parsed === undefined)
    return { should_resume: false, reason: 'invalid_input', error: rejection('pre-delegate', input) };
  const { agent_id, agent_name } = parsed;
  const nameProblem = namedAgentProblem(agent_name);
  if (nameProblem !== null) return { should_resume: false, reason: 'invalid_input', error: nameProblem };
  if (agent_id !== undefined && agent_id !== null && agent_id !== '') {
    if (!isValidId(agent_id))
      return { should_resume: false, reason: 'invalid_input', error: 'agent_id is not a valid session id' };
    // Another agent's session is never approved for this one (nor marked resumed).
    return answerFor(await sessions.resume(agent_id, agent_name ? { agentName: agent_name } : {}));
  }
  if (agent_name === undefined || agent_name === null || agent_name === '')
    return { should_resume: false, reason: 'no_existing_session' };
  const decision = await sessions.resumeNewestOf(agent_name);
  return decision === null ? { should_resume: false, reason: 'no_existing_session' } : answerFor(decision);
}

/**
 * Finalizes the stopped agent's session: `completed`, or `failed` when exit_code is non-zero. With `interrupted` (the
 * agent died of a host failure), records the interruption instead: the session stays open in its phase and the next
 * `pre-delegate` resumes it (`session_interrupted`). A session of another project is left alone (`other_project`, or
 * `unassigned` for one of none); when the payload names the agent (`agent_name` or `task_info.agent_name`), so is a
 * session of another agent (`agent_mismatch`). Never throws for bad input or a missing session.
 */
export async function subagentStop(sessions: Sessions, input: unknown): Promise<SubagentStopAnswer> {
  const data = parseSubagentStopInput(input);
  if (data === undefined)
    return { finalized: false, reason: 'invalid_input', error: rejection('subagent-stop', input) };
  const agentId = data.task_info?.agent_id || data.agent_id;
  if (!agentId) return { finalized: false, reason: 'no_agent_id' };
  if (!isValidId(agentId))
    return { finalized: false, reason: 'invalid_input', error: 'agent_id is not a valid session id' };
  const agentName = data.task_info?.agent_name || data.agent_name;
  const nameProblem = namedAgentProblem(agentName);
  if (nameProblem !== null) return { finalized: false, reason: 'invalid_input', error: nameProblem };
  const interrupted = data.interrupted;
  if (interrupted !== undefined && interrupted !== null) {
    const facts = {
      error: interrupted.error ?? 'unknown',
      ...(typeof interrupted.message === 'string' ? { message: interrupted.message } : {}),
    };
    return settle(agentId, async () => {
      await sessions.interrupt(agentId, facts, { ownProject: true, ...(agentName ? { agentName } : {}) });
      return { finalized: false, reason: 'interrupted', agent_id: agentId };
    });
  }
  const exitCode = data.exit_code ?? 0;
  const outcome = seedStopOutcome(exitCode);
  const output = typeof data.agent_output === 'string' ? data.agent_output.trim() : '';
  const summary = output !== '' ? excerpt(output, SUMMARY_LIMIT) : `Agent finished with exit code ${exitCode}`;
  return settle(agentId, async () => {
    await sessions.finalize(agentId, outcome, summary, { ownProject: true, ...(agentName ? { agentName } : {}) });
    return { finalized: true, agent_id: agentId, outcome };
  });
}

// --- internal ---

/** The answer of one write on the session `agentId`, or the answer its refusal gives. */
async function settle(agentId: string, write: () => Promise<SubagentStopAnswer>): Promise<SubagentStopAnswer> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof OtherProjectError)
      return {
        finalized: false,
        reason: error.owner === undefined ? 'unassigned' : 'other_project',
        agent_id: agentId,
      };
    if (error instanceof AgentMismatchError) return { finalized: false, reason: 'agent_mismatch', agent_id: agentId };
    if (isSessionError(error, 'E_NOT_FOUND'))
      return { finalized: false, reason: 'session_not_found', agent_id: agentId };
    if (isSessionError(error, 'E_ILLEGAL_TRANSITION'))
      return { finalized: false, reason: 'already_final', agent_id: agentId };
    if (isSessionError(error, 'E_CORRUPT'))
      return { finalized: false, reason: 'invalid_state', agent_id: agentId, error: error.message };
    throw error;
  }
}

/**
 * Why a given agent name breaks the one naming rule (core/input.ts), or null when it keeps it or none is given (an
 * empty name is no name here): no session can carry such a name, so it is the caller's mistake, said as such.
 */
function namedAgentProblem(name: string | null | undefined): string | null {
  if (name === undefined || name === null || name === '') return null;
  const problem = agentNameProblem(name);
  return problem === null ? null : `agent_name: Expected ${problem}`;
}

function answerFor(decision: ResumeDecision): PreDelegateAnswer {
  const { should_resume, reason, agent_id, state } = decision;
  if (!should_resume || state === undefined) return { should_resume, reason, agent_id };
  // `state` is what the decision saw; the resume itself is already recorded in the session's history.
  const full: PreDelegateAnswer = {
    should_resume,
    reason,
    agent_id,
    resume_metadata: {
      previous_phase: state.phase,
      created_at: state.created_at,
      last_updated: state.last_updated,
      history: state.history,
      metadata: state.metadata,
      ...decisionOf(state),
      ...permissionOf(state),
      ...interruptionOf(state, reason),
    },
  };
  return bytesOf(full) <= ANSWER_LIMIT ? full : capped(full);
}

/**
 * The answer cut to ANSWER_LIMIT: metadata keys are kept whole, in their order, while they fit; then the newest
 * history entries that still fit. A marker says what was left out.
 */
function capped(full: PreDelegateAnswer): PreDelegateAnswer {
  const resume = full.resume_metadata!;
  const marker = { limit_bytes: ANSWER_LIMIT, metadata_keys_dropped: 0, history_entries_dropped: 0 };
  const empty: PreDelegateAnswer = {
    ...full,
    resume_metadata: { ...resume, history: [], metadata: {}, truncated: marker },
  };
  // Room to spare for the marker's real counts, so filling them in cannot push the line past the limit.
  let budget = ANSWER_LIMIT - bytesOf(empty) - 40;
  const metadata: Record<string, unknown> = {};
  const keys = Object.keys(resume.metadata);
  for (const key of keys) {
    // `"key":value,`: the separator is counted for every entry, so the sum is an upper bound.
    const cost = bytesOf(key) + 1 + bytesOf(resume.metadata[key]) + 1;
    if (cost > budget) continue;
    // defineProperty: a `__proto__` key stays plain data, as it is in the stored metadata.
    Object.defineProperty(metadata, key, {
      value: resume.metadata[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    budget -= cost;
  }
  const history: HistoryEntry[] = [];
  for (let i = resume.history.length - 1; i >= 0; i--) {
    const cost = bytesOf(resume.history[i]) + 1;
    if (cost > budget) break;
    history.unshift(resume.history[i]!);
    budget -= cost;
  }
  const kept = Object.keys(metadata).length;
  const truncated = {
    ...marker,
    metadata_keys_dropped: keys.length - kept,
    history_entries_dropped: resume.history.length - history.length,
  };
  return { ...full, resume_metadata: { ...resume, history, metadata: metadata as Metadata, truncated } };
}

/** The interruption a `session_interrupted` resume carries on from (the state the decision saw: still waiting). */
function interruptionOf(state: SessionState, reason: PreDelegateAnswer['reason']): { interruption?: Interruption } {
  const record = state.interruption;
  if (reason !== 'session_interrupted' || record === undefined) return {};
  const { at, error, message, phase } = record;
  return { interruption: { at, error, ...(message === undefined ? {} : { message }), phase } };
}

type Interruption = NonNullable<NonNullable<PreDelegateAnswer['resume_metadata']>['interruption']>;

/** The last decision, its note cut to SUMMARY_LIMIT characters so a long note cannot crowd out the metadata. */
function decisionOf(state: SessionState): { decision?: Decision } {
  const decision = lastDecision(state);
  // Issue 40 item 3: a decision not verified here is never handed on as one.
  if (decision === null || decision.unverified === true) return {};
  // Its MAC is this machine's business (core/seal.ts), not the agent's.
  const { mac: _mac, ...told } = decision;
  return { decision: told.note === undefined ? told : { ...told, note: excerpt(told.note, SUMMARY_LIMIT) } };
}

/** The last permission request, whole when it fits SUMMARY_LIMIT characters of JSON, else without its input. */
function permissionOf(state: SessionState): { permission?: PermissionRequest } {
  const request = lastPermission(state);
  if (request === null || request.unverified === true) return {};
  const { mac: _mac, ...told } = request;
  if (JSON.stringify(told.input ?? null).length <= SUMMARY_LIMIT) return { permission: told };
  const { input: _input, ...rest } = told;
  return { permission: { ...rest, input: null } };
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/** zod's words for an input the generated parser refused (zod accepting it would be a generator bug: said so). */
function rejection(hook: 'pre-delegate' | 'subagent-stop', input: unknown): string {
  return schema().firstIssue(hook, input) ?? 'input refused by the generated parser but not by zod (rebuild)';
}
