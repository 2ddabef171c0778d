import * as z from 'zod/mini';
import { isSessionError } from '../core/errors';
import { isFinalPhase, isResumablePhase, RESUMABLE_PHASES } from '../core/phase-names';
import type { SessionState } from '../core/state';
import type { Sessions } from '../sessions';
import { logValue } from './log';
import { excerpt } from './seed-protocol';

/** The events this tool answers; every other event is accepted and left alone. */
export type ClaudeCodeEvent = 'PreToolUse' | 'SubagentStart' | 'SubagentStop' | 'PostToolUse';

/** An answer in Claude Code's hook protocol: context for Claude, nothing else (no permission decision, no block). */
export interface ClaudeCodeAnswer {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PreToolUse' | 'SubagentStart';
    readonly additionalContext: string;
  };
}

/** What a handler did: the answer (null: print nothing) and a short note for the log. */
export interface ClaudeCodeOutcome {
  readonly answer: ClaudeCodeAnswer | null;
  readonly note: string;
}

/** What the handlers need besides the sessions. */
export interface ClaudeCodeContext {
  /** The shell words that run the CLI on this store, e.g. `node /p/dist/agent-session.cjs --dir /p/.claude/session`. */
  readonly cli: string;
  readonly now: Date;
}

/** The agent name Claude Code uses when `subagent_type` is absent. */
export const DEFAULT_AGENT_TYPE = 'general-purpose';
/** The purpose of sessions the hooks create. */
export const CLAUDE_PURPOSE = 'claude_code_subagent';
/** Claude Code keeps at most 10,000 characters of a context string; ours stay well below. */
export const CONTEXT_LIMIT = 9000;
const MESSAGE_LIMIT = 1000;
const FIELD_LIMIT = 1500;
const HISTORY_SHOWN = 5;

// Any field can be absent or of another type in some version: a wrong type counts as absent, never as an error.
const text = z.catch(z.optional(z.string()), undefined);
const ToolInput = z.catch(z.optional(z.looseObject({ subagent_type: text })), undefined);
const Payload = z.looseObject({
  hook_event_name: z.string(),
  session_id: text,
  cwd: text,
  tool_name: text,
  agent_id: text,
  agent_type: text,
  last_assistant_message: text,
  tool_input: z.catch(z.optional(z.unknown()), undefined),
  tool_response: z.catch(z.optional(z.looseObject({ agentId: text, status: text })), undefined),
});
type Payload = z.infer<typeof Payload>;

/** True for a payload of Claude Code's own hook protocol: an object with a string `hook_event_name`. */
export function isClaudeCodePayload(value: unknown): value is Record<string, unknown> & { hook_event_name: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>).hook_event_name === 'string';
}

/**
 * True when text that could not be read as a whole JSON document (over the size cap, cut short) is a Claude Code
 * payload: it has a `hook_event_name` key. Inside a JSON string the quotes would be escaped, so a seed payload
 * that merely mentions the key does not match.
 */
export function isClaudeCodeText(text: string): boolean {
  return /"hook_event_name"\s*:\s*"/.test(text);
}

/** The payload's `cwd` when it is an absolute path (the live working folder of Claude), else undefined. */
export function payloadCwd(value: Record<string, unknown>): string | undefined {
  const cwd = value.cwd;
  return typeof cwd === 'string' && (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd)) ? cwd : undefined;
}

/**
 * Answers one Claude Code hook payload, whatever the event: PreToolUse(Task|Agent) offers a resume,
 * SubagentStart creates or relinks a session, SubagentStop keeps or finalizes it, PostToolUse(Task|Agent)
 * records the link. Any other event or tool: no answer. Never denies, never blocks.
 */
