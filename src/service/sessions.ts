import { assertCoherent, assertNotAhead } from '../core/coherence';
import { SessionError, isSessionError, show } from '../core/errors';
import { capHistory, DEFAULT_HISTORY_CAP, stampAfter, withResume } from '../core/history';
import {
  changesLink,
  orphanedStartReason,
  stopOutcome,
  withClaudeLink,
  type ClaudeLinkChange,
  type StopOutcome,
} from '../core/claude-link';
import { approveState, rejectState, type ApproveInput, type RejectInput } from '../core/decision';
import { assertValidId, generateId } from '../core/ids';
import { DEFAULT_LIMITS, type Limits } from '../core/limits';
import { interruptionOf, isInterrupted, withInterruption } from '../core/interruption';
import { isFinalPhase, type FinalPhase, type WorkPhase } from '../core/phase-names';
import { isParked, newestVerdict } from '../core/parking';
import { DEFAULT_PROJECT, withProject } from '../core/project';
import { DEFAULT_HOST, hostOf, withHost, type Host } from '../core/host';
import { resumeVerdict } from '../core/phases';
import { allowsResume, isAheadOfClock, latestSane, type ResumeReason } from '../core/rules';
import { assertAgentName, assertHours, assertMetadata, assertText } from '../core/input';
import { assertNotAgentShell, decisionOriginOf, type DecisionOrigin } from '../core/origin';
import { applyChange, finalizeState, newSession, parsePhase, type SessionChange } from '../core/session';
import type { Metadata, SessionState } from '../core/state';
import { processFacts } from '../platform/process-facts';
import { randomHex8 } from '../platform/random';
import { inScope, type ListedSession, type ListScope, type RemovalOutcome, type SessionStore } from './store';

/**
 * What the service needs from outside: a store (whose clock, `store.now()`, dates and judges everything), and (for
 * tests) the randomness of generated ids and the origin of decisions.
 */
