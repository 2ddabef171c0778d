import type { ClaudeLinkChange } from '../core/claude-link';
import { type ContinuationChoiceFacts } from '../core/continuation';
import { type ApproveInput, type RejectInput } from '../core/decision';
import { type Limits } from '../core/limits';
import { type FinalPhase, type Phase } from '../core/phase-names';
import { type PermissionAsk, type PermissionInboxMode } from '../core/permission';
import { type Host } from '../core/host';
import { type ResumeReason } from '../core/rules';
import { type DecisionOrigin } from '../core/origin';
import { type SessionChange } from '../core/session';
import type { Metadata, SessionState } from '../core/state';
import { type DelegatedTask, type TakeoverReason } from '../core/task';
import { type AgentFailure, type Attachment, type ClaudeAgentEvent } from './claude-attach';
import { type CleanupResult } from './cleanup';
import { type ResumeDecision } from './project-view';
import type { SessionStore } from './store';
import type { ProjectStats, Stats } from '../core/views/stats';
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
export type ListEntry = {
    readonly kind: 'valid';
    readonly id: string;
    readonly state: SessionState;
    readonly resumable: boolean;
    readonly reason: ResumeReason;
    /** `last_updated` is ahead of the clock beyond the skew bound. */
    readonly clockAhead: boolean;
} | {
    readonly kind: 'corrupt';
    readonly id: string;
    readonly error: string;
    readonly modifiedAt: Date;
};
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
export declare class Sessions {
    #private;
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
    constructor(options: SessionsOptions);
    /**
     * Creates a session in `initializing`. Without an id one is generated.
     * @throws SessionError E_USAGE for a bad id or name, E_DUPLICATE when the id exists
     */
    create(request: {
        agent_name: string;
        purpose: string;
        metadata?: Metadata;
        id?: string;
    }): Promise<SessionState>;
    /**
     * The id a user's words name: the id itself, or any part of one that no other id contains (the short form listings
     * show: its last 8 hex digits). Every CLI command that takes an id resolves it here first; the hooks and the library
     * take whole ids.
     * @throws SessionError E_USAGE for text that is no part of an id, or a part several ids contain (naming them);
     *   E_NOT_FOUND when no id contains it
     */
    resolveId(text: string): Promise<string>;
    /** The state of a session. @throws SessionError E_NOT_FOUND, E_CORRUPT */
    get(id: string): Promise<SessionState>;
    /** Applies a phase change, metadata merge and/or error under the session lock. */
    update(id: string, change: SessionChange): Promise<SessionState>;
    /**
     * Ends a session. With `agentName`, only a session of that agent; with `ownProject`, only one of this project
     * (both checked under the lock).
     * @throws SessionError E_ILLEGAL_TRANSITION when it is already final; AgentMismatchError (E_USAGE) for another agent's;
     *   OtherProjectError (E_OTHER_PROJECT) for another project's
     */
    finalize(id: string, outcome: FinalPhase, summary?: string, options?: {
        agentName?: string;
        ownProject?: boolean;
    }): Promise<SessionState>;
    /**
     * Approves a session parked in approval: the decision (who, when, note, where it came from: see core/origin.ts) and
     * the move to executing in one locked write (see core/decision.ts). Refused, before the store is read, from a
     * process detected inside an AI agent's shell.
     * A session of another project (or of none) is refused unless `allProjects`: the inbox a user decides from is this
     * project's. `id` may be any unique part of the id (see resolveId).
     * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_CHANGED
     *   (options.unchanged); E_NOT_FOUND, E_CORRUPT, E_BUSY, E_USAGE
     */
    approve(id: string, input?: ApproveInput, options?: DecideOptions): Promise<SessionState>;
    /**
     * Rejects a session parked in approval: the decision with its reason and the move back to planning (or the end,
     * abandoned) in one locked write. Refused from an AI agent's shell, and for another project's session unless
     * `allProjects`, as `approve`.
     * @throws SessionError E_AGENT_SHELL; E_ILLEGAL_TRANSITION when it is not in approval; E_OTHER_PROJECT; E_CHANGED;
     *   E_NOT_FOUND, E_CORRUPT, E_BUSY, E_USAGE
     */
    reject(id: string, input: RejectInput, options?: DecideOptions): Promise<SessionState>;
    /**
     * A sub-agent's permission request nobody can answer (issue 33): the session linked to that Claude agent records it
     * and waits in approval (core/permission.ts `parkForPermission`), in one locked write. The same pending request
     * asked again writes nothing.
     * @returns the parked state, or null when no session of this project is linked to the agent, or its session cannot
     *   be parked (final, validating: the host's own flow then decides)
     * @throws SessionError E_BUSY, E_IO, E_CORRUPT
     */
    parkPermission(ask: PermissionAsk): Promise<SessionState | null>;
    /**
     * Spends the user's grant of exactly this call (issue 33) on the session linked to the asking Claude agent, under the
     * session's lock: at most one request is ever allowed per grant, however many race.
     * A grant it finds past its expiry is stored as expired in the same write, so a clock stepped back never revives it.
     * @returns the session with the grant spent, or null when no usable grant allows `ask` (none, spent, expired,
     *   another call, another project's or host's session)
     * @throws SessionError E_BUSY, E_IO, E_CORRUPT
     */
    spendPermission(ask: PermissionAsk): Promise<SessionState | null>;
    /**
     * Records, under the session's lock, that a hook approved resuming it: a `resume` history entry that
     * keeps the phase (so the history chain holds), and the session marked active.
     * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY, E_ILLEGAL_TRANSITION when it is final
     */
    recordResume(id: string): Promise<SessionState>;
    /**
     * Decides whether to resume a session and, when the answer is yes, records the resume. A "yes" is decided
     * again under the session's lock and recorded in the same write, so the decision and the record see the same
     * state (no check-then-act gap); a "no" needs no lock. The decision's
     * `state` is the one it was made on (before the record), so callers report the previous activity time.
     * A session of another project is answered `other_project` (of none: `unassigned`) and left unchanged; with
     * `agentName`, a session of another agent is answered `agent_mismatch` and left unchanged.
     * Never throws for a missing or corrupt session.
     */
    resume(id: string, options?: {
        agentName?: string;
        newest?: boolean;
    }): Promise<ResumeDecision>;
    /**
     * Stores a session read from elsewhere (an export), as it is (less its Claude Code link) or under a new
     * generated id. Never overwrites. A session the machine could not have produced (see assertCoherent), or with a
     * timestamp ahead of this clock beyond the skew bound, is refused. It keeps the project it names; one that names none
     * (an older version's export) is given this service's. Its decisions are marked imported (core/decision.ts
     * importedState: by this OS user, now, from `from`, the file's path).
     * @throws SessionError E_DUPLICATE when the id exists (without `newId`), E_CORRUPT for an implausible session,
     *   E_AGENT_SHELL for a session holding decisions imported from a detected AI agent's shell
     */
    importSession(exported: SessionState, options?: {
        newId?: boolean;
        from?: string;
    }): Promise<SessionState>;
    /** Whether a session may be resumed, and why; never throws for a missing or corrupt session. */
    shouldResume(id: string): Promise<ResumeDecision>;
    /** The resume decision on a state already read (at the store's time). */
    decide(state: SessionState): Promise<ResumeDecision>;
    /**
     * The most recently active valid session of an agent, or null. A session whose `last_updated` is ahead of the
     * clock beyond the skew bound is skipped: it would otherwise hide the agent's real sessions for ever.
     */
    newestOf(agentName: string): Promise<SessionState | null>;
    /**
     * This project's session linked to a Claude Code agent id (the most recently active one if several are), or null.
     */
    findByClaudeAgent(claudeAgentId: string): Promise<SessionState | null>;
    /**
     * Records on session `id` the choice between continuing its Claude agent with its context and priming a fresh one
     * (issue 34, core/continuation.ts), under the session lock, when the session is still this project's, linked to
     * that Claude agent and not final.
     * @returns the state written, or null when it changed meanwhile (nothing written)
     * @throws SessionError E_BUSY, E_IO, E_CORRUPT
     */
    recordContinuation(id: string, facts: ContinuationChoiceFacts): Promise<SessionState | null>;
    /**
     * Links a session to a Claude Code agent, or updates that link, under the session lock.
     * @throws SessionError E_NOT_FOUND, E_ILLEGAL_TRANSITION (final), E_CORRUPT, E_BUSY
     */
    linkClaude(id: string, change: ClaudeLinkChange): Promise<SessionState>;
    /**
     * Resumable by the rules, and not run by a Claude agent right now (never linked, or its agent stopped):
     * a delegation to its agent type may take it.
     */
    isParked(state: SessionState): Promise<boolean>;
    /**
     * Resumes the newest session of an agent when the one rule of core/parking.ts allows it (`session_running` when a
     * Claude agent runs it now), recorded under the session lock as `resume` does; null when the agent has none.
     */
    resumeNewestOf(agentName: string): Promise<ResumeDecision | null>;
    /**
     * A delegation to `agentName` of `task` (its description and prompt start; null when the host gave none) offered the
     * type's parked session, decided by core/task.ts `takeover` and recorded under the session's lock: `resume`, the
     * delegation's task recorded on it (its start relinks it, service/claude-attach.ts), or `passed_over`: it holds a
     * decision or a grant for another task, so it keeps them and its task, and records the delegation that passed it
     * over (the delegated agent's start then takes a fresh session). Null when the type has no parked session.
     * @throws SessionError E_BUSY, E_IO, E_CORRUPT
     */
    offerDelegation(agentName: string, task: DelegatedTask | null): Promise<DelegationOffer | null>;
    /**
     * Session `id`, or null when absent or damaged (a damaged one is no session to carry on, list or name beside another:
     * the commands that read one by id say why).
     * @throws SessionError E_BUSY, E_IO
     */
    find(id: string): Promise<SessionState | null>;
    /** The session a new delegation to `agentName` would resume: its newest one when parked, else null. */
    parkedOf(agentName: string): Promise<SessionState | null>;
    /**
     * The newest session of every agent that is parked now (see `isParked`), most recently active first.
     * Through the store's `newestPerAgent` (the file store: one small read per agent name).
     */
    parkedSessions(): Promise<SessionState[]>;
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
    attachClaudeAgent(event: ClaudeAgentEvent): Promise<Attachment | null>;
    /**
     * A Claude Code sub-agent stopped: its session (found, relinked or created as `attachClaudeAgent` does, so a stop
     * that overtook the agent's start events ends in the same state) gets the stop policy (core `stopOutcome`): kept
     * when parked in a resumable phase, else completed, failed at the error limit, or abandoned while initializing.
     * @returns null when the agent is not attached and `agent_type` is absent (nothing to apply the policy to)
     * @throws SessionError E_BUSY when a lock stays taken, E_IO
     */
    claudeAgentStopped(event: Omit<ClaudeAgentEvent, 'stopped'> & {
        readonly last_message?: string;
    }): Promise<Attachment | null>;
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
    claudeAgentFailed(event: Omit<ClaudeAgentEvent, 'stopped' | 'failed'> & AgentFailure): Promise<Attachment | null>;
    /**
     * Records that a session's agent was interrupted by a host failure (the seed protocol's `subagent-stop` with
     * `interrupted`): as a Claude Code StopFailure does, without a Claude agent. With `agentName`, only a session of
     * that agent; with `ownProject`, only one of this project (both checked under the lock). A session already waiting
     * after an interruption is left as it is.
     * @throws SessionError E_NOT_FOUND, E_CORRUPT, E_BUSY; E_ILLEGAL_TRANSITION when it is final; AgentMismatchError
     *   (E_USAGE) for another agent's; OtherProjectError (E_OTHER_PROJECT) for another project's
     */
    interrupt(id: string, facts: {
        readonly error: string;
        readonly message?: string;
    }, options?: {
        agentName?: string;
        ownProject?: boolean;
    }): Promise<SessionState>;
    /**
     * Sessions, most recently active first, corrupt ones last: this project's, or with `allProjects` every session of the
     * store (unassigned ones included). `activeOnly` keeps sessions not in a final phase and `agent` one agent's; corrupt
     * sessions are always returned (their phase, agent and project are unknown), so the caller decides whether to show
     * them or warn.
     */
    list(filter?: ListFilter): Promise<ListEntry[]>;
    /**
     * As `list`, with how many sessions of no project (an older store's, unassigned) the store holds besides, when
     * `allProjects` is not asked (with it, they are listed): one listing of the store for both.
     */
    listing(filter?: ListFilter): Promise<{
        entries: ListEntry[];
        unassigned: number;
    }>;
    /**
     * The first page of a listing (at most `filter.limit` valid sessions, the most recently active; corrupt entries
     * besides) and how many valid sessions it keeps in all: a long inbox's first page and how many more, read as a page.
     */
    page(filter: ListFilter): Promise<{
        entries: ListEntry[];
        total: number;
    }>;
    /**
     * The figures of `stats` (core/views/stats.ts): this project's sessions, or with `allProjects` every session of the
     * store, with each project's own; counted by the store (SessionStore.stats), never by reading every session.
     * @param now the time the figures are judged at
     */
    stats(filter: {
        readonly agent?: string;
        readonly since?: Date;
        readonly allProjects?: boolean;
    }, now: Date): Promise<{
        stats: Stats;
        projects: ProjectStats[];
        corrupt: ListEntry[];
    }>;
    /**
     * Gives this project to sessions of another project or of none (an older store's, listed as unassigned): each id
     * named, or with `unassigned` every session of no project. A session already this project's is left as it is.
     * @returns the ids given this project, and those that already had it
     * @throws SessionError E_USAGE for a bad id or no id and no `unassigned`; E_NOT_FOUND for an id the store does not
     *   hold (nothing is changed then); E_CORRUPT, E_BUSY, E_IO
     */
    adopt(request: {
        ids?: readonly string[];
        unassigned?: boolean;
    }): Promise<{
        adopted: string[];
        already: string[];
    }>;
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
    }): Promise<CleanupResult>;
    /**
     * Deletes a session.
     * @throws SessionError E_NOT_FOUND; E_REFUSED when the entry is not agent-session's or the store root is a link
     */
    delete(id: string): Promise<void>;
    /** The store's clock: the time every use case stamps and judges by. */
    now(): Promise<Date>;
    /** Releases the store (a connection, for a network backend). Whoever opened the service closes it. */
    close(): Promise<void>;
}
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
