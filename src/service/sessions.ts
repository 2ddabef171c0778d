import { assertCoherent, assertNotAhead } from '../core/coherence';
import { SessionError, isSessionError, show } from '../core/errors';
import { capHistory, DEFAULT_HISTORY_CAP, withResume } from '../core/history';
import type { ClaudeLinkChange } from '../core/claude-link';
import { withContinuationChoice, type ContinuationChoiceFacts } from '../core/continuation';
import { approveState, importedState, rejectState, type ApproveInput, type RejectInput } from '../core/decision';
import { assertValidId, ID_CANDIDATES, pickId } from '../core/ids';
import { DEFAULT_LIMITS, type Limits } from '../core/limits';
import { isInterrupted, withInterruption } from '../core/interruption';
import { isFinalPhase, PHASES, type FinalPhase, type Phase } from '../core/phase-names';
import {
  canPark,
  DEFAULT_PERMISSION_GRANT_TTL_HOURS,
  expireLapsedGrants,
  grantFor,
  parkForPermission,
  spendGrant,
  type PermissionAsk,
  type PermissionInboxMode,
  withoutGrants,
} from '../core/permission';
import { isParked } from '../core/parking';
import { DEFAULT_PROJECT, withProject } from '../core/project';
import { DEFAULT_HOST, hostOf, withHost, type Host } from '../core/host';
import { isAheadOfClock, latestSane, type ResumeReason } from '../core/rules';
import { assertAgentName, assertMetadata, assertText } from '../core/input';
import { assertNotAgentShell, decisionOriginOf, type DecisionOrigin } from '../core/origin';
import { applyChange, finalizeState, newSession, parsePhase, type SessionChange } from '../core/session';
import type { Metadata, SessionState } from '../core/state';
import {
  carriesOn,
  mayTake,
  takeover,
  withPassedOver,
  withTask,
  type DelegatedTask,
  type TakeoverReason,
} from '../core/task';
import { processFacts } from '../platform/process-facts';
import { randomHex8 } from '../platform/random';
import { attachClaudeAgent, type AgentFailure, type Attachment, type ClaudeAgentEvent } from './claude-attach';
import { cleanup, deleteSession, type CleanupResult } from './cleanup';
import { ProjectView, type ResumeDecision } from './project-view';
import type { ListedSession, ListQuery, SessionStore } from './store';
import type { ProjectStats, Stats } from '../core/views/stats';
import { AgentMismatchError, NotResumable, Unchanged } from './refusals';

// The use cases live by kind: here the sessions' own (create, update, decisions, resume, listing), the Claude Code
// attach in claude-attach.ts, cleanup in cleanup.ts; all on one ProjectView (project-view.ts).
export type { AgentFailure, AttachAction, Attachment, ClaudeAgentEvent } from './claude-attach';
export { CLAUDE_PURPOSE } from './claude-attach';
export type { CleanupResult } from './cleanup';
export type { ResumeDecision } from './project-view';
export { AgentMismatchError, OtherProjectError } from './refusals';

/**
 * What the service needs from outside: a store (whose clock, `store.now()`, dates and judges everything), and (for
 * tests) the randomness of generated ids and the origin of decisions.
 */
/** How a decision is scoped: another project's session allowed, and a check of the state it is made on. */
export interface DecideOptions {
  readonly allProjects?: boolean;
  /**
   * Called under the session's lock with the state the decision would be made on, before it is: throws (E_CHANGED)
   * when that is not what the person saw (the live page's fingerprint of what deciding allows), and nothing is written.
   */
  readonly unchanged?: (state: SessionState) => void;
}

export interface SessionsOptions {
  readonly store: SessionStore;
  /**
   * The project this service works for (core/project.ts; the app names it from the git remote, a configured name
   * or the folder): its new sessions belong to it, and every lookup that decides a resume or a relink sees only its
   * sessions. Default: DEFAULT_PROJECT.
   */
  readonly project?: string;
  /**
   * The host whose hooks this service answers (core/host.ts; default Claude Code): its new sessions name it, and the
   * lookups that decide a resume or a relink (an agent's newest session, the parked ones) see only its sessions.
   */
  readonly host?: Host;
  readonly limits?: Limits;
  /** History entries a session keeps (the newest); default 200. */
  readonly historyCap?: number;
  readonly randomHex?: () => string;
  /**
   * Where an approve/reject is recorded from; default: this process's own facts (its OS user, whether stdin is a
   * terminal, whether it runs in an AI agent's shell), gathered at each decision. Tests set it.
   */
  readonly decisionOrigin?: () => DecisionOrigin;
  /** Which sub-agents' permission requests become inbox items (`permission_inbox`; default `background`). */
  readonly permissionInbox?: PermissionInboxMode;
  /** How long an approved permission request stays usable, in hours (`permission_grant_ttl_hours`; default 24). */
  readonly permissionGrantTtlHours?: number;
  /**
   * Seals each decision and grant with this user's MAC (core/seal.ts; the app's file store: platform/decision-key.ts),
   * so the store, which judges every state it reads, counts them. Absent: recorded unsealed (PostgreSQL, whose
   * decisions are the team's; a store that judges nothing).
   */
  readonly sign?: (text: string) => string;
}

/** A listed session with its resume answer at listing time. */
export type ListEntry =
  | {
      readonly kind: 'valid';
      readonly id: string;
      readonly state: SessionState;
      readonly resumable: boolean;
      readonly reason: ResumeReason;
      /** `last_updated` is ahead of the clock beyond the skew bound. */
      readonly clockAhead: boolean;
    }
  | { readonly kind: 'corrupt'; readonly id: string; readonly error: string; readonly modifiedAt: Date };

