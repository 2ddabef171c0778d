import { type Host } from '../host';
import type { Limits } from '../limits';
import { type Phase } from '../phase-names';
import type { SessionState } from '../state';
import { type InboxEntry } from './inbox';
import { type TimelineLine } from './timeline-lines';
/** Decision rows the poll carries at most (the rest are counted: `decisions_total`). */
export declare const DECISIONS_LIMIT = 50;
/** Characters of a long text (a plan, a request's input) the poll carries; the detail carries it whole. */
export declare const PREVIEW_LIMIT = 1500;
/** Characters of a one-line text (a purpose, a task, a folder) in the poll. */
export declare const LINE_LIMIT = 160;
/** Characters of the agent's last message and of the task on a decision row (the detail has them whole). */
export declare const MESSAGE_LIMIT = 400;
/** Sessions listed on the page (the most recently active); the counts per phase cover every one. */
export declare const SESSIONS_LIMIT = 200;
/**
 * What a decision row is: a session parked in approval (approve / reject on the page), one parked on a sub-agent's
 * permission request (issue 33: approve grants exactly that call, once), an interrupted one, or one waiting in
 * investigating or planning for its next delegation. Every row is made from one inbox item.
 */
export type DecisionKind = 'approval' | 'permission' | 'interrupted' | 'waiting';
/** The kinds a person decides on the page (approve / reject). */
export declare const DECIDED_KINDS: readonly DecisionKind[];
/**
 * What the session was given to do, where its state says it: `delegation`, the words of the delegation that started
 * or resumed it (its description and the start of its prompt, core/task.ts: the host's own record, first);
 * `purpose`, the words it was created with (`create --purpose`, the seed protocol, the library; not the hooks' generic
 * one); `agent`, what its agent recorded in its metadata (`task`, else `task_id`).
 */
export interface TaskText {
    readonly text: string;
    readonly source: 'delegation' | 'purpose' | 'agent';
}
/**
 * Who parked the session, on which machine, in which folder, and when, as the parking process recorded it; null
 * until the state records it (each field null when not recorded).
 */
export interface ParkedBy {
    readonly by: string | null;
    readonly machine: string | null;
    readonly folder: string | null;
    readonly at: string;
}
/** The call a permission request asks for: the tool, where it would run, when and by which agent it was asked. */
export interface CallAsked {
    readonly tool: string;
    /** The folder the call would run in; null: not recorded with the request. */
    readonly folder: string | null;
    readonly asked_at: string;
    readonly by_agent: string;
}
/** One row of the page's decisions. */
export interface DecisionRow {
    readonly kind: DecisionKind;
    readonly id: string;
    readonly agent: string;
    readonly project: string | null;
    readonly host: Host;
    readonly phase: Phase;
    readonly waiting_since: string;
    readonly resumable: boolean;
    /** When it is idle past the resume timeout (deciding an approval still revives it); null: no limit (interrupted). */
    readonly expires_at: string | null;
    /** What it waits on, one clipped line (as `pending` shows it). */
    readonly waits_on: InboxEntry['waits_on'];
    /**
     * What deciding would allow: for an approval its `plan` (else `findings`) as the agent recorded it (text as it is,
     * any other value as JSON), for a permission request the tool and its exact input (JSON); null: nothing recorded.
     * Cut in the poll (`allows_cut`), whole in the detail.
     */
    readonly allows: string | null;
    readonly allows_cut: boolean;
    /** The call of a permission request; null for the other kinds. */
    readonly call: CallAsked | null;
    readonly task: TaskText | null;
    /** The agent's last message (an excerpt the hooks keep); null: none. */
    readonly last_message: string | null;
    readonly parked: ParkedBy | null;
    /**
     * The characters of its texts that would hide or reorder what is shown (bidirectional controls, zero-width
     * characters, separators…: `U+202E`), each once; the texts show them as `\uXXXX`. Empty: none.
     */
    readonly hidden: readonly string[];
    /**
     * Its last decision is not verified here (issue 40 item 3, core/seal.ts: recorded elsewhere, by a copy or by hand):
     * it counts for nothing, and the session waits for the person to decide again. The card says so.
     */
    readonly unverified: boolean;
    /** The commands that decide it from a terminal (to copy), first the one the page's button does. */
    readonly commands: readonly string[];
}
/** A decision row as the page has it: plus the fingerprint of what deciding it allows, sent back with the decision. */
export type PageDecision = DecisionRow & {
    readonly subject: string;
};
/** One row of the page's sessions. */
export interface SessionRow {
    readonly id: string;
    readonly agent: string;
    readonly project: string | null;
    readonly host: Host;
    readonly phase: Phase;
    readonly purpose: string;
    readonly task: TaskText | null;
    readonly created_at: string;
    readonly last_updated: string;
    readonly final: boolean;
}
/** The page's data: nothing in it changes with the clock alone. */
export interface LiveModel {
    /** The project shown; null: every project's sessions. */
    readonly project: string | null;
    /** Who a decision on this page is recorded as (`bob (OS user, in the browser)`). */
    readonly recorded_as: string;
    /** The first DECISIONS_LIMIT decision rows: those a person decides first, then interrupted, then waiting. */
    readonly decisions: readonly PageDecision[];
    /** Every decision row, and how many of each kind (the rows above are the first of them). */
    readonly decisions_total: number;
    readonly decisions_by_kind: Readonly<Record<DecisionKind, number>>;
    readonly sessions: readonly SessionRow[];
    /** Sessions in the store shown, and how many of them the list leaves out (SESSIONS_LIMIT). */
    readonly total: number;
    readonly sessions_left_out: number;
    readonly by_phase: Readonly<Record<Phase, number>>;
    readonly corrupt: number;
}
/** The inputs of the model: the sessions shown, the store's clock, the limits, the project (null: all), corrupt count. */
export interface LiveInput {
    readonly states: readonly SessionState[];
    readonly now: Date;
    readonly limits: Limits;
    readonly project: string | null;
    readonly corrupt?: number;
    /** Who a decision here is recorded as (recordedAsText of the server's origin). */
    readonly recordedAs: string;
    /** A collision-resistant digest of a text (the server's SHA-256): the fingerprint of what a decision allows. */
    readonly digest: (text: string) => string;
}
/**
 * The page's model: the decisions (DECISIONS_LIMIT of every inbox item, those a person decides first, each group
 * oldest waiting first), then the sessions, most recently active first, with their counts per phase.
 */
