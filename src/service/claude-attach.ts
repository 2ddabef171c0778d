import { SessionError, isSessionError } from '../core/errors';
import { withResume } from '../core/history';
import { changesLink, CLAUDE_PURPOSE, withClaudeLink, type ClaudeLinkChange } from '../core/claude-link';
import { isContinuationOf, withContinued } from '../core/continuation';
import { stopOutcome, type StopOutcome } from '../core/stop-policy';
import { assertAgentName } from '../core/input';
import { interruptionOf, isInterrupted, PERMISSION_DENIED, withInterruption } from '../core/interruption';
import { pendingPermission } from '../core/permission';
import { isFinalPhase, type WorkPhase } from '../core/phase-names';
import { isParked } from '../core/parking';
import { hostOf, withHost } from '../core/host';
import { finalizeState, newSession } from '../core/session';
import { mayTake, passedOver, takeover, withPassedOverId, withTask, type DelegatedTask } from '../core/task';
import type { SessionState } from '../core/state';
import type { ProjectView } from './project-view';
import { SupersededStop, Unchanged } from './refusals';

// The Claude Code use case: one sub-agent's events (start, stop, failure) attached to its session, whatever their
// order, with the stop policy and the interruption record applied in the same step (Sessions.attachClaudeAgent).

/** One event of a Claude Code sub-agent, as `attachClaudeAgent` takes it. */
export interface ClaudeAgentEvent {
  /** Claude's agent id (`a` + 16 hex digits in 2.1.330). */
  readonly agent_id: string;
  /** Its agent type (the session's agent name); absent: only an agent already attached is found, none is made. */
  readonly agent_type?: string;
  readonly session_id?: string;
  /**
   * Present for SubagentStart: the agent starts now. A start of an agent whose link had stopped is that agent coming
   * back with its context (SendMessage, issue 34): its session runs again (core/continuation.ts withContinued).
   */
  readonly started?: true;
  /** Present for SubagentStop: the agent stopped, with (an excerpt of) its last message. */
  readonly stopped?: { readonly last_message?: string };
  /** Present for StopFailure: the agent died of a host failure (its kind and message, core/interruption.ts). */
  readonly failed?: AgentFailure;
  /**
   * The task it was delegated, where the event carries it (PostToolUse of the delegation tool, opencode's `task`):
   * recorded on its session, and judged before a parked session is taken (core/task.ts `takeover`).
   */
  readonly task?: DelegatedTask;
}

/** How an agent died: the kind and message of its interruption (core/interruption.ts). */
export interface AgentFailure {
  readonly error: string;
  readonly message?: string;
  /**
   * The agent was cut off by the main turn's interrupt (Claude Code's Interrupt), which names no agent: recorded only
   * while its link runs (a stop of its own that came first wins: it finished), and a denied permission's interruption
   * names the inbox item its session waits on.
   */
  readonly cut?: true;
}

/**
 * What attaching did: `created` a session, `relinked` the type's parked session (a resume), found the one
 * already `linked` to this agent, `continued` it (this agent had stopped and starts again with its context), or found
 * it `superseded` (this agent stopped and a later one resumed its session: nothing is changed for a late event of the
 * earlier agent).
 */
export type AttachAction = 'created' | 'relinked' | 'linked' | 'continued' | 'superseded';

export interface Attachment {
  readonly state: SessionState;
  readonly action: AttachAction;
  /** For a stop: what the stop policy did, or `already_final` / `superseded` when there was nothing to do. */
  readonly stop?: StopOutcome | 'already_final' | 'superseded';
  /**
   * For a failure: `recorded` (the session waits for the next delegation), `already` (this agent's failure was
   * recorded before: nothing written), `already_final` or `superseded` (nothing to do), `stopped` (an agent cut off
   * whose own stop came first: it had finished, nothing written).
   */
  readonly interruption?: 'recorded' | 'already' | 'already_final' | 'superseded' | 'stopped';
}

export { CLAUDE_PURPOSE } from '../core/claude-link';

