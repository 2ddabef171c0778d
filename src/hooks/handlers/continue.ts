// Issue 34: a parked sub-agent continued with its context (Claude Code's SendMessage to its agent id) rather than a
// fresh one primed. PreToolUse(SendMessage) to the recorded Claude agent of one of this project's parked or interrupted
// sessions: its transcript, when it is in an earlier session of this Claude project, is brought into the current
// session's folder (never over a file, never another project's or another agent's: service/agent-transcripts.ts), and
// the message carries what the agent must know now (`updatedInput`: a continued agent gets no new SubagentStart
// context). Over the size limit, gone, or a layout this version does not know: nothing is brought, and the main agent
// is told that a delegation primes a fresh agent. Never denies: SendMessage goes on as it would without us.
import {
  DEFAULT_CONTINUATION_SETTINGS,
  agentFileNames,
  isPlainAgentId,
  sessionFolders,
  type ContinuationChoice,
  type ContinuationSettings,
} from '../../core/claude-transcript';
import type { ContinuationChoiceFacts } from '../../core/continuation';
import { isFinalPhase } from '../../core/phase-names';
import { isRunning } from '../../core/parking';
import type { SessionState } from '../../core/state';
import type { Sessions } from '../../service/sessions';
import { logValue } from '../log';
import { continueNote, primeContext } from '../texts';
import type { Payload } from './claude-schema';
import { skip, type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';

/** The tool that continues a stopped sub-agent (Claude Code 2.1.330 on; deferred behind ToolSearch in `-p`). */
export const CONTINUE_TOOL = 'SendMessage';

/** A PreToolUse answer that changes the tool's input (SendMessage's message), with no permission decision. */
export interface UpdatedInputAnswer {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PreToolUse';
    readonly updatedInput: { readonly to: string; readonly summary?: string; readonly message: string };
  };
}

// The service module reads the disk (node:fs): loaded only when a SendMessage or a parked agent asks, never on the
// other hook calls' path.
function transcripts(): typeof import('../../service/agent-transcripts') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (above)
  return require('../../service/agent-transcripts') as typeof import('../../service/agent-transcripts');
}

/** What our record says of a Claude agent, for the choice (core ContinuationFacts `recorded`). */
export function recordedOf(state: SessionState, parked: boolean): 'stopped' | 'running' | 'ended' {
  if (isFinalPhase(state.phase)) return 'ended';
  if (isRunning(state)) return 'running';
  return parked ? 'stopped' : 'ended';
}

/**
 * Whether the stopped Claude agent of a parked session can be continued from the session of `payload`, without
 * changing anything (the parked list and the resume offer say so). Null when the session has no Claude agent or the
 * host cannot continue one, or its transcripts cannot be read (the feature steps aside).
 */
export function continuationChoiceOf(
  state: SessionState,
  payload: Payload,
  context: HandlerContext,
): ContinuationChoice | null {
  const link = state.claude;
  if (link === undefined || context.words.continuing === undefined) return null;
  try {
    return lookAt(state, link, payload, context);
  } catch {
    // A folder that cannot be read: the feature steps aside, the parked list and the resume offer are said as before.
    return null;
  }
}

function lookAt(
  state: SessionState,
  link: NonNullable<SessionState['claude']>,
  payload: Payload,
  context: HandlerContext,
): ContinuationChoice {
  return transcripts().continuationOf(
    {
      payload,
      agentId: link.agent_id,
      recorded: recordedOf(state, true),
      ...(link.session_id === undefined ? {} : { sessionHint: link.session_id }),
    },
    settingsOf(context),
  );
}

/** The continuation settings in force (the configuration's, else the defaults). */
export function settingsOf(context: HandlerContext): ContinuationSettings {
  return context.continuation ?? DEFAULT_CONTINUATION_SETTINGS;
}

/**
 * PreToolUse(SendMessage): continues a parked session's agent with its context where it can (bringing its transcript
 * from an earlier session of the project), and records the choice and its reason on the session.
 */
export async function continueAgent(
  sessions: Sessions,
  payload: Payload,
  context: HandlerContext,
): Promise<HandlerOutcome<UpdatedInputAnswer | ContextAnswer<'PreToolUse'>>> {
  if (context.words.continuing === undefined) return skip('other_host');
  const input = payload.tool_input;
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const to = fields.to;
  if (!isPlainAgentId(to)) return skip('not_an_agent_id');
  // Only an id one of this project's sessions records: another project's agent (a decoy) is never looked for.
  const state = await sessions.findByClaudeAgent(to);
  if (state === null) return skip(`not_ours claude_agent=${logValue(to)}`);
  if (state.claude?.agent_id !== to) return skip(`superseded claude_agent=${logValue(to)} session=${state.agent_id}`);
  const recorded = recordedOf(state, await sessions.isParked(state));
  const settings = settingsOf(context);
  const ask = {
    payload,
    agentId: to,
    recorded,
    ...(state.claude.session_id === undefined ? {} : { sessionHint: state.claude.session_id }),
  };
  const result = transcripts().continueWithContext(ask, settings);
  const folders = sessionFolders(payload);
  let choice = result.choice;
  // Brought, or there already (a copy made meanwhile): Claude Code finds it. Anything else: it will not.
  if (result.brought !== undefined && result.brought !== 'copied' && result.brought !== 'exists')
    choice = { kind: 'prime', why: 'gone', reason: `its transcript could not be brought over (${result.brought})` };
  const note = `claude_agent=${logValue(to)} session=${logValue(state.agent_id)}`;
  if (recorded !== 'stopped') return skip(`not_continued why=${choice.kind === 'prime' ? choice.why : '-'} ${note}`);
  const facts: ContinuationChoiceFacts =
    choice.kind === 'continue' && folders !== null
      ? {
          choice: 'continue',
          reason: choice.reason,
          claude_agent_id: to,
          transcript_path: `${folders.subagentsDir}/${agentFileNames(to).transcript}`,
          transcript_bytes: choice.from.transcript.size,
        }
      : { choice: 'prime', reason: choice.kind === 'prime' ? choice.reason : 'layout unknown', claude_agent_id: to };
  const written = (await sessions.recordContinuation(state.agent_id, facts)) ?? state;
  if (facts.choice === 'prime')
    return {
      answer: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          additionalContext: primeContext(written, to, facts.reason, context),
        },
      },
      note: `prime why=${choice.kind === 'prime' ? choice.why : '-'} ${note}`,
    };
  const message = typeof fields.message === 'string' ? fields.message : '';
  const summary = typeof fields.summary === 'string' ? { summary: fields.summary } : {};
  return {
    answer: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { to, ...summary, message: `${message}\n\n${continueNote(written, context)}` },
      },
    },
    note: `continue where=${choice.kind === 'continue' ? choice.where : '-'} brought=${result.brought ?? '-'} ${note}`,
  };
}