export declare function liveModel(input: LiveInput): LiveModel;
/** Every decision row of the states, uncut and unbounded (what `notify` tells of: each item once). */
export declare function decisionRowsOf(states: readonly SessionState[], now: Date, limits: Limits, project: string | null): DecisionRow[];
/**
 * The decision row of one inbox item, with the session it names: its kind, what deciding allows (escaped, cut at
 * `limit` characters), and the commands that decide it (with `--all-projects` when the session is not the shown
 * project's).
 */
export declare function decisionRowOf(entry: InboxEntry, state: SessionState, project: string | null, limits: Limits, limit?: number): DecisionRow;
/**
 * What deciding a session allows, as one text: the wait it is in and its whole subject (the pending request's tool,
 * input and time, else the plan and findings). A decision from the page carries the digest of what the person saw;
 * the server refuses it when the session's digest differs (E_CHANGED): a request replaced, a plan rewritten since.
 */
export declare function decisionSubject(state: SessionState): string;
/** One session, whole, for the page's detail view: its facts, its verdict, its timeline, decisions and requests. */
export interface SessionDetail {
    readonly session: SessionRow;
    /** Its decision row with every text whole, when it waits; null otherwise. */
    readonly decision: PageDecision | null;
    readonly task: TaskText | null;
    readonly last_message: string | null;
    readonly parked: ParkedBy | null;
    readonly summary: string | null;
    readonly resume: {
        readonly should_resume: boolean;
        readonly reason: string;
        readonly checks: readonly string[];
    };
    readonly errors: {
        readonly count: number;
        readonly max: number;
        readonly last: string | null;
    };
    /** The metadata as pretty JSON (escaped); null: none recorded. */
    readonly metadata: string | null;
    readonly timeline: readonly TimelineLine[];
    /** History entries the cap dropped (their phases are not in `timeline`). */
    readonly timeline_dropped: number;
    readonly decisions: readonly {
        readonly at: string;
        readonly decision: string;
        readonly by: string;
        readonly to_phase: Phase;
        readonly note: string | null;
    }[];
    readonly requests: readonly {
        readonly at: string;
        readonly tool: string;
        readonly input: string;
        readonly folder: string | null;
        readonly status: string;
        readonly by_agent: string;
        readonly reason: string | null;
        readonly spent_by: string | null;
    }[];
}
/** The detail of one session at `now`: whole texts, escaped; `project` judges the resume verdict as `show` does. */
export declare function sessionDetail(state: SessionState, input: Pick<LiveInput, 'now' | 'limits' | 'project' | 'digest'>): SessionDetail;