/**
 * Attaches one event of a Claude Code sub-agent to its session, in one step serialized per Claude agent id and
 * per agent type (the store's locks): the session this agent id was attached to before, whatever its phase
 * (never a second one); else the type's parked session, relinked (a resume, recorded in its history and on the
 * link); else a new session. For a stop, the stop policy (`stopOutcome`) is applied in the same step. Any order
 * of one agent's events ends in the same state: `stopped_at` is sticky for an agent id, a repeated event
 * writes nothing, and a stop that arrives first links (or creates) before applying the policy.
 * @returns null when the agent is not attached and `agent_type` is absent (nothing to create)
 * @throws SessionError E_USAGE for an `agent_type` the naming rule refuses (core/input.ts: the name of the session
 *   it would make); E_BUSY when a lock stays taken, E_IO
 */
export async function attachClaudeAgent(view: ProjectView, event: ClaudeAgentEvent): Promise<Attachment | null> {
  if (event.agent_type !== undefined) assertAgentName(event.agent_type, 'agent_type');
  const work = async (): Promise<Attachment | null> => {
    // Read under the locks: the time of this step, after the attaches it waited for.
    const now = await view.store.now();
    const found = await view.store.attachedTo(view.project, event.agent_id);
    const facts: ClaudeLinkChange = {
      agent_id: event.agent_id,
      ...(event.agent_type === undefined ? {} : { agent_type: event.agent_type }),
      ...(event.session_id === undefined ? {} : { session_id: event.session_id }),
    };
    let attachment: Attachment;
    if (found !== null && found.claude?.agent_id !== event.agent_id) {
      // A later agent resumed it after this one stopped: a late event of this one changes nothing.
      return {
        state: found,
        action: 'superseded',
        ...(event.stopped ? { stop: 'superseded' as const } : {}),
        ...(event.failed ? { interruption: 'superseded' as const } : {}),
      };
    }
    if (found !== null && event.started === true && isContinuationOf(found, event.agent_id)) {
      attachment = await continued(view, now, found, facts);
    } else if (found !== null) {
      const linked =
        isFinalPhase(found.phase) || !changesLink(found, facts)
          ? found
          : await view.linkClaudeAt(now, found.agent_id, facts);
      attachment = { state: await taskRecorded(view, now, linked, event.agent_id, event.task), action: 'linked' };
    } else if (event.agent_type === undefined) {
      return null;
    } else {
      const parked = await view.parkedOfAt(now, event.agent_type);
      // A parked session that holds a decision or a grant for another task is passed over, and named on the new one.
      const passed = parked !== null && !mayRelink(parked, event.task, now) ? parked.agent_id : undefined;
      const relinked =
        parked === null || passed !== undefined ? null : await relinkParked(view, now, parked, facts, event.task);
      attachment = relinked ?? {
        state: await createLinked(view, now, event.agent_type, facts, event.task, passed),
        action: 'created',
      };
    }
    if (event.failed) return failed(view, now, attachment, event.agent_id, event.failed);
    return event.stopped
      ? await stopped(view, now, attachment, event.agent_id, event.stopped.last_message)
      : attachment;
  };
  return view.store.lockClaudeAgent(event.agent_id, event.agent_type ?? '', work);
}

/**
 * The session of a stopped agent that starts again (a continuation with its context), running again in one write; as
 * `linked` when it changed meanwhile (finalized, relinked, removed: nothing to continue).
 */
async function continued(
  view: ProjectView,
  now: Date,
  found: SessionState,
  facts: ClaudeLinkChange,
): Promise<Attachment> {
  const agentId = facts.agent_id!;
  try {
    const state = await view.write(found.agent_id, now, (current, at) => {
      // Checked again under the session lock: a CLI update or another agent may have changed it since it was read.
      if (!isContinuationOf(current, agentId)) throw new Unchanged();
      return withClaudeLink(withContinued(current, agentId, at), facts, at);
    });
    return { state, action: 'continued' };
  } catch (error) {
    if (error instanceof Unchanged) return { state: found, action: 'linked' };
    if (isSessionError(error, 'E_ILLEGAL_TRANSITION') || isSessionError(error, 'E_NOT_FOUND'))
      return { state: found, action: 'linked' };
    throw error;
  }
}

/**
 * The type's parked session relinked to this agent (a resume), or null when it can no longer be taken (checked again
 * under its lock). The caller passes over one that holds a decision or a grant for another task (core/task.ts: this
 * agent's task differs, or a delegation of another task passed it over as it was offered, Sessions.offerDelegation).
 */