export interface SessionsOptions {
  readonly store: SessionStore;
  /**
   * The project this service works for (core/project.ts; the assembly names it from the git remote, a configured name
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
}

/** The resume decision for one session, with the state it was made on (one read: no TOCTOU). */
export interface ResumeDecision {
  readonly should_resume: boolean;
  readonly reason: ResumeReason;
  readonly agent_id: string;
  readonly state?: SessionState;
  /** Why the state is invalid, when reason is `invalid_state`. */
  readonly problem?: string;
  /** Why an approved resume could not be recorded (the store could not be written); the answer stands. */
  readonly unrecorded?: string;
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

export interface CleanupResult {
  /** Valid sessions removed (or that would be, with dryRun). */
  readonly removed: readonly string[];
  /** Corrupt sessions removed, judged by file time. */
  readonly corruptRemoved: readonly string[];
  /** Temp files and half-created folders of killed writers removed. */
  readonly leftovers: number;
  /**
   * Sessions finalized `abandoned` (or that would be, with dryRun): left `initializing` by an older version,
   * linked to a Claude agent that stopped or idle past the resume timeout (see `orphanedStartReason`).
   */
  readonly abandoned: readonly string[];
  /** Stale sessions that could not be removed this time (busy or unwritable); the others were. */
  readonly failed: readonly { readonly id: string; readonly error: string }[];
  /** Those of `removed` taken as stale because their `last_updated` is ahead of the clock beyond the skew bound. */
  readonly clockAhead: readonly string[];
  /** Entries agent-session did not make (no state.json, a link, unknown files): never removed, whatever their age. */
  readonly notOurs: readonly { readonly id: string; readonly reason: string }[];
}

/** One event of a Claude Code sub-agent, as `attachClaudeAgent` takes it. */
export interface ClaudeAgentEvent {
  /** Claude's agent id (`a` + 16 hex digits in 2.1.330). */
  readonly agent_id: string;
  /** Its agent type (the session's agent name); absent: only an agent already attached is found, none is made. */
  readonly agent_type?: string;
  readonly session_id?: string;
  /** Present for SubagentStop: the agent stopped, with (an excerpt of) its last message. */
  readonly stopped?: { readonly last_message?: string };
  /** Present for StopFailure: the agent died of a host failure (its kind and message, core/interruption.ts). */
  readonly failed?: { readonly error: string; readonly message?: string };
}

/**
 * What attaching did: `created` a session, `relinked` the type's parked session (a resume), found the one
 * already `linked` to this agent, or found it `superseded` (this agent stopped and a later one resumed its
 * session: nothing is changed for a late event of the earlier agent).
 */
export type AttachAction = 'created' | 'relinked' | 'linked' | 'superseded';

export interface Attachment {
  readonly state: SessionState;
  readonly action: AttachAction;
  /** For a stop: what the stop policy did, or `already_final` / `superseded` when there was nothing to do. */
  readonly stop?: StopOutcome | 'already_final' | 'superseded';
  /**
   * For a failure: `recorded` (the session waits for the next delegation), `already` (this agent's failure was
   * recorded before: nothing written), `already_final` or `superseded` (nothing to do).
   */
  readonly interruption?: 'recorded' | 'already' | 'already_final' | 'superseded';
}

/** The purpose of sessions made for Claude Code sub-agents. */
export const CLAUDE_PURPOSE = 'claude_code_subagent';

const LEFTOVER_AGE_MS = 60_000;

/** Aborts a locked write when the re-check under the lock says no (resume, cleanup's abandon): nothing is written. */
class NotResumable extends Error {}

/** Aborts a stop's write when, under the lock, the session is linked to another Claude agent: nothing is written. */
class SupersededStop extends Error {}

/**
 * A session named by id belongs to another project than the service's, or to none (E_OTHER_PROJECT): a decision on it
 * (approve, reject, a seed stop) is refused unless asked for across projects; nothing was changed.
 */
export class OtherProjectError extends SessionError {
  constructor(
    id: string,
    /** The session's project; undefined: none (unassigned). */
    readonly owner: string | undefined,
    project: string,
  ) {
    super(
      'E_OTHER_PROJECT',
      `Session \`${id}\` belongs to ${owner === undefined ? 'no project (unassigned: `adopt` gives it one)' : `project ${show(owner)}`}, not to this project ${show(project)}; --all-projects decides on it anyway`,
    );
  }
}

/** Aborts a write that would change nothing (a failure reported twice): nothing is written. */
class Unchanged extends Error {}

/** A session named by id belongs to another agent than the caller said (E_USAGE): nothing was changed. */
export class AgentMismatchError extends SessionError {
  constructor(id: string, owner: string, claimed: string) {
    super('E_USAGE', `Session \`${id}\` belongs to agent ${show(owner)}, not ${show(claimed)}`);
  }
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
  readonly #randomHex: () => string;
  readonly #decisionOrigin: () => DecisionOrigin;