export function handleClaudeCode(sessions: Sessions, input: Record<string, unknown>, context: ClaudeCodeContext): ClaudeCodeOutcome {
  const parsed = Payload.safeParse(input);
  if (!parsed.success) return skip('invalid_payload');
  const payload = parsed.data;
  switch (payload.hook_event_name) {
    case 'PreToolUse':
      return preToolUse(sessions, payload, context);
    case 'SubagentStart':
      return subagentStart(sessions, payload, context);
    case 'SubagentStop':
      return subagentStop(sessions, payload);
    case 'PostToolUse':
      return postToolUse(sessions, payload);
    default:
      return skip('other_event');
  }
}

/**
 * The resume decision of a delegation to `agentName`: its newest session when that one may be resumed
 * (the resume rules pass) and no Claude agent is running it; else null. Both the PreToolUse offer and the
 * SubagentStart relink go through here, so a resume is approved in one place.
 */
export function approveResume(sessions: Sessions, agentName: string): SessionState | null {
  const newest = sessions.newestOf(agentName);
  return newest !== null && isParked(sessions, newest) ? newest : null;
}

// --- events ---

function preToolUse(sessions: Sessions, payload: Payload, context: ClaudeCodeContext): ClaudeCodeOutcome {
  if (!isDelegationTool(payload.tool_name)) return skip('other_tool');
  const agentName = agentNameOf(payload.tool_input);
  const state = approveResume(sessions, agentName);
  if (state === null) return skip(`nothing_to_resume agent=${logValue(agentName)}`);
  return {
    answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: resumeContext(state, context) } },
    note: `resume_offered agent=${logValue(agentName)} session=${logValue(state.agent_id)}`,
  };
}

function subagentStart(sessions: Sessions, payload: Payload, context: ClaudeCodeContext): ClaudeCodeOutcome {
  if (payload.agent_type === '') return skip('internal_agent');
  if (!payload.agent_id) return skip('no_agent_id');
  const agentType = payload.agent_type ?? DEFAULT_AGENT_TYPE;
  const { state, action, resumedFrom } = linkAgent(sessions, { agent_id: payload.agent_id, agent_type: agentType, session_id: payload.session_id });
  return {
    answer: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: startContext(state, resumedFrom, context, sessions.limits.maxErrors) } },
    note: `${action} agent=${logValue(agentType)} claude_agent=${logValue(payload.agent_id)} session=${logValue(state.agent_id)}`,
  };
}

function subagentStop(sessions: Sessions, payload: Payload): ClaudeCodeOutcome {
  // Internal summarizer and compaction forks stop with an empty agent_type and were never started by us.
  if (payload.agent_type === '') return skip('internal_agent');
  // Before Claude Code 2.0.42 SubagentStop carried no agent_id: there is nothing to match it to.
  if (!payload.agent_id) return skip('no_agent_id');
  const state = sessions.findByClaudeAgent(payload.agent_id);
  if (state === null) return skip(`unknown_agent claude_agent=${logValue(payload.agent_id)}`);
  if (isFinalPhase(state.phase)) return skip(`already_final session=${logValue(state.agent_id)}`);
  const message = payload.last_assistant_message?.trim();
  const lastMessage = message ? excerpt(message, MESSAGE_LIMIT) : undefined;
  const tooManyErrors = state.error_count >= sessions.limits.maxErrors;
  try {
    if (isResumablePhase(state.phase) && !tooManyErrors) {
      sessions.linkClaude(state.agent_id, { stopped: true, ...(lastMessage === undefined ? {} : { last_message: lastMessage }) });
      return skip(`kept phase=${logValue(state.phase)} session=${logValue(state.agent_id)}`);
    }
    const outcome = tooManyErrors ? 'failed' : 'completed';
    sessions.finalize(state.agent_id, outcome, lastMessage ?? `Claude Code agent ${payload.agent_id} stopped`);
    return skip(`finalized outcome=${logValue(outcome)} session=${logValue(state.agent_id)}`);
  } catch (error) {
    // Finalized or removed by someone else since it was read: nothing left to do.
    if (isSessionError(error, 'E_ILLEGAL_TRANSITION') || isSessionError(error, 'E_NOT_FOUND')) {
      return skip(`changed_meanwhile session=${logValue(state.agent_id)}`);
    }
    throw error;
  }
}