async function relinkParked(
  view: ProjectView,
  now: Date,
  parked: SessionState,
  facts: ClaudeLinkChange,
  task: DelegatedTask | undefined,
): Promise<Attachment | null> {
  try {
    const state = await view.write(parked.agent_id, now, (current, at) => {
      // Checked again under the session lock: a CLI update may have changed it since it was read.
      if (
        current.project !== view.project ||
        hostOf(current) !== view.host ||
        !isParked(current, now, view.limits) ||
        isFinalPhase(current.phase) ||
        !mayRelink(current, task, now)
      ) {
        throw new SessionError(
          'E_ILLEGAL_TRANSITION',
          `Session \`${current.agent_id}\` changed and can no longer be resumed`,
        );
      }
      const previous = current.claude;
      const interruption = interruptionOf(current);
      const resumed_from = {
        phase: current.phase as WorkPhase,
        last_active: current.last_updated,
        ...(previous === undefined ? {} : { agent_id: previous.agent_id }),
        ...(previous?.last_message === undefined ? {} : { last_message: previous.last_message }),
        ...(interruption === undefined ? {} : { interruption }),
      };
      // A parked session handed to a new Claude agent is a resume: recorded in the same write (for `stats`).
      const resumed = withResume(withClaudeLink(current, { ...facts, resumed_from }, at), at);
      return task === undefined ? resumed : withTask(resumed, task, at);
    });
    return { state, action: 'relinked' };
  } catch (error) {
    // Finalized, changed or removed meanwhile by someone outside the hooks: a new session instead.
    if (isSessionError(error, 'E_ILLEGAL_TRANSITION') || isSessionError(error, 'E_NOT_FOUND')) return null;
    if (isSessionError(error, 'E_CORRUPT')) return null;
    throw error;
  }
}

/** A parked session this start may take: not passed over by another task's delegation, nor of another task. */
function mayRelink(parked: SessionState, task: DelegatedTask | undefined, now: Date): boolean {
  return !passedOver(parked) && mayTake(takeover(parked, task ?? null, now));
}

function createLinked(
  view: ProjectView,
  now: Date,
  agentType: string,
  facts: ClaudeLinkChange,
  task: DelegatedTask | undefined,
  passedOverId: string | undefined,
): Promise<SessionState> {
  const build = (agent_id: string): SessionState => {
    const made = withHost(
      newSession({ agent_id, agent_name: agentType, purpose: CLAUDE_PURPOSE, project: view.project }, now),
      view.host,
    );
    const beside = passedOverId === undefined ? made : withPassedOverId(made, passedOverId, now);
    return task === undefined ? beside : withTask(beside, task, now);
  };
  return view.createUnderNewId(now, (agent_id) => withClaudeLink(build(agent_id), facts, now));
}

/**
 * The task recorded on the session an agent is attached to (a background agent's PostToolUse after its start, a
 * foreground agent's after it returned: Claude Code gives the task only there and in PreToolUse), when it changes it
 * and the session is still linked to that agent; the state as it was otherwise.
 */
async function taskRecorded(
  view: ProjectView,
  now: Date,
  state: SessionState,
  claudeAgentId: string,
  task: DelegatedTask | undefined,
): Promise<SessionState> {
  if (task === undefined || withTask(state, task, now) === state) return state;
  try {
    return await view.write(state.agent_id, now, (current, at) => {
      if (current.claude?.agent_id !== claudeAgentId) throw new Unchanged();
      const next = withTask(current, task, at);
      if (next === current) throw new Unchanged();
      return next;
    });
  } catch (error) {
    if (error instanceof Unchanged || isSessionError(error, 'E_NOT_FOUND')) return state;
    throw error;
  }
}

