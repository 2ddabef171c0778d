import type { Limits } from '../limits';
import { type Phase } from '../phase-names';
import { type ResumeReason } from '../rules';
import type { SessionState } from '../state';
/** Characters of what a session waits on shown in the inbox (the whole text stays in the session). */
export declare const WAITS_ON_LIMIT = 200;
/**
 * A session waiting for a person: in approval, investigating or planning, not finalized; or interrupted (its agent
 * died of a host failure, in any working phase), waiting for the next delegation to carry it on.
 */
export interface InboxEntry {
    readonly agent_id: string;
    readonly agent_name: string;
    /** The project it belongs to; null: none (unassigned). */
    readonly project: string | null;
    readonly phase: Phase;
    /** When it entered its phase (see waitingSince), or when it was interrupted. */
    readonly waiting_since: string;
    readonly waited_seconds: number;
    readonly last_updated: string;
    /**
     * Seconds until it is idle past the resume timeout; negative: it expired that long ago; null for an interrupted
     * session (no idle limit: it waits until carried on or removed by `cleanup`).
     */
    readonly expires_in_seconds: number | null;
    readonly resumable: boolean;
    readonly reason: ResumeReason;
    /**
     * What it waits on: for an interrupted session the interruption (its kind and the host's message), else the `plan`
     * metadata, else `findings`, else the Claude agent's last message; null: nothing said.
     */
    readonly waits_on: {
        readonly source: 'interruption' | 'permission' | 'plan' | 'findings' | 'last_message';
        readonly text: string;
    } | null;
    /** The interruption it waits after (its kind and time), or null. */
    readonly interrupted: {
        readonly at: string;
        readonly error: string;
    } | null;
    /**
     * The sub-agent's permission request it waits on (issue 33, core/permission.ts): the tool, its exact input, when and
     * by which Claude agent it was asked; `approve <id>` grants exactly that call once, `reject <id>` refuses it. Null:
     * none pending.
     */
    readonly permission: {
        readonly tool: string;
        readonly input: unknown;
        readonly at: string;
        readonly claude_agent_id: string;
        /** The folder the call would run in (issue 40 item 7): the grant holds there only; null: not recorded. */
        readonly cwd: string | null;
    } | null;
}
/**
 * The approval inbox (pure): the sessions parked in a resumable phase, and the interrupted ones in any working phase,
 * oldest waiting first (then by id), each with what it waits on, how long it has waited and how long until it stops
 * being resumable.
 * @param phases which phases to keep (default: every working phase, where only interrupted sessions wait besides
 *   approval, investigating and planning)
 */
export declare function inboxOf(states: readonly SessionState[], now: Date, limits: Limits, phases?: readonly Phase[]): InboxEntry[];
/**
 * One thing waiting for the user's decision, as `pending` lists it: a session parked in approval (kind `approval`).
 * Each kind is one more member of this union and one more source in `pending`'s list; the table and the JSON are
 * built from the items alone.
 */
export interface DecisionItem {
    readonly kind: 'approval';
    readonly agent_id: string;
    readonly agent_name: string;
    /** The project it belongs to; null: none (unassigned). */
    readonly project: string | null;
    readonly waiting_since: string;
    readonly waited_seconds: number;
    /** Seconds until it is idle past the resume timeout; negative: it expired that long ago. */
    readonly expires_in_seconds: number;
    /** Idle past the resume timeout: no delegation takes it up until it is decided (see EXPIRED_APPROVAL). */
    readonly expired: boolean;
    readonly waits_on: InboxEntry['waits_on'];
    /**
     * The task it was delegated (core/task.ts: its delegation's description and the start of its prompt, in one line,
     * raw: each view escapes it); null: not recorded (a host that gives none, an older session).
     */
    readonly task: string | null;
    /** The sub-agent's permission request it waits on, whole (issue 33); null: an approval of its plan. */
    readonly permission: InboxEntry['permission'];
    /** The commands that decide it, as the user types them (the id in the short form a listing shows). */
    readonly decide: readonly string[];
    /**
     * Its last decision is not verified here (issue 40 item 3, core/seal.ts: recorded elsewhere, by a copy or by hand):
     * it counts for nothing, and the session waits for the user to decide again.
     */
    readonly unverified: boolean;
}
/** What approving an expired session does, for `pending` (checked by tests/e2e/cli-daily.test.ts). */
export declare const EXPIRED_APPROVAL: string;
/**
 * The sessions waiting in approval (pure): what only the user can decide now, newest first (then by id); expired
 * ones marked, for the caller to list apart. Sessions in investigating or planning, and interrupted ones, wait for
 * an agent, not for the user: `list` shows them.
 * @param idText how an id is written in a command (the short form of the listing)
 */
export declare function approvalsWaiting(states: readonly SessionState[], now: Date, limits: Limits, idText?: (id: string) => string): DecisionItem[];