function postToolUse(sessions: Sessions, payload: Payload): ClaudeCodeOutcome {
  if (!isDelegationTool(payload.tool_name)) return skip('other_tool');
  const agentId = payload.tool_response?.agentId;
  if (!agentId) return skip('no_agent_id');
  const linked = sessions.findByClaudeAgent(agentId);
  if (linked !== null) return skip(`already_linked claude_agent=${logValue(agentId)} session=${logValue(linked.agent_id)}`);
  // A foreground agent that already finished has nothing left to track; a launched one (background) does.
  if (payload.tool_response?.status === 'completed') return skip(`finished_unlinked claude_agent=${logValue(agentId)}`);
  const agentType = agentNameOf(payload.tool_input);
  const { state, action } = linkAgent(sessions, { agent_id: agentId, agent_type: agentType, session_id: payload.session_id });
  return skip(`${action} agent=${logValue(agentType)} claude_agent=${logValue(agentId)} session=${logValue(state.agent_id)}`);
}

// --- linking ---

interface AgentFacts {
  readonly agent_id: string;
  readonly agent_type: string;
  readonly session_id: string | undefined;
}

/**
 * Finds or makes the session of a running Claude agent: the one already linked to it, else the agent
 * type's parked resumable session (relinked), else a new one.
 */
function linkAgent(sessions: Sessions, facts: AgentFacts): { state: SessionState; action: string; resumedFrom?: SessionState } {
  const change = {
    agent_id: facts.agent_id,
    agent_type: facts.agent_type,
    stopped: false,
    ...(facts.session_id === undefined ? {} : { session_id: facts.session_id }),
  };
  const linked = sessions.findByClaudeAgent(facts.agent_id);
  if (linked !== null && !isFinalPhase(linked.phase)) {
    return { state: sessions.linkClaude(linked.agent_id, change), action: 'already_linked' };
  }
  const parked = approveResume(sessions, facts.agent_type);
  if (parked !== null) {
    try {
      const state = sessions.linkClaude(parked.agent_id, change, (current) => isParked(sessions, current), { resumed: true });
      return { state, action: 'relinked', resumedFrom: parked };
    } catch (error) {
      // Taken by a parallel delegation, finalized or removed meanwhile: start a new session instead.
      if (!isSessionError(error, 'E_ILLEGAL_TRANSITION') && !isSessionError(error, 'E_NOT_FOUND')) throw error;
    }
  }
  const created = sessions.create({ agent_name: facts.agent_type, purpose: CLAUDE_PURPOSE });
  return { state: sessions.linkClaude(created.agent_id, change), action: 'created' };
}

/** Resumable by the rules, and not run by a Claude agent right now (never linked, or its agent stopped). */
function isParked(sessions: Sessions, state: SessionState): boolean {
  return sessions.decide(state).should_resume && (state.claude === undefined || state.claude.stopped_at !== undefined);
}

// --- context texts (factual statements: imperative "system" wording can trip prompt-injection defences) ---

function resumeContext(state: SessionState, context: ClaudeCodeContext): string {
  const lines = [
    `agent-session: sub-agent \`${state.agent_name}\` has a resumable session.`,
    `- Session id: ${state.agent_id} (purpose ${state.purpose})`,
    `- Previous phase: ${state.phase}, last active ${ago(state.last_updated, context.now)} (${state.last_updated}); created ${state.created_at}`,
    ...detailLines(state),
  ];
  const claudeAgent = state.claude?.agent_id;
  if (claudeAgent !== undefined) {
    lines.push(`- Claude agent id: ${claudeAgent}. SendMessage to \`${claudeAgent}\` continues that agent with its context; a new delegation to \`${state.agent_name}\` is linked to this session instead.`);
  } else {
    lines.push(`- A new delegation to \`${state.agent_name}\` is linked to this session.`);
  }
  lines.push(`- Progress is recorded with: ${context.cli} update ${state.agent_id} --phase <phase> [--metadata '<json>'] [--error '<message>']`);
  return excerpt(lines.join('\n'), CONTEXT_LIMIT);
}