/** Stops an attached session's link and records the interruption, in one write (nothing when already recorded). */
async function failed(
  view: ProjectView,
  now: Date,
  attachment: Attachment,
  claudeAgentId: string,
  failure: AgentFailure,
): Promise<Attachment> {
  if (isFinalPhase(attachment.state.phase)) return { ...attachment, interruption: 'already_final' };
  if (alreadyInterruptedBy(attachment.state, claudeAgentId)) return { ...attachment, interruption: 'already' };
  if (failure.cut && attachment.state.claude?.stopped_at !== undefined)
    return { ...attachment, interruption: 'stopped' };
  try {
    const state = await view.write(attachment.state.agent_id, now, (current, at) => {
      if (current.claude?.agent_id !== claudeAgentId) throw new SupersededStop();
      if (alreadyInterruptedBy(current, claudeAgentId)) throw new Unchanged();
      // Decided again under the lock: its SubagentStop may have landed since the read.
      if (failure.cut && current.claude.stopped_at !== undefined) throw new StoppedFirst();
      const stopped = withClaudeLink(current, { stopped: true }, at);
      const message = failure.cut ? withInboxItem(failure, current) : failure.message;
      const facts = { error: failure.error, ...(message === undefined ? {} : { message }), agent_id: claudeAgentId };
      return withInterruption(stopped, facts, at);
    });
    return { state, action: attachment.action, interruption: 'recorded' };
  } catch (error) {
    if (error instanceof SupersededStop)
      return { state: attachment.state, action: 'superseded', interruption: 'superseded' };
    if (error instanceof Unchanged) return { ...attachment, interruption: 'already' };
    if (error instanceof StoppedFirst) return { ...attachment, interruption: 'stopped' };
    // Finalized or removed by the CLI since it was read: nothing left to record it on.
    if (!isSessionError(error, 'E_ILLEGAL_TRANSITION') && !isSessionError(error, 'E_NOT_FOUND')) throw error;
    return { ...attachment, interruption: 'already_final' };
  }
}

/** Applies the stop policy to an attached session, in one write. */
async function stopped(
  view: ProjectView,
  now: Date,
  attachment: Attachment,
  claudeAgentId: string,
  lastMessage: string | undefined,
): Promise<Attachment> {
  if (isFinalPhase(attachment.state.phase)) return { ...attachment, stop: 'already_final' };
  const change: ClaudeLinkChange = {
    stopped: true,
    ...(lastMessage === undefined ? {} : { last_message: lastMessage }),
  };
  let state: SessionState;
  try {
    state = await stopWrite(view, now, attachment.state.agent_id, change, claudeAgentId, lastMessage);
  } catch (error) {
    // Another agent resumed the session since it was read (a stop without agent_type holds only its agent's lock,
    // not the type's that a resume takes): that agent's link is not this stop's to end.
    if (error instanceof SupersededStop) return { state: attachment.state, action: 'superseded', stop: 'superseded' };
    // Finalized or removed by the CLI since it was read: nothing left to do.
    if (!isSessionError(error, 'E_ILLEGAL_TRANSITION') && !isSessionError(error, 'E_NOT_FOUND')) throw error;
    return { ...attachment, stop: 'already_final' };
  }
  return { state, action: attachment.action, stop: isFinalPhase(state.phase) ? state.phase : 'kept' };
}

function stopWrite(
  view: ProjectView,
  now: Date,
  id: string,
  change: ClaudeLinkChange,
  claudeAgentId: string,
  lastMessage: string | undefined,
): Promise<SessionState> {
  return view.write(id, now, (current, at) => {
    if (current.claude?.agent_id !== claudeAgentId) throw new SupersededStop();
    // Decided again on the state under the lock: the agent's last CLI update may have landed since the read.
    const linked = withClaudeLink(current, change, at);
    const decided = stopOutcome(current, view.limits.maxErrors);
    if (decided === 'kept') return linked;
    const summary =
      decided === 'abandoned'
        ? `Claude Code agent ${claudeAgentId} stopped while the session was still initializing (no phase recorded)` +
          (lastMessage === undefined ? '' : `: ${lastMessage}`)
        : (lastMessage ?? `Claude Code agent ${claudeAgentId} stopped`);
    return finalizeState(linked, decided, summary, at);
  });
}

/** An agent cut off by the main turn's interrupt had stopped by itself first: nothing to record. */
class StoppedFirst extends Error {}

/**
 * A denied permission's interruption names the inbox item its session waits on (the newest pending request, the one
 * `approve`/`reject` decide): the message as it was, else.
 */
function withInboxItem(failure: AgentFailure, state: SessionState): string | undefined {
  const request = failure.error === PERMISSION_DENIED ? pendingPermission(state) : null;
  if (request === null) return failure.message;
  const item = `after its ${request.tool} call asked at ${request.at}, the inbox item of session ${state.agent_id} (approve or reject it)`;
  return failure.message === undefined ? item : `${failure.message}; ${item}`;
}

/** The session waits after an interruption of this very agent, whose link is stopped: a repeated report of it. */
function alreadyInterruptedBy(state: SessionState, claudeAgentId: string): boolean {
  return (
    isInterrupted(state) &&
    state.interruption?.agent_id === claudeAgentId &&
    state.claude?.agent_id === claudeAgentId &&
    state.claude.stopped_at !== undefined
  );
}
