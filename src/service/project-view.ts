import { isSessionError } from '../core/errors';
import { capHistory, stampAfter } from '../core/history';
import { keepNewer } from '../core/activity';
import { withClaudeLink, type ClaudeLinkChange } from '../core/claude-link';
import { generateId } from '../core/ids';
import type { Limits } from '../core/limits';
import { isParked, newestVerdict } from '../core/parking';
import { hostOf, type Host } from '../core/host';
import { resumeVerdict } from '../core/phases';
import { allowsResume, latestSane, type ResumeReason } from '../core/rules';
import type { SessionState } from '../core/state';
import { OtherProjectError } from './refusals';
import type { ListScope, SessionStore } from './store';

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

/**
 * One project's view of a store, shared by every use case of the service (sessions.ts, claude-attach.ts, cleanup.ts):
 * the one write step, and the verdicts that depend on the project (another project's session is never resumed here).
 */
export class ProjectView {
  readonly store: SessionStore;
  /** The project the service works for. */
  readonly project: string;
  /** The host whose hooks the service answers: the resume lookups see only its sessions. */
  readonly host: Host;
  readonly limits: Limits;
  readonly historyCap: number;
  readonly #randomHex: () => string;

  constructor(options: {
    readonly store: SessionStore;
    readonly project: string;
    readonly host: Host;
    readonly limits: Limits;
    readonly historyCap: number;
    readonly randomHex: () => string;
  }) {
    this.store = options.store;
    this.project = options.project;
    this.host = options.host;
    this.limits = options.limits;
    this.historyCap = options.historyCap;
    this.#randomHex = options.randomHex;
  }

  /**
   * The one write step: under the session's lock, `step` gets the stored state and its time (`now`, never before the
   * state's own last write), and what it returns is written with the history capped. What `step` throws is thrown,
   * nothing written.
   */
  write(id: string, now: Date, step: (state: SessionState, at: Date) => SessionState): Promise<SessionState> {
    return this.store.update(id, (state) => capHistory(step(state, this.stamp(state, now)), this.historyCap));
  }

  /** The time a write under the lock stamps: `now` (read before the lock), never before what a writer ahead stamped. */
  stamp(state: SessionState, now: Date): Date {
    return stampAfter(state, now, this.limits.clockSkewMinutes * 60_000);
  }

  /**
   * The verdict on a state: another project's session (or one of none) is never resumed here (`other_project`,
   * `unassigned`), then the resume rules.
   */
  decideAt(state: SessionState, now: Date): ResumeDecision {
    const reason = this.projectBlocker(state) ?? resumeVerdict(state, now, this.limits);
    return { should_resume: allowsResume(reason), reason, agent_id: state.agent_id, state };
  }

  /** Why a session is not this project's to resume (`other_project`, `unassigned`), or null when it is. */
  projectBlocker(state: SessionState): 'other_project' | 'unassigned' | null {
    if (state.project === this.project) return null;
    return state.project === undefined ? 'unassigned' : 'other_project';
  }

  /** @throws OtherProjectError when `state` is not this project's */
  assertOwn(state: SessionState): void {
    if (state.project !== this.project) throw new OtherProjectError(state.agent_id, state.project, this.project);
  }

  /** As `decide`, by the rule for an agent's newest session (core/parking.ts `newestVerdict`). */
  decideNewestAt(state: SessionState, now: Date): ResumeDecision {
    const reason = newestVerdict(state, now, this.limits);
    return { should_resume: allowsResume(reason), reason, agent_id: state.agent_id, state };
  }

  /**
   * This host's newest session of an agent. The store answers the newest of the agent name whatever the host (the file
   * store from its one pointer per name); when that one is another host's (a project delegating from two hosts under
   * one agent name), this host's newest is found by one listing of the project: rare, and only then.
   */
  async newestOfAt(now: Date, agentName: string): Promise<SessionState | null> {
    const notAfter = latestSane(now, this.limits);
    const newest = await this.store.newestOf(this.project, agentName, notAfter);
    if (newest === null || hostOf(newest) === this.host) return newest;
    return (await this.newestOfHost(notAfter)).get(agentName) ?? null;
  }

  /** This host's newest session of each agent name in this project, by one listing (see newestOfAt). */
  async newestOfHost(notAfter: number): Promise<Map<string, SessionState>> {
    const newest = new Map<string, SessionState>();
    for (const entry of await this.store.list({ project: this.project })) {
      if (entry.kind !== 'valid') continue;
      const state = entry.state;
      if (state.project !== this.project || hostOf(state) !== this.host) continue;
      if (Date.parse(state.last_updated) > notAfter) continue;
      keepNewer(newest, state.agent_name, state);
    }
    return newest;
  }

  linkClaudeAt(now: Date, id: string, change: ClaudeLinkChange): Promise<SessionState> {
    return this.write(id, now, (state, at) => withClaudeLink(state, change, at));
  }

  async parkedOfAt(now: Date, agentName: string): Promise<SessionState | null> {
    const newest = await this.newestOfAt(now, agentName);
    return newest !== null && isParked(newest, now, this.limits) ? newest : null;
  }

  /** The listing scope of this project (and of none, with `unassigned`). */
  scope(unassigned: boolean): ListScope {
    return { project: this.project, ...(unassigned ? { unassigned: true } : {}) };
  }

  /** Stores the state `build` makes under a freshly generated id. */
  async createUnderNewId(now: Date, build: (agent_id: string) => SessionState): Promise<SessionState> {
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