function startContext(state: SessionState, resumedFrom: SessionState | undefined, context: ClaudeCodeContext, maxErrors: number): string {
  const command = `${context.cli} update ${state.agent_id}`;
  const lines = [
    resumedFrom === undefined
      ? `agent-session: this sub-agent's work is recorded in session ${state.agent_id} (agent \`${state.agent_name}\`, phase ${state.phase}).`
      : `agent-session: this sub-agent resumes session ${state.agent_id} (agent \`${state.agent_name}\`), parked in phase ${resumedFrom.phase} ${ago(resumedFrom.last_updated, context.now)}.`,
  ];
  if (resumedFrom !== undefined) lines.push(...detailLines(resumedFrom));
  lines.push(
    'Commands that record this agent\'s state (Bash):',
    `- phase: ${command} --phase <${[...RESUMABLE_PHASES, 'executing', 'validating'].join('|')}>`,
    `- findings: ${command} --metadata '{"findings": "<text>"}'`,
    `- an error: ${command} --error '<message>'`,
    `When this agent stops in phase ${RESUMABLE_PHASES.join(', ')} (for example waiting for the user's approval), the session stays open and the next delegation to \`${state.agent_name}\` resumes it. In any other phase the stop finalizes it: completed, or failed after ${maxErrors} errors.`,
  );
  return excerpt(lines.join('\n'), CONTEXT_LIMIT);
}

function detailLines(state: SessionState): string[] {
  const lines: string[] = [];
  const { task_id, findings, ...rest } = state.metadata;
  if (task_id !== undefined) lines.push(`- Task id: ${clip(task_id)}`);
  if (findings !== undefined) lines.push(`- Findings: ${clip(findings)}`);
  if (Object.keys(rest).length > 0) lines.push(`- Metadata: ${clip(rest)}`);
  const recent = state.history.slice(-HISTORY_SHOWN);
  if (recent.length > 0) {
    const more = state.history.length > recent.length ? ` (last ${recent.length} of ${state.history.length})` : '';
    lines.push(`- Recent history${more}: ${recent.map((h) => `${h.from_phase} → ${h.to_phase} at ${h.timestamp}`).join('; ')}`);
  }
  if (state.error_count > 0) lines.push(`- Errors: ${state.error_count}${state.last_error ? `, last: ${clip(state.last_error.message)}` : ''}`);
  if (state.claude?.last_message !== undefined) lines.push(`- Last message of the agent: ${clip(state.claude.last_message)}`);
  return lines;
}

// --- small helpers ---

function skip(note: string): ClaudeCodeOutcome {
  return { answer: null, note };
}

function isDelegationTool(name: string | undefined): boolean {
  // The tool was renamed from Task to Agent in Claude Code 2.1.63; both names are the same tool.
  return name === 'Task' || name === 'Agent';
}

function agentNameOf(toolInput: unknown): string {
  let input = toolInput;
  if (typeof input === 'string') {
    // Some hosts and wrappers pass tool_input as a JSON string.
    try {
      input = JSON.parse(input);
    } catch {
      // Not JSON: no subagent_type can be read from it, so Claude's default agent applies.
      input = undefined;
    }
  }
  const parsed = ToolInput.safeParse(input);
  const name = parsed.success ? parsed.data?.subagent_type?.trim() : undefined;
  return name ? name : DEFAULT_AGENT_TYPE;
}

function clip(value: unknown): string {
  const rendered = typeof value === 'string' ? value : JSON.stringify(value);
  return excerpt(rendered.replace(/\s+/g, ' ').trim(), FIELD_LIMIT);
}

function ago(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds} seconds ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} minutes ago`;
  return `${Math.round(minutes / 60)} hours ago`;
}