  constructor(options: SessionsOptions) {
    this.store = options.store;
    this.project = options.project ?? DEFAULT_PROJECT;
    this.host = options.host ?? DEFAULT_HOST;
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.historyCap = options.historyCap ?? DEFAULT_HISTORY_CAP;
    this.#randomHex = options.randomHex ?? randomHex8;
    this.#decisionOrigin = options.decisionOrigin ?? (() => decisionOriginOf(processFacts()));
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
    return this.#createUnderNewId(now, (agent_id) => withHost(newSession({ ...input, agent_id }, now), this.host));
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
    return this.store.update(valid, (state) =>
      capHistory(applyChange(state, change, this.#stamp(state, now)), this.historyCap),
    );
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
    return this.store.update(valid, (state) => {
      if (options.ownProject === true) this.#assertOwn(state);
      if (options.agentName !== undefined && state.agent_name !== options.agentName) {
        throw new AgentMismatchError(id, state.agent_name, options.agentName);
      }
      return capHistory(finalizeState(state, outcome, summary, this.#stamp(state, now)), this.historyCap);
    });
  }

  /**
   * Approves a session parked in approval: the decision (who, when, note, where it came from: see core/origin.ts) and
   * the move to executing in one locked write (see core/decision.ts). Refused, before the store is read, from a
   * process detected inside an AI agent's shell.
   * A session of another project (or of none) is refused unless `allProjects`: the inbox a user decides from is this
   * project's.
   * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_NOT_FOUND,
   *   E_CORRUPT, E_BUSY, E_USAGE
   */
  async approve(id: string, input: ApproveInput = {}, options: { allProjects?: boolean } = {}): Promise<SessionState> {
    const valid = assertValidId(id);
    const origin = this.#decisionOrigin();
    assertNotAgentShell(origin, 'approve');
    const now = await this.store.now();
    return this.store.update(valid, (state) => {
      if (options.allProjects !== true) this.#assertOwn(state);
      return capHistory(approveState(state, input, origin, this.#stamp(state, now)), this.historyCap);
    });
  }

  /**
   * Rejects a session parked in approval: the decision with its reason and the move back to planning (or the end,
   * abandoned) in one locked write. Refused from an AI agent's shell, and for another project's session unless
   * `allProjects`, as `approve`.
   * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_NOT_FOUND,
   *   E_CORRUPT, E_BUSY, E_USAGE
   */
  async reject(id: string, input: RejectInput, options: { allProjects?: boolean } = {}): Promise<SessionState> {
    const valid = assertValidId(id);
    const origin = this.#decisionOrigin();
    assertNotAgentShell(origin, 'reject');
    const now = await this.store.now();
    return this.store.update(valid, (state) => {
      if (options.allProjects !== true) this.#assertOwn(state);
      return capHistory(rejectState(state, input, origin, this.#stamp(state, now)), this.historyCap);
    });
  }

  /**
   * Records, under the session's lock, that a hook approved resuming it: a `resume` history entry that
   * keeps the phase (so the history chain holds), and the session marked active.
   * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, E_ILLEGAL_TRANSITION when it is final
   */
  async recordResume(id: string): Promise<SessionState> {
    const valid = assertValidId(id);
    const now = await this.store.now();
    return this.store.update(valid, (state) => capHistory(withResume(state, this.#stamp(state, now)), this.historyCap));
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
        ? this.#decideAt(state, now)
        : options.agentName !== undefined && state.agent_name !== options.agentName
          ? { should_resume: false, reason: 'agent_mismatch', agent_id: state.agent_id }
          : options.newest === true
            ? this.#decideNewestAt(state, now)
            : this.#decideAt(state, now);
    // Most answers are "no": a plain read decides those without taking the lock.
    const plain = await this.#shouldResumeAt(now, id);
    const first = plain.state === undefined ? plain : decideFor(plain.state);
    if (!first.should_resume) return first;
    let decision: ResumeDecision | undefined;
    try {
      await this.store.update(first.agent_id, (state) => {
        decision = decideFor(state);
        if (!decision.should_resume) throw new NotResumable();
        return capHistory(withResume(state, this.#stamp(state, now)), this.historyCap);
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
   * (an older version's export) is given this service's.
   * @throws SessionError E_DUPLICATE when the id exists (without `newId`), E_CORRUPT for an implausible session
   */
  async importSession(exported: SessionState, options: { newId?: boolean } = {}): Promise<SessionState> {
    assertCoherent(exported);
    const now = await this.store.now();
    assertNotAhead(exported, now, this.limits);
    // A Claude Code link names an agent of the exporting machine's Claude session; kept, two sessions could claim
    // one agent (its stop would land on the copy) or one could wait forever for an agent that never stops here.
    const { claude: _link, ...unlinked } = exported;
    const state = unlinked.project === undefined ? withProject(unlinked, this.project) : unlinked;
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
    return this.#createUnderNewId(now, (agent_id) => capHistory({ ...state, agent_id }, this.historyCap));
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
    return this.#decideAt(state, now);
  }

  /** The resume decision on a state already read (at the store's time). */
  async decide(state: SessionState): Promise<ResumeDecision> {
    return this.#decideAt(state, await this.store.now());
  }

  /**
   * The verdict on a state: another project's session (or one of none) is never resumed here (`other_project`,
   * `unassigned`), then the resume rules.
   */
  #decideAt(state: SessionState, now: Date): ResumeDecision {
    const reason = this.#projectBlocker(state) ?? resumeVerdict(state, now, this.limits);
    return { should_resume: allowsResume(reason), reason, agent_id: state.agent_id, state };
  }

  /** Why a session is not this project's to resume (`other_project`, `unassigned`), or null when it is. */
  #projectBlocker(state: SessionState): 'other_project' | 'unassigned' | null {
    if (state.project === this.project) return null;
    return state.project === undefined ? 'unassigned' : 'other_project';
  }

  /** @throws OtherProjectError when `state` is not this project's */
  #assertOwn(state: SessionState): void {
    if (state.project !== this.project) throw new OtherProjectError(state.agent_id, state.project, this.project);
  }

  /** As `decide`, by the rule for an agent's newest session (core/parking.ts `newestVerdict`). */
  #decideNewestAt(state: SessionState, now: Date): ResumeDecision {
    const reason = newestVerdict(state, now, this.limits);
    return { should_resume: allowsResume(reason), reason, agent_id: state.agent_id, state };
  }

  /**
   * The most recently active valid session of an agent, or null. A session whose `last_updated` is ahead of the
   * clock beyond the skew bound is skipped: it would otherwise hide the agent's real sessions for ever.
   */
  async newestOf(agentName: string): Promise<SessionState | null> {
    return this.#newestOfAt(await this.store.now(), agentName);
  }

  /**
   * This host's newest session of an agent. The store answers the newest of the agent name whatever the host (the file
   * store from its one pointer per name); when that one is another host's (a project delegating from two hosts under
   * one agent name), this host's newest is found by one listing of the project: rare, and only then.
   */
  async #newestOfAt(now: Date, agentName: string): Promise<SessionState | null> {
    const notAfter = latestSane(now, this.limits);
    const newest = await this.store.newestOf(this.project, agentName, notAfter);
    if (newest === null || hostOf(newest) === this.host) return newest;
    return (await this.#newestOfHost(notAfter)).get(agentName) ?? null;
  }

  /** This host's newest session of each agent name in this project, by one listing (see #newestOfAt). */
  async #newestOfHost(notAfter: number): Promise<Map<string, SessionState>> {
    const newest = new Map<string, SessionState>();
    for (const entry of await this.store.list({ project: this.project })) {
      if (entry.kind !== 'valid') continue;
      const state = entry.state;
      if (state.project !== this.project || hostOf(state) !== this.host) continue;
      if (Date.parse(state.last_updated) > notAfter) continue;
      const known = newest.get(state.agent_name);
      if (known === undefined || newerThan(state, known)) newest.set(state.agent_name, state);
    }
    return newest;
  }

  /**
   * This project's session linked to a Claude Code agent id (the most recently active one if several are), or null.
   */
  findByClaudeAgent(claudeAgentId: string): Promise<SessionState | null> {
    return this.store.findByClaudeAgent(this.project, claudeAgentId);
  }

  /**
   * Links a session to a Claude Code agent, or updates that link, under the session lock.
   * @throws SessionError E_NOT_FOUND, E_ILLEGAL_TRANSITION (final), E_CORRUPT, E_BUSY
   */
  async linkClaude(id: string, change: ClaudeLinkChange): Promise<SessionState> {
    const valid = assertValidId(id);
    return this.#linkClaudeAt(await this.store.now(), valid, change);
  }

  #linkClaudeAt(now: Date, id: string, change: ClaudeLinkChange): Promise<SessionState> {
    return this.store.update(id, (state) => withClaudeLink(state, change, this.#stamp(state, now)));
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
    const newest = await this.#newestOfAt(now, agentName);
    if (newest === null) return null;
    return this.#resumeAt(now, newest.agent_id, { agentName, newest: true });
  }

  /** The session a new delegation to `agentName` would resume: its newest one when parked, else null. */
  async parkedOf(agentName: string): Promise<SessionState | null> {
    return this.#parkedOfAt(await this.store.now(), agentName);
  }

  async #parkedOfAt(now: Date, agentName: string): Promise<SessionState | null> {
    const newest = await this.#newestOfAt(now, agentName);
    return newest !== null && isParked(newest, now, this.limits) ? newest : null;
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
      const own = await this.#newestOfHost(notAfter);
      newest = [...own.values()];
    }
    return newest
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
  async attachClaudeAgent(event: ClaudeAgentEvent): Promise<Attachment | null> {
    if (event.agent_type !== undefined) assertAgentName(event.agent_type, 'agent_type');
    const work = async (): Promise<Attachment | null> => {
      // Read under the locks: the time of this step, after the attaches it waited for.
      const now = await this.store.now();
      const found = await this.store.attachedTo(this.project, event.agent_id);
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
      if (found !== null) {
        const state =
          isFinalPhase(found.phase) || !changesLink(found, facts)
            ? found
            : await this.#linkClaudeAt(now, found.agent_id, facts);
        attachment = { state, action: 'linked' };
      } else if (event.agent_type === undefined) {
        return null;
      } else {
        const relinked = await this.#relinkParked(now, event.agent_type, facts);
        attachment = relinked ?? { state: await this.#createLinked(now, event.agent_type, facts), action: 'created' };
      }
      if (event.failed) return this.#failed(now, attachment, event.agent_id, event.failed);
      return event.stopped
        ? await this.#stopped(now, attachment, event.agent_id, event.stopped.last_message)
        : attachment;
    };
    return this.store.lockClaudeAgent(event.agent_id, event.agent_type ?? '', work);
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
   * nothing; a later SubagentStop of that agent keeps it open (core `stopOutcome`).
   * @returns null when the agent is not attached and `agent_type` is absent (nothing to record it on)
   * @throws SessionError E_BUSY when a lock stays taken, E_IO
   */
  claudeAgentFailed(
    event: Omit<ClaudeAgentEvent, 'stopped' | 'failed'> & { readonly error: string; readonly message?: string },
  ): Promise<Attachment | null> {
    const { error, message, ...agent } = event;
    return this.attachClaudeAgent({ ...agent, failed: { error, ...(message === undefined ? {} : { message }) } });
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
      return await this.store.update(valid, (state) => {
        if (options.ownProject === true) this.#assertOwn(state);
        if (options.agentName !== undefined && state.agent_name !== options.agentName) {
          throw new AgentMismatchError(id, state.agent_name, options.agentName);
        }
        if (isInterrupted(state)) throw new Unchanged();
        return capHistory(withInterruption(state, facts, this.#stamp(state, now)), this.historyCap);
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
    const entries: ListEntry[] = [];
    let unassigned = 0;
    const listed = await this.store.list(filter.allProjects === true ? undefined : this.#scope(true));
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
      const reason = this.#projectBlocker(state) ?? resumeVerdict(state, now, this.limits);
      const clockAhead = isAheadOfClock(state.last_updated, now, this.limits);
      entries.push({ ...entry, resumable: allowsResume(reason), reason, clockAhead });
    }
    return { entries: entries.sort(byActivity), unassigned };
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
      for (const entry of await this.store.list(this.#scope(true)))
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

  /** The listing scope of this project (and of none, with `unassigned`). */
  #scope(unassigned: boolean): ListScope {
    return { project: this.project, ...(unassigned ? { unassigned: true } : {}) };
  }

  /**
   * Removes sessions idle longer than `hours` (any phase), sessions whose `last_updated` is ahead of the clock beyond
   * the skew bound (their idle time is unknown: left alone they would never expire), corrupt sessions whose files are
   * older than `hours`, and leftovers of killed writers. Each removal re-checks the session under its lock, so a
   * session touched while cleanup runs is kept. Only what agent-session made is removed: other entries are reported
   * in `notOurs` and left alone.
   * This project's sessions, or with `allProjects` every session of the store (unassigned ones too); corrupt entries
   * and leftovers, whose project cannot be read, in either case.
   * @throws SessionError E_USAGE for options that are not `{hours: a number ≥ 0, dryRun?: boolean}`; E_REFUSED when
   *   the store root is a symbolic link (with dryRun too: it says it would refuse)
   */
  async cleanup(options: { hours: number; dryRun?: boolean; allProjects?: boolean }): Promise<CleanupResult> {
    // Library callers are not type-checked: the CLI's rule for hours, and a clear word for anything else.
    if (typeof options !== 'object' || options === null) {
      const got = show(options ?? null);
      throw new SessionError(
        'E_USAGE',
        `Expected the options of \`cleanup\` to be an object {hours, dryRun?}, got ${got}`,
      );
    }
    assertHours(options.hours, 'hours');
    if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') {
      throw new SessionError('E_USAGE', `Expected \`dryRun\` to be true or false, got ${show(options.dryRun)}`);
    }
    await this.store.assertRemovable();
    const now = await this.store.now();
    const cutoff = now.getTime() - options.hours * 3_600_000;
    const isStale = (state: SessionState | null, modifiedAt: Date): boolean => {
      if (state === null) return modifiedAt.getTime() < cutoff;
      return Date.parse(state.last_updated) < cutoff || isAheadOfClock(state.last_updated, now, this.limits);
    };
    const clockAhead: string[] = [];
    const removed: string[] = [];
    const corruptRemoved: string[] = [];
    const abandoned: string[] = [];
    const failed: { id: string; error: string }[] = [];
    const notOurs: { id: string; reason: string }[] = [];
    const staleEntries: ListedSession[] = [];
    // The whole store is listed (the file store's sweep completes its indexes from the listing), then judged in scope.
    const listed = await this.store.list();
    const scope = options.allProjects === true ? undefined : this.#scope(false);
    for (const entry of listed) {
      if (!inScope(entry, scope)) continue;
      if (entry.kind === 'corrupt' && entry.notOurs !== undefined) {
        notOurs.push({ id: entry.id, reason: entry.notOurs });
        continue;
      }
      const stale = entry.kind === 'valid' ? isStale(entry.state, now) : isStale(null, entry.modifiedAt);
      if (!stale && entry.kind === 'valid' && orphanedStartReason(entry.state, now, this.limits) !== null) {
        try {
          if (options.dryRun || (await this.#abandonOrphan(now, entry.id))) abandoned.push(entry.id);
        } catch (error) {
          if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
          failed.push({ id: entry.id, error: error.message });
        }
        continue;
      }
      if (stale) staleEntries.push(entry);
    }
    // Each is judged again by the store as it is when removed (a session touched meanwhile is kept), all in one call.
    const outcomes: RemovalOutcome[] = options.dryRun
      ? await Promise.all(
          staleEntries.map(async ({ id }) => {
            const foreign = await this.store.notOurs(id);
            return foreign === null ? { id, removed: true } : { id, error: new SessionError('E_REFUSED', foreign) };
          }),
        )
      : await this.store.removeMany(
          staleEntries.map((entry) => entry.id),
          isStale,
        );
    for (const [i, outcome] of outcomes.entries()) {
      const entry = staleEntries[i]!;
      if ('error' in outcome) {
        const { error } = outcome;
        if (isSessionError(error, 'E_REFUSED')) {
          notOurs.push({ id: entry.id, reason: (await this.store.notOurs(entry.id)) ?? error.message });
          continue;
        }
        // One session that cannot be removed now (locked, unwritable) must not stop the hourly run for the rest.
        if (!isSessionError(error, 'E_BUSY') && !isSessionError(error, 'E_IO')) throw error;
        failed.push({ id: entry.id, error: error.message });
        continue;
      }
      if (!outcome.removed) continue;
      (entry.kind === 'valid' ? removed : corruptRemoved).push(entry.id);
      if (entry.kind === 'valid' && isAheadOfClock(entry.state.last_updated, now, this.limits))
        clockAhead.push(entry.id);
    }
    const leftovers = options.dryRun ? 0 : await this.store.sweep(LEFTOVER_AGE_MS, now, listed);
    // Named like our leftovers but holding something else: the sweep left them, and the user should know why.
    notOurs.push(...(await this.store.foreignEntries()));
    return { removed, corruptRemoved, leftovers, abandoned, failed, clockAhead, notOurs };
  }

  /**
   * Deletes a session.
   * @throws SessionError E_NOT_FOUND; E_REFUSED when the entry is not agent-session's or the store root is a link
   */
  async delete(id: string): Promise<void> {
    await this.store.assertRemovable();
    if (!(await this.store.remove(assertValidId(id))))
      throw new SessionError('E_NOT_FOUND', `Session \`${id}\` not found`);
  }

  /** The store's clock: the time every use case stamps and judges by. */
  now(): Promise<Date> {
    return this.store.now();
  }

  /** Releases the store (a connection, for a network backend). Whoever opened the service closes it. */
  close(): Promise<void> {
    return this.store.close();
  }

  /** The time a write under the lock stamps: `now` (read before the lock), never before what a writer ahead stamped. */
  #stamp(state: SessionState, now: Date): Date {
    return stampAfter(state, now, this.limits.clockSkewMinutes * 60_000);
  }

  // --- internal ---

  /** Finalizes a session left initializing, when it still is one under its lock; false when it changed or went. */
  async #abandonOrphan(now: Date, id: string): Promise<boolean> {
    try {
      await this.store.update(id, (state) => {
        const reason = orphanedStartReason(state, now, this.limits);
        if (reason === null) throw new NotResumable();
        return capHistory(finalizeState(state, 'abandoned', reason, this.#stamp(state, now)), this.historyCap);
      });
      return true;
    } catch (error) {
      if (error instanceof NotResumable || isSessionError(error, 'E_NOT_FOUND') || isSessionError(error, 'E_CORRUPT'))
        return false;
      throw error;
    }
  }

  /** The type's parked session relinked to this agent (a resume), or null when there is none to take. */
  async #relinkParked(now: Date, agentType: string, facts: ClaudeLinkChange): Promise<Attachment | null> {
    const parked = await this.#parkedOfAt(now, agentType);
    if (parked === null) return null;
    try {
      const state = await this.store.update(parked.agent_id, (current) => {
        // Checked again under the session lock: a CLI update may have changed it since it was read.
        if (
          current.project !== this.project ||
          hostOf(current) !== this.host ||
          !isParked(current, now, this.limits) ||
          isFinalPhase(current.phase)
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
        const at = this.#stamp(current, now);
        return capHistory(withResume(withClaudeLink(current, { ...facts, resumed_from }, at), at), this.historyCap);
      });
      return { state, action: 'relinked' };
    } catch (error) {
      // Finalized, changed or removed meanwhile by someone outside the hooks: a new session instead.
      if (isSessionError(error, 'E_ILLEGAL_TRANSITION') || isSessionError(error, 'E_NOT_FOUND')) return null;
      if (isSessionError(error, 'E_CORRUPT')) return null;
      throw error;
    }
  }

  #createLinked(now: Date, agentType: string, facts: ClaudeLinkChange): Promise<SessionState> {
    const build = (agent_id: string): SessionState =>
      withHost(
        newSession({ agent_id, agent_name: agentType, purpose: CLAUDE_PURPOSE, project: this.project }, now),
        this.host,
      );
    return this.#createUnderNewId(now, (agent_id) => withClaudeLink(build(agent_id), facts, now));
  }

  /** Stops an attached session's link and records the interruption, in one write (nothing when already recorded). */
  async #failed(
    now: Date,
    attachment: Attachment,
    claudeAgentId: string,
    failure: { readonly error: string; readonly message?: string },
  ): Promise<Attachment> {
    if (isFinalPhase(attachment.state.phase)) return { ...attachment, interruption: 'already_final' };
    if (alreadyInterruptedBy(attachment.state, claudeAgentId)) return { ...attachment, interruption: 'already' };
    try {
      const state = await this.store.update(attachment.state.agent_id, (current) => {
        if (current.claude?.agent_id !== claudeAgentId) throw new SupersededStop();
        if (alreadyInterruptedBy(current, claudeAgentId)) throw new Unchanged();
        const at = this.#stamp(current, now);
        const stopped = withClaudeLink(current, { stopped: true }, at);
        const facts = { ...failure, agent_id: claudeAgentId };
        return capHistory(withInterruption(stopped, facts, at), this.historyCap);
      });
      return { state, action: attachment.action, interruption: 'recorded' };
    } catch (error) {
      if (error instanceof SupersededStop)
        return { state: attachment.state, action: 'superseded', interruption: 'superseded' };
      if (error instanceof Unchanged) return { ...attachment, interruption: 'already' };
      // Finalized or removed by the CLI since it was read: nothing left to record it on.
      if (!isSessionError(error, 'E_ILLEGAL_TRANSITION') && !isSessionError(error, 'E_NOT_FOUND')) throw error;
      return { ...attachment, interruption: 'already_final' };
    }
  }

  /** Applies the stop policy to an attached session, in one write. */
  async #stopped(
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
      state = await this.#stopWrite(now, attachment.state.agent_id, change, claudeAgentId, lastMessage);
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

  #stopWrite(
    now: Date,
    id: string,
    change: ClaudeLinkChange,
    claudeAgentId: string,
    lastMessage: string | undefined,
  ): Promise<SessionState> {
    return this.store.update(id, (current) => {
      if (current.claude?.agent_id !== claudeAgentId) throw new SupersededStop();
      // Decided again on the state under the lock: the agent's last CLI update may have landed since the read.
      const at = this.#stamp(current, now);
      const linked = withClaudeLink(current, change, at);
      const decided = stopOutcome(current, this.limits.maxErrors);
      if (decided === 'kept') return linked;
      const summary =
        decided === 'abandoned'
          ? `Claude Code agent ${claudeAgentId} stopped while the session was still initializing (no phase recorded)` +
            (lastMessage === undefined ? '' : `: ${lastMessage}`)
          : (lastMessage ?? `Claude Code agent ${claudeAgentId} stopped`);
      return capHistory(finalizeState(linked, decided, summary, at), this.historyCap);
    });
  }

  /** Stores the state `build` makes under a freshly generated id. */
  async #createUnderNewId(now: Date, build: (agent_id: string) => SessionState): Promise<SessionState> {
    // 32 random bits per second make a clash unlikely; a clash is retried with new bits, never overwritten.
    for (let attempt = 0; ; attempt++) {
      const state = build(generateId(now, this.#randomHex()));
      try {
        await this.store.create(state);
        return state;
      } catch (error) {
        if (!isSessionError(error, 'E_DUPLICATE') || attempt >= 4) throw error;
      }
    }
  }
}

// --- internal ---

/** What `list` keeps: active sessions only, one agent's, every project's. */
export interface ListFilter {
  readonly activeOnly?: boolean;
  readonly agent?: string;
  /** Every session of the store (other projects', unassigned ones) instead of this project's. */
  readonly allProjects?: boolean;
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

/** The session waits after an interruption of this very agent, whose link is stopped: a repeated report of it. */
function alreadyInterruptedBy(state: SessionState, claudeAgentId: string): boolean {
  return (
    isInterrupted(state) &&
    state.interruption?.agent_id === claudeAgentId &&
    state.claude?.agent_id === claudeAgentId &&
    state.claude.stopped_at !== undefined
  );
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

/** Later `last_updated`, then later `created_at`: the store's order for an agent's newest session. */
function newerThan(a: SessionState, b: SessionState): boolean {
  const byActivity = Date.parse(a.last_updated) - Date.parse(b.last_updated);
  return byActivity !== 0 ? byActivity > 0 : Date.parse(a.created_at) > Date.parse(b.created_at);
}
