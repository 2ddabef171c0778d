import { type ClaudeLinkChange } from '../core/claude-link';
import type { Limits } from '../core/limits';
import { type Host } from '../core/host';
import { type ResumeReason } from '../core/rules';
import type { SessionState } from '../core/state';
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
export declare class ProjectView {
    #private;
    readonly store: SessionStore;
    /** The project the service works for. */
    readonly project: string;
    /** The host whose hooks the service answers: the resume lookups see only its sessions. */
    readonly host: Host;
    readonly limits: Limits;
    readonly historyCap: number;
    constructor(options: {
        readonly store: SessionStore;
        readonly project: string;
        readonly host: Host;
        readonly limits: Limits;
        readonly historyCap: number;
        readonly randomHex: () => string;
    });
    /**
     * The one write step: under the session's lock, `step` gets the stored state and its time (`now`, never before the
     * state's own last write), and what it returns is written with the history capped. What `step` throws is thrown,
     * nothing written.
     */
    write(id: string, now: Date, step: (state: SessionState, at: Date) => SessionState): Promise<SessionState>;
    /** The time a write under the lock stamps: `now` (read before the lock), never before what a writer ahead stamped. */
    stamp(state: SessionState, now: Date): Date;
    /**
     * The verdict on a state: another project's session (or one of none) is never resumed here (`other_project`,
     * `unassigned`), then the resume rules.
     */
    decideAt(state: SessionState, now: Date): ResumeDecision;
    /** Why a session is not this project's to resume (`other_project`, `unassigned`), or null when it is. */
    projectBlocker(state: SessionState): 'other_project' | 'unassigned' | null;
    /** @throws OtherProjectError when `state` is not this project's */
    assertOwn(state: SessionState): void;
    /** As `decide`, by the rule for an agent's newest session (core/parking.ts `newestVerdict`). */
    decideNewestAt(state: SessionState, now: Date): ResumeDecision;
    /**
     * This host's newest session of an agent. The store answers the newest of the agent name whatever the host (the file
     * store from its one pointer per name); when that one is another host's (a project delegating from two hosts under
     * one agent name), this host's newest is found by one listing of the project: rare, and only then.
     */
    newestOfAt(now: Date, agentName: string): Promise<SessionState | null>;
    /** This host's newest session of each agent name in this project, by one listing (see newestOfAt). */
    newestOfHost(notAfter: number): Promise<Map<string, SessionState>>;
    linkClaudeAt(now: Date, id: string, change: ClaudeLinkChange): Promise<SessionState>;
    parkedOfAt(now: Date, agentName: string): Promise<SessionState | null>;
    /** The listing scope of this project (and of none, with `unassigned`). */
    scope(unassigned: boolean): ListScope;
    /** Stores the state `build` makes under a freshly generated id. */
    createUnderNewId(now: Date, build: (agent_id: string) => SessionState): Promise<SessionState>;
}