/**
 * What a delegation's offer decided on the type's parked session (Sessions.offerDelegation): `resume` it, or leave it
 * `passed_over` (it holds a decision or a grant for another task), with the rule's reason and the state as written.
 */
export interface DelegationOffer {
  readonly kind: 'resume' | 'passed_over';
  readonly state: SessionState;
  readonly reason: TakeoverReason;
}

/**
 * The session operations, on one store. Both the CLI and the hooks call these, so a decision is made
 * in one place. Every method takes ids as given by a user and checks them before touching the disk. Every time a
 * use case stamps or judges is the store's (`store.now()`, read once per use case): a shared store's clock is its
 * server's, so machines whose clocks disagree agree on what is resumable.
 */
export class Sessions {
  readonly store: SessionStore;
  /** The project this service works for (see SessionsOptions.project). */
  readonly project: string;
  /** The host this service answers (see SessionsOptions.host). */
  readonly host: Host;
  readonly limits: Limits;
  readonly historyCap: number;
  /** See SessionsOptions.permissionInbox. */
  readonly permissionInbox: PermissionInboxMode;
  /** See SessionsOptions.permissionGrantTtlHours. */
  readonly permissionGrantTtlHours: number;
  readonly #decisionOrigin: () => DecisionOrigin;
  readonly #sign: ((text: string) => string) | undefined;
  /** The project's view of the store the use cases share (the write step, the project's verdicts). */
  readonly #view: ProjectView;

  constructor(options: SessionsOptions) {
    this.store = options.store;
    this.project = options.project ?? DEFAULT_PROJECT;
    this.host = options.host ?? DEFAULT_HOST;
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.historyCap = options.historyCap ?? DEFAULT_HISTORY_CAP;
    this.permissionInbox = options.permissionInbox ?? 'background';
    this.permissionGrantTtlHours = options.permissionGrantTtlHours ?? DEFAULT_PERMISSION_GRANT_TTL_HOURS;
    this.#decisionOrigin = options.decisionOrigin ?? (() => decisionOriginOf(processFacts()));
    this.#sign = options.sign;
    this.#view = new ProjectView({
      store: this.store,
      project: this.project,
      host: this.host,
      limits: this.limits,
      historyCap: this.historyCap,
      randomHex: options.randomHex ?? randomHex8,
    });
  }

  /**
   * Creates a session in `initializing`. Without an id one is generated.
   * @throws SessionError E_USAGE for a bad id or name, E_DUPLICATE when the id exists
   */
  async create(request: {
    agent_name: string;
    purpose: string;
    metadata?: Metadata;
    id?: string;
  }): Promise<SessionState> {
    // The library's callers are not type-checked at run time: the same rules as the CLI (input.ts), before any write.
    if (typeof request !== 'object' || request === null) {
      throw new SessionError('E_USAGE', `Expected the session to create to be an object, got ${show(request)}`);
    }
    const input = {
      agent_name: assertAgentName(request.agent_name),
      purpose: assertText(request.purpose, 'purpose'),
      project: this.project,
      ...(request.metadata === undefined ? {} : { metadata: assertMetadata(request.metadata) }),
      ...(request.id === undefined ? {} : { id: request.id }),
    };
    const now = await this.store.now();
    if (input.id !== undefined) {
      const state = withHost(newSession({ ...input, agent_id: assertValidId(input.id, 'id') }, now), this.host);
      await this.store.create(state);
      return state;
    }
    return this.#view.createUnderNewId(now, (agent_id) => withHost(newSession({ ...input, agent_id }, now), this.host));
  }

  /**
   * The id a user's words name: the id itself, or any part of one that no other id contains (the short form listings
   * show: its last 8 hex digits). Every CLI command that takes an id resolves it here first; the hooks and the library
   * take whole ids.
   * @throws SessionError E_USAGE for text that is no part of an id, or a part several ids contain (naming them);
   *   E_NOT_FOUND when no id contains it
   */
  async resolveId(text: string): Promise<string> {
    const part = assertValidId(text);
    return pickId(part, await this.store.idsContaining(part, ID_CANDIDATES + 1));
  }

  /** The state of a session. @throws SessionError E_NOT_FOUND, E_CORRUPT */
  async get(id: string): Promise<SessionState> {
    const state = await this.store.read(assertValidId(id));
    if (state === null) throw new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
    return state;
  }

  /** Applies a phase change, metadata merge and/or error under the session lock. */
  async update(id: string, change: SessionChange): Promise<SessionState> {
    assertChange(change);
    const valid = assertValidId(id);
    const now = await this.store.now();
    return this.#view.write(valid, now, (state, at) => applyChange(state, change, at));
  }

  /**
   * Ends a session. With `agentName`, only a session of that agent; with `ownProject`, only one of this project
   * (both checked under the lock).
   * @throws SessionError E_ILLEGAL_TRANSITION when it is already final; AgentMismatchError (E_USAGE) for another agent's;
   *   OtherProjectError (E_OTHER_PROJECT) for another project's
   */
  async finalize(
    id: string,
    outcome: FinalPhase,
    summary?: string,
    options: { agentName?: string; ownProject?: boolean } = {},
  ): Promise<SessionState> {
    if (!isFinalPhase(outcome)) {
      throw new SessionError(
        'E_USAGE',
        `Expected the outcome to be one of completed, failed, abandoned, got ${show(outcome)}`,
      );
    }
    if (summary !== undefined) assertText(summary, 'summary');
    const valid = assertValidId(id);
    const now = await this.store.now();
    return this.#view.write(valid, now, (state, at) => {
      if (options.ownProject === true) this.#view.assertOwn(state);
      if (options.agentName !== undefined && state.agent_name !== options.agentName) {
        throw new AgentMismatchError(id, state.agent_name, options.agentName);
      }
      return finalizeState(state, outcome, summary, at);
    });
  }

  /**
   * Approves a session parked in approval: the decision (who, when, note, where it came from: see core/origin.ts) and
   * the move to executing in one locked write (see core/decision.ts). Refused, before the store is read, from a
   * process detected inside an AI agent's shell.
   * A session of another project (or of none) is refused unless `allProjects`: the inbox a user decides from is this
   * project's. `id` may be any unique part of the id (see resolveId).
   * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_CHANGED
   *   (options.unchanged); E_NOT_FOUND, E_CORRUPT, E_BUSY, E_USAGE
   */
  async approve(id: string, input: ApproveInput = {}, options: DecideOptions = {}): Promise<SessionState> {
    const origin = this.#decisionOrigin();
    assertNotAgentShell(origin, 'approve');
    const valid = await this.resolveId(id);
    const now = await this.store.now();
    return this.#view.write(valid, now, (state, at) => {
      if (options.allProjects !== true) this.#view.assertOwn(state);
      options.unchanged?.(state);
      return approveState(state, { grantTtlHours: this.permissionGrantTtlHours, ...input }, origin, at, this.#sign);
    });
  }

  /**
   * Rejects a session parked in approval: the decision with its reason and the move back to planning (or the end,
   * abandoned) in one locked write. Refused from an AI agent's shell, and for another project's session unless
   * `allProjects`, as `approve`.
   * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_CHANGED;
   *   E_NOT_FOUND, E_CORRUPT, E_BUSY, E_USAGE
   */
  async reject(id: string, input: RejectInput, options: DecideOptions = {}): Promise<SessionState> {
    const origin = this.#decisionOrigin();
    assertNotAgentShell(origin, 'reject');
    const valid = await this.resolveId(id);
    const now = await this.store.now();
    return this.#view.write(valid, now, (state, at) => {
      if (options.allProjects !== true) this.#view.assertOwn(state);
      options.unchanged?.(state);
      return rejectState(state, input, origin, at, this.#sign);
    });
  }

  /**
   * A sub-agent's permission request nobody can answer (issue 33): the session linked to that Claude agent records it
   * and waits in approval (core/permission.ts `parkForPermission`), in one locked write. The same pending request
   * asked again writes nothing.
   * @returns the parked state, or null when no session of this project is linked to the agent, or its session cannot
   *   be parked (final, validating: the host's own flow then decides)
   * @throws SessionError E_BUSY, E_IO, E_CORRUPT
   */
  async parkPermission(ask: PermissionAsk): Promise<SessionState | null> {
    const linked = await this.findByClaudeAgent(ask.claudeAgentId);
    if (linked === null || linked.claude?.agent_id !== ask.claudeAgentId || !canPark(linked)) return null;
    const now = await this.store.now();
    try {
      return await this.#view.write(linked.agent_id, now, (state, at) => {
        if (state.claude?.agent_id !== ask.claudeAgentId || !canPark(state)) throw new NotResumable();
        const parked = parkForPermission(state, ask, at);
        if (parked === state) throw new Unchanged();
        return parked;
      });
    } catch (error) {
      if (error instanceof Unchanged) return this.get(linked.agent_id);
      if (error instanceof NotResumable) return null;
      throw error;
    }
  }

  /**
   * Spends the user's grant of exactly this call (issue 33) on the session linked to the asking Claude agent, under the
   * session's lock: at most one request is ever allowed per grant, however many race.
   * A grant it finds past its expiry is stored as expired in the same write, so a clock stepped back never revives it.
   * @returns the session with the grant spent, or null when no usable grant allows `ask` (none, spent, expired,
   *   another call, another project's or host's session)
   * @throws SessionError E_BUSY, E_IO, E_CORRUPT
   */
  async spendPermission(ask: PermissionAsk): Promise<SessionState | null> {
    const linked = await this.findByClaudeAgent(ask.claudeAgentId);
    if (linked === null || linked.claude?.agent_id !== ask.claudeAgentId) return null;
    const scope = { project: this.project, host: this.host };
    const now = await this.store.now();
    if (grantFor(linked, ask, scope, now) === null && expireLapsedGrants(linked, now) === linked) return null;
    let spent = false;
    try {
      const written = await this.#view.write(linked.agent_id, now, (state, at) => {
        const current = expireLapsedGrants(state, at);
        const index = state.claude?.agent_id === ask.claudeAgentId ? grantFor(current, ask, scope, at) : null;
        // Set on each run of the step (a store may run it again): what the written state is.
        spent = index !== null;
        if (index !== null) return spendGrant(current, index, ask.claudeAgentId, at);
        if (current === state) throw new NotResumable();
        return current;
      });
      return spent ? written : null;
    } catch (error) {
      if (error instanceof NotResumable) return null;
      throw error;
    }
  }

  /**
   * Records, under the session's lock, that a hook approved resuming it: a `resume` history entry that
   * keeps the phase (so the history chain holds), and the session marked active.
   * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, E_ILLEGAL_TRANSITION when it is final
   */
  async recordResume(id: string): Promise<SessionState> {
    const valid = assertValidId(id);
    const now = await this.store.now();
    return this.#view.write(valid, now, (state, at) => withResume(state, at));
  }

  /**
   * Decides whether to resume a session and, when the answer is yes, records the resume. A "yes" is decided
   * again under the session's lock and recorded in the same write, so the decision and the record see the same
   * state (no check-then-act gap); a "no" needs no lock. The decision's
   * `state` is the one it was made on (before the record), so callers report the previous activity time.
   * A session of another project is answered `other_project` (of none: `unassigned`) and left unchanged; with
   * `agentName`, a session of another agent is answered `agent_mismatch` and left unchanged.
   * Never throws for a missing or corrupt session.
   */
  async resume(id: string, options: { agentName?: string; newest?: boolean } = {}): Promise<ResumeDecision> {
    const valid = assertValidId(id);
    return this.#resumeAt(await this.store.now(), valid, options);
  }

  async #resumeAt(now: Date, id: string, options: { agentName?: string; newest?: boolean }): Promise<ResumeDecision> {
    const decideFor = (state: SessionState): ResumeDecision =>
      state.project !== this.project
        ? this.#view.decideAt(state, now)
        : options.agentName !== undefined && state.agent_name !== options.agentName
          ? { should_resume: false, reason: 'agent_mismatch', agent_id: state.agent_id }
          : options.newest === true
            ? this.#view.decideNewestAt(state, now)
            : this.#view.decideAt(state, now);
    // Most answers are "no": a plain read decides those without taking the lock.
    const plain = await this.#shouldResumeAt(now, id);
    const first = plain.state === undefined ? plain : decideFor(plain.state);
    if (!first.should_resume) return first;
    let decision: ResumeDecision | undefined;
    try {
      await this.#view.write(first.agent_id, now, (state, at) => {
        decision = decideFor(state);
        if (!decision.should_resume) throw new NotResumable();
        return withResume(state, at);
      });
    } catch (error) {
      if (error instanceof NotResumable && decision) return decision;
      // Removed or damaged since the first read: answer on what is there now.
      if (isSessionError(error, 'E_NOT_FOUND') || isSessionError(error, 'E_CORRUPT'))
        return this.#resumeAt(now, first.agent_id, options);
      // The record is bookkeeping: a store we cannot write now (read-only, full, locked by a long writer)
      // must not turn a resumable session into "no". The plain read's answer stands, unrecorded.
      if (isSessionError(error, 'E_IO') || isSessionError(error, 'E_BUSY'))
        return { ...first, unrecorded: error.message };
      throw error;
    }
    return decision!;
  }

  /**
   * Stores a session read from elsewhere (an export), as it is (less its Claude Code link) or under a new
   * generated id. Never overwrites. A session the machine could not have produced (see assertCoherent), or with a
   * timestamp ahead of this clock beyond the skew bound, is refused. It keeps the project it names; one that names none
   * (an older version's export) is given this service's. Its decisions are marked imported (core/decision.ts
   * importedState: by this OS user, now, from `from`, the file's path).
   * @throws SessionError E_DUPLICATE when the id exists (without `newId`), E_CORRUPT for an implausible session,
   *   E_AGENT_SHELL for a session holding decisions imported from a detected AI agent's shell
   */
  async importSession(exported: SessionState, options: { newId?: boolean; from?: string } = {}): Promise<SessionState> {
    assertCoherent(exported);
    const now = await this.store.now();
    assertNotAhead(exported, now, this.limits);
    // A Claude Code link names an agent of the exporting machine's Claude session; kept, two sessions could claim
    // one agent (its stop would land on the copy) or one could wait forever for an agent that never stops here.
    const { claude: _link, ...linkless } = exported;
    // A grant is made by `approve` on this store only (issue 33): one in an imported file is expired.
    const unlinked = withoutGrants(linkless);
    // Its decisions were recorded elsewhere: marked imported (refused from an agent's shell), never taken for ours.
    const marked =
      (unlinked.decisions ?? []).length === 0
        ? unlinked
        : importedState(unlinked, this.#decisionOrigin(), now, options.from ?? 'an import', 'import');
    const state = marked.project === undefined ? withProject(marked, this.project) : marked;
    if (!options.newId) {
      const imported = capHistory({ ...state, agent_id: assertValidId(state.agent_id) }, this.historyCap);
      try {
        await this.store.create(imported);
      } catch (error) {
        // The store words it for `create`; the user imported, and --new-id is the way out.
        if (!isSessionError(error, 'E_DUPLICATE')) throw error;
        throw new SessionError(
          'E_DUPLICATE',
          `Session \`${imported.agent_id}\` already exists; import never overwrites (--new-id stores it under a new id)`,
        );
      }
      return imported;
    }
    return this.#view.createUnderNewId(now, (agent_id) => capHistory({ ...state, agent_id }, this.historyCap));
  }

  /** Whether a session may be resumed, and why; never throws for a missing or corrupt session. */
  async shouldResume(id: string): Promise<ResumeDecision> {
    const agent_id = assertValidId(id);
    return this.#shouldResumeAt(await this.store.now(), agent_id);
  }

  async #shouldResumeAt(now: Date, agent_id: string): Promise<ResumeDecision> {
    let state: SessionState | null;
    try {
      state = await this.store.read(agent_id);
    } catch (error) {
      if (!isSessionError(error, 'E_CORRUPT')) throw error;
      return { should_resume: false, reason: 'invalid_state', agent_id, problem: error.message };
    }
    if (state === null) return { should_resume: false, reason: 'session_not_found', agent_id };
    return this.#view.decideAt(state, now);
  }

  /** The resume decision on a state already read (at the store's time). */
  async decide(state: SessionState): Promise<ResumeDecision> {
    return this.#view.decideAt(state, await this.store.now());
  }

  /**
   * The most recently active valid session of an agent, or null. A session whose `last_updated` is ahead of the
   * clock beyond the skew bound is skipped: it would otherwise hide the agent's real sessions for ever.
   */
  async newestOf(agentName: string): Promise<SessionState | null> {
    return this.#view.newestOfAt(await this.store.now(), agentName);
  }

  /**
   * This project's session linked to a Claude Code agent id (the most recently active one if several are), or null.
   */
  findByClaudeAgent(claudeAgentId: string): Promise<SessionState | null> {
    return this.store.findByClaudeAgent(this.project, claudeAgentId);
  }

  /**
   * Records on session `id` the choice between continuing its Claude agent with its context and priming a fresh one
   * (issue 34, core/continuation.ts), under the session lock, when the session is still this project's, linked to
   * that Claude agent and not final.
   * @returns the state written, or null when it changed meanwhile (nothing written)
   * @throws SessionError E_BUSY, E_IO, E_CORRUPT
   */
  async recordContinuation(id: string, facts: ContinuationChoiceFacts): Promise<SessionState | null> {
    const valid = assertValidId(id);
    try {
      return await this.#view.write(valid, await this.store.now(), (current, at) => {
        if (
          current.project !== this.project ||
          current.claude?.agent_id !== facts.claude_agent_id ||
          isFinalPhase(current.phase)
        )
          throw new Unchanged();
        return withContinuationChoice(current, facts, at);
      });
    } catch (error) {
      if (error instanceof Unchanged || isSessionError(error, 'E_NOT_FOUND')) return null;
      throw error;
    }
  }

  /**
   * Links a session to a Claude Code agent, or updates that link, under the session lock.
   * @throws SessionError E_NOT_FOUND, E_ILLEGAL_TRANSITION (final), E_CORRUPT, E_BUSY
   */
  async linkClaude(id: string, change: ClaudeLinkChange): Promise<SessionState> {
    const valid = assertValidId(id);
    return this.#view.linkClaudeAt(await this.store.now(), valid, change);
  }

  /**
   * Resumable by the rules, and not run by a Claude agent right now (never linked, or its agent stopped):
   * a delegation to its agent type may take it.
   */
  async isParked(state: SessionState): Promise<boolean> {
    return isParked(state, await this.store.now(), this.limits);
  }

  /**
   * Resumes the newest session of an agent when the one rule of core/parking.ts allows it (`session_running` when a
   * Claude agent runs it now), recorded under the session lock as `resume` does; null when the agent has none.
   */
  async resumeNewestOf(agentName: string): Promise<ResumeDecision | null> {
    const now = await this.store.now();
    const newest = await this.#view.newestOfAt(now, agentName);
    if (newest === null) return null;
    return this.#resumeAt(now, newest.agent_id, { agentName, newest: true });
  }

  /**
   * A delegation to `agentName` of `task` (its description and prompt start; null when the host gave none) offered the
   * type's parked session, decided by core/task.ts `takeover` and recorded under the session's lock: `resume`, the
   * delegation's task recorded on it (its start relinks it, service/claude-attach.ts), or `passed_over`: it holds a
   * decision or a grant for another task, so it keeps them and its task, and records the delegation that passed it
   * over (the delegated agent's start then takes a fresh session). Null when the type has no parked session.
   * @throws SessionError E_BUSY, E_IO, E_CORRUPT
   */
  async offerDelegation(agentName: string, task: DelegatedTask | null): Promise<DelegationOffer | null> {
    const now = await this.store.now();
    const newest = await this.#view.newestOfAt(now, agentName);
    if (newest === null) return null;
    const kept = await this.#keptBeside(newest, task, now);
    if (kept !== null) return kept;
    if (!isParked(newest, now, this.limits)) return null;
    const parked = newest;
    const read = takeover(parked, task, now);
    if (task === null) return { kind: 'resume', state: parked, reason: read };
    let reason = read;
    try {
      const state = await this.#view.write(parked.agent_id, now, (current, at) => {
        // Decided again under the lock: a decision or a spent grant may have landed since the read.
        reason = takeover(current, task, at);
        const next = mayTake(reason) ? withTask(current, task, at) : withPassedOver(current, task, at);
        if (next === current) throw new Unchanged();
        return next;
      });
      return { kind: mayTake(reason) ? 'resume' : 'passed_over', state, reason };
    } catch (error) {
      if (error instanceof Unchanged) return { kind: 'resume', state: parked, reason };
      // Removed since the read: the start finds what is there.
      if (isSessionError(error, 'E_NOT_FOUND')) return null;
      throw error;
    }
  }

  /**
   * Session `id`, or null when absent or damaged (a damaged one is no session to carry on, list or name beside another:
   * the commands that read one by id say why).
   * @throws SessionError E_BUSY, E_IO
   */
  async find(id: string): Promise<SessionState | null> {
    try {
      return await this.store.read(assertValidId(id));
    } catch (error) {
      if (isSessionError(error, 'E_CORRUPT')) return null;
      throw error;
    }
  }

  /**
   * The session the type's newest one was made beside (a delegation of another task passed it over), carried on by a
   * delegation of its own task: the task recorded and the session made the type's newest (its last activity now), so
   * the delegated agent's start relinks it. Null when there is none, or it no longer holds for this task.
   */
  async #keptBeside(newest: SessionState, task: DelegatedTask | null, now: Date): Promise<DelegationOffer | null> {
    const id = newest.task?.passed_over_id;
    if (id === undefined || task === null) return null;
    const kept = await this.find(id);
    const mine = (state: SessionState | null): state is SessionState =>
      state !== null &&
      state.project === this.project &&
      hostOf(state) === this.host &&
      state.agent_name === newest.agent_name &&
      isParked(state, now, this.limits) &&
      carriesOn(state, task, now);
    if (!mine(kept)) return null;
    try {
      const state = await this.#view.write(id, now, (current, at) => {
        if (!mine(current)) throw new NotResumable();
        return { ...withTask(current, task, at), last_updated: at.toISOString() };
      });
      return { kind: 'resume', state, reason: 'same_task' };
    } catch (error) {
      if (error instanceof NotResumable || isSessionError(error, 'E_NOT_FOUND')) return null;
      throw error;
    }
  }

  /** The session a new delegation to `agentName` would resume: its newest one when parked, else null. */
  async parkedOf(agentName: string): Promise<SessionState | null> {
    return this.#view.parkedOfAt(await this.store.now(), agentName);
  }

  /**
   * The newest session of every agent that is parked now (see `isParked`), most recently active first.
   * Through the store's `newestPerAgent` (the file store: one small read per agent name).
   */
  async parkedSessions(): Promise<SessionState[]> {
    const now = await this.store.now();
    // A session ahead of the clock must not hide its agent's real parked one (the same rule as newestOf).
    const notAfter = latestSane(now, this.limits);
    let newest = await this.store.newestPerAgent(this.project, notAfter);
    if (newest.some((state) => hostOf(state) !== this.host)) {
      // An agent name whose newest session is another host's may hide this host's parked one: one listing finds it.
      const own = await this.#view.newestOfHost(notAfter);
      newest = [...own.values()];
    }
    // A session passed over by a delegation of another task (core/task.ts) is no longer its agent's newest: the one
    // made beside it names it, and it is listed while it stays parked.
    const kept: SessionState[] = [];
    for (const state of newest) {
      const id = state.task?.passed_over_id;
      if (id === undefined || newest.some((other) => other.agent_id === id)) continue;
      const beside = await this.find(id);
      if (beside !== null && beside.project === this.project && hostOf(beside) === this.host) kept.push(beside);
    }
    return [...newest, ...kept]
      .filter((state) => isParked(state, now, this.limits))
      .sort((a, b) => Date.parse(b.last_updated) - Date.parse(a.last_updated));
  }

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
  attachClaudeAgent(event: ClaudeAgentEvent): Promise<Attachment | null> {
    return attachClaudeAgent(this.#view, event);
  }

  /**
   * A Claude Code sub-agent stopped: its session (found, relinked or created as `attachClaudeAgent` does, so a stop
   * that overtook the agent's start events ends in the same state) gets the stop policy (core `stopOutcome`): kept
   * when parked in a resumable phase, else completed, failed at the error limit, or abandoned while initializing.
   * @returns null when the agent is not attached and `agent_type` is absent (nothing to apply the policy to)
   * @throws SessionError E_BUSY when a lock stays taken, E_IO
   */
  claudeAgentStopped(
    event: Omit<ClaudeAgentEvent, 'stopped'> & { readonly last_message?: string },
  ): Promise<Attachment | null> {
    const { last_message, ...agent } = event;
    return this.attachClaudeAgent({ ...agent, stopped: last_message === undefined ? {} : { last_message } });
  }

  /**
   * A Claude Code sub-agent died of a host failure (Claude Code's StopFailure: an API error, a usage limit): its
   * session (found, relinked or created as `attachClaudeAgent` does, so a failure that overtook the agent's start
   * events ends in the same state) is stopped and records the interruption (core/interruption.ts): it stays open in
   * its phase and the next delegation to its agent type carries it on. A second report of the same failure writes
   * nothing; a later SubagentStop of that agent keeps it open (core `stopOutcome`). With `cut` (an agent cut off by
   * the main turn's interrupt, Claude Code's Interrupt), only while its link runs: a stop of its own that came first
   * wins (`interruption: 'stopped'`).
   * @returns null when the agent is not attached and `agent_type` is absent (nothing to record it on)
   * @throws SessionError E_BUSY when a lock stays taken, E_IO
   */
  claudeAgentFailed(event: Omit<ClaudeAgentEvent, 'stopped' | 'failed'> & AgentFailure): Promise<Attachment | null> {
    const { error, message, cut, ...agent } = event;
    return this.attachClaudeAgent({
      ...agent,
      failed: { error, ...(message === undefined ? {} : { message }), ...(cut === true ? { cut } : {}) },
    });
  }

  /**
   * Records that a session's agent was interrupted by a host failure (the seed protocol's `subagent-stop` with
   * `interrupted`): as a Claude Code StopFailure does, without a Claude agent. With `agentName`, only a session of
   * that agent; with `ownProject`, only one of this project (both checked under the lock). A session already waiting
   * after an interruption is left as it is.
   * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY; E_ILLEGAL_TRANSITION when it is final; AgentMismatchError
   *   (E_USAGE) for another agent's; OtherProjectError (E_OTHER_PROJECT) for another project's
   */
  async interrupt(
    id: string,
    facts: { readonly error: string; readonly message?: string },
    options: { agentName?: string; ownProject?: boolean } = {},
  ): Promise<SessionState> {
    const valid = assertValidId(id);
    const now = await this.store.now();
    try {
      return await this.#view.write(valid, now, (state, at) => {
        if (options.ownProject === true) this.#view.assertOwn(state);
        if (options.agentName !== undefined && state.agent_name !== options.agentName) {
          throw new AgentMismatchError(id, state.agent_name, options.agentName);
        }
        if (isInterrupted(state)) throw new Unchanged();
        return withInterruption(state, facts, at);
      });
    } catch (error) {
      if (!(error instanceof Unchanged)) throw error;
      return this.get(valid);
    }
  }

  /**
   * Sessions, most recently active first, corrupt ones last: this project's, or with `allProjects` every session of the
   * store (unassigned ones included). `activeOnly` keeps sessions not in a final phase and `agent` one agent's; corrupt
   * sessions are always returned (their phase, agent and project are unknown), so the caller decides whether to show
   * them or warn.
   */
  async list(filter: ListFilter = {}): Promise<ListEntry[]> {
    return (await this.listing(filter)).entries;
  }

  /**
   * As `list`, with how many sessions of no project (an older store's, unassigned) the store holds besides, when
   * `allProjects` is not asked (with it, they are listed): one listing of the store for both.
   */
  async listing(filter: ListFilter = {}): Promise<{ entries: ListEntry[]; unassigned: number }> {
    const now = await this.store.now();
    const query = queryOf(filter);
    // A filtered listing is the store's query (a page read, not the whole store); the count of sessions of no project
    // comes with the full listing only.
    const listed =
      query === undefined
        ? await this.store.list(filter.allProjects === true ? undefined : this.#view.scope(true))
        : await this.store.query(filter.allProjects === true ? undefined : this.#view.scope(false), query);
    return this.#entriesOf(listed, filter, now);
  }

  /**
   * The first page of a listing (at most `filter.limit` valid sessions, the most recently active; corrupt entries
   * besides) and how many valid sessions it keeps in all: a long inbox's first page and how many more, read as a page.
   */
  async page(filter: ListFilter): Promise<{ entries: ListEntry[]; total: number }> {
    const now = await this.store.now();
    const page = await this.store.page(
      filter.allProjects === true ? undefined : this.#view.scope(false),
      queryOf(filter) ?? {},
    );
    return { entries: this.#entriesOf(page.entries, filter, now).entries, total: page.total };
  }

  /**
   * The figures of `stats` (core/views/stats.ts): this project's sessions, or with `allProjects` every session of the
   * store, with each project's own; counted by the store (SessionStore.stats), never by reading every session.
   * @param now the time the figures are judged at
   */
  async stats(
    filter: { readonly agent?: string; readonly since?: Date; readonly allProjects?: boolean },
    now: Date,
  ): Promise<{ stats: Stats; projects: ProjectStats[]; corrupt: ListEntry[] }> {
    // Only sessions active since then (or interrupted) can be active or resumable now: the store reads those whole.
    const activeSince = new Date(
      now.getTime() - (this.limits.resumeTimeoutMinutes + this.limits.clockSkewMinutes) * 60_000,
    );
    const answer = await this.store.stats(filter.allProjects === true ? undefined : this.#view.scope(false), {
      activeSince,
      ...(filter.agent === undefined ? {} : { agent: filter.agent }),
      ...(filter.since === undefined ? {} : { since: filter.since }),
    });
    const options = { now, limits: this.limits, ...(filter.since === undefined ? {} : { since: filter.since }) };
    // Lazy: the stats view is the `stats` command's (and the report's) alone; every other call skips its load.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (above)
    const { statsOfTally } = require('../core/views/stats') as typeof import('../core/views/stats');
    const { stats, projects } = statsOfTally(answer.tally, answer.live, options);
    return { stats, projects, corrupt: this.#entriesOf(answer.corrupt, {}, now).entries };
  }

  /** Listed sessions as ListEntries, with their resume answer at `now`, kept by `filter`, newest first. */
  #entriesOf(
    listed: readonly ListedSession[],
    filter: ListFilter,
    now: Date,
  ): { entries: ListEntry[]; unassigned: number } {
    const entries: ListEntry[] = [];
    let unassigned = 0;
    for (const entry of listed) {
      if (entry.kind === 'corrupt') {
        entries.push(entry);
        continue;
      }
      const { state } = entry;
      if (filter.allProjects !== true && state.project === undefined) {
        unassigned++;
        continue;
      }
      if (filter.activeOnly && isFinalPhase(state.phase)) continue;
      if (filter.agent !== undefined && state.agent_name !== filter.agent) continue;
      if (filter.phases !== undefined && !filter.phases.includes(state.phase)) continue;
      // The rule `should-resume` answers by (ProjectView.decideAt): the column says what it would say.
      const { should_resume, reason } = this.#view.decideAt(state, now);
      const clockAhead = isAheadOfClock(state.last_updated, now, this.limits);
      entries.push({ ...entry, resumable: should_resume, reason, clockAhead });
    }
    entries.sort(byActivity);
    if (filter.limit === undefined) return { entries, unassigned };
    const valid = entries.filter((entry) => entry.kind === 'valid').slice(0, filter.limit);
    return { entries: [...valid, ...entries.filter((entry) => entry.kind === 'corrupt')], unassigned };
  }

  /**
   * Gives this project to sessions of another project or of none (an older store's, listed as unassigned): each id
   * named, or with `unassigned` every session of no project. A session already this project's is left as it is.
   * @returns the ids given this project, and those that already had it
   * @throws SessionError E_USAGE for a bad id or no id and no `unassigned`; E_NOT_FOUND for an id the store does not
   *   hold (nothing is changed then); E_CORRUPT, E_BUSY, E_IO
   */
  async adopt(request: { ids?: readonly string[]; unassigned?: boolean }): Promise<{
    adopted: string[];
    already: string[];
  }> {
    const ids = (request.ids ?? []).map((id) => assertValidId(id));
    if (ids.length === 0 && request.unassigned !== true)
      throw new SessionError('E_USAGE', 'Expected session ids to adopt, or `unassigned` (every session of no project)');
    // Every id is checked first: a typo among them changes nothing.
    for (const id of ids) await this.get(id);
    if (request.unassigned === true)
      for (const entry of await this.store.list(this.#view.scope(true)))
        if (entry.kind === 'valid' && entry.state.project === undefined && !ids.includes(entry.id)) ids.push(entry.id);
    const adopted: string[] = [];
    const already: string[] = [];
    for (const id of ids) {
      let changed = false;
      await this.store.update(id, (state) => {
        changed = state.project !== this.project;
        // Adopting is not activity: last_updated and the history stay as they were.
        return changed ? withProject(state, this.project) : state;
      });
      (changed ? adopted : already).push(id);
    }
    return { adopted, already };
  }

  /**
   * Removes sessions idle longer than `hours` (any phase), sessions whose `last_updated` is ahead of the clock beyond
   * the skew bound (their idle time is unknown: left alone they would never expire), corrupt sessions whose files are
   * older than `hours`, and leftovers of killed writers. Each removal re-checks the session under its lock, so a
   * session touched while cleanup runs is kept. Only what agent-session made is removed: other entries are reported
   * in `notOurs` and left alone.
   * This project's sessions, or with `allProjects` every session of the store (unassigned ones too); corrupt entries
   * and leftovers, whose project cannot be read, in either case. With `maxSessions`, this project's oldest finished
   * sessions above that many are removed too (`capped`; never one waiting for a decision or a person).
   * @throws SessionError E_USAGE for options that are not `{hours: a number ≥ 0, dryRun?: boolean}`; E_REFUSED when
   *   the store root is a symbolic link (with dryRun too: it says it would refuse)
   */
  cleanup(options: {
    hours: number;
    dryRun?: boolean;
    allProjects?: boolean;
    onProgress?: (done: number, total: number) => void;
    /** Claude Code's unattended retry is on: a running agent's session is not abandoned for being idle. */
    retryWatchdog?: boolean;
    maxSessions?: number | null;
  }): Promise<CleanupResult> {
    return cleanup(this.#view, options);
  }

  /**
   * Deletes a session.
   * @throws SessionError E_NOT_FOUND; E_REFUSED when the entry is not agent-session's or the store root is a link
   */
  delete(id: string): Promise<void> {
    return deleteSession(this.#view, id);
  }

  /** The store's clock: the time every use case stamps and judges by. */
  now(): Promise<Date> {
    return this.store.now();
  }

  /** Releases the store (a connection, for a network backend). Whoever opened the service closes it. */
  close(): Promise<void> {
    return this.store.close();
  }
}

// --- internal ---

/** What `list` keeps: active sessions only, one agent's, every project's. */
export interface ListFilter {
  readonly activeOnly?: boolean;
  readonly agent?: string;
  /** Only sessions in these phases (corrupt entries are still returned: their phase is unknown). */
  readonly phases?: readonly Phase[];
  /** At most this many valid sessions, the most recently active (corrupt entries besides). */
  readonly limit?: number;
  /** Every session of the store (other projects', unassigned ones) instead of this project's. */
  readonly allProjects?: boolean;
}

/** The store query of a filtered listing; undefined for the whole listing. */
function queryOf(filter: ListFilter): ListQuery | undefined {
  if (
    filter.activeOnly !== true &&
    filter.agent === undefined &&
    filter.phases === undefined &&
    filter.limit === undefined
  )
    return undefined;
  const active: readonly Phase[] | undefined =
    filter.activeOnly === true ? PHASES.filter((phase) => !isFinalPhase(phase)) : undefined;
  const phases =
    active !== undefined && filter.phases !== undefined
      ? filter.phases.filter((phase) => active.includes(phase))
      : (filter.phases ?? active);
  return {
    ...(phases === undefined ? {} : { phases }),
    ...(filter.agent === undefined ? {} : { agent: filter.agent }),
    ...(filter.limit === undefined ? {} : { limit: filter.limit }),
  };
}

/** An update's parts checked with the CLI's rules (a library caller may pass anything). */
function assertChange(change: SessionChange): void {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) {
    throw new SessionError('E_USAGE', `Expected the change to be an object, got ${show(change)}`);
  }
  if (change.phase !== undefined) parsePhase(change.phase);
  if (change.metadata !== undefined) assertMetadata(change.metadata);
  if (change.error !== undefined) assertText(change.error, 'error');
}

function activityOf(entry: ListEntry): number {
  return entry.kind === 'valid' ? Date.parse(entry.state.last_updated) : -Infinity;
}

function byActivity(a: ListEntry, b: ListEntry): number {
  const x = activityOf(a);
  const y = activityOf(b);
  if (x !== y) return x < y ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
