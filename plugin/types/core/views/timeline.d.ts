import { type Phase } from '../phase-names';
import type { Decision, SessionState } from '../state';
/** One stay in a phase: when it began, when it ended (null: the session is still in it), and how long it lasted. */
export interface PhaseSpan {
    readonly phase: Phase;
    /** Null when the history cap dropped the move into it (only the first span). */
    readonly started_at: string | null;
    readonly ended_at: string | null;
    /** Up to `ended_at`, or to `now` for the current phase; null when the start is unknown or the phase is final. */
    readonly seconds: number | null;
    /** The resumes recorded while the session stayed in this phase. */
    readonly resumes: readonly string[];
}
/** A moment of a session's story besides its phases, with `span`: the index of the phase stay it happened in. */
export type TimelineEvent = TimelineMoment & {
    readonly span: number;
};
type TimelineMoment = {
    readonly kind: 'created';
    readonly at: string;
} | {
    readonly kind: 'resume';
    readonly at: string;
    readonly phase: Phase;
}
/** Its stopped Claude agent came back with its context (SendMessage, issue 34). */
 | {
    readonly kind: 'continued';
    readonly at: string;
    readonly phase: Phase;
} | {
    readonly kind: 'error';
    readonly at: string;
    readonly message: string;
    readonly count: number;
}
/** An agent died of a host failure; its kind and message are kept for the last interruption only. */
 | {
    readonly kind: 'interrupted';
    readonly at: string;
    readonly phase: Phase;
    readonly error: string | null;
    readonly message: string | null;
} | {
    readonly kind: 'decision';
    readonly at: string;
    readonly decision: Decision;
} | {
    readonly kind: 'claude_linked';
    readonly at: string;
    readonly claude_agent_id: string;
    readonly resumed: boolean;
} | {
    readonly kind: 'claude_stopped';
    readonly at: string;
    readonly claude_agent_id: string;
} | {
    readonly kind: 'finalized';
    readonly at: string;
    readonly phase: Phase;
    readonly summary: string | null;
};
/** A session's story: its phases in order and its events in time order. */
export interface Timeline {
    readonly spans: readonly PhaseSpan[];
    readonly events: readonly TimelineEvent[];
    /** History entries the cap dropped (their phases and resumes are not in `spans`). */
    readonly dropped: number;
}
/**
 * The timeline of a session from its history (pure): one span per stay in a phase (a resume stays in its phase and is
 * listed on the span), plus events: creation, resumes, interruptions (the last one with its kind and message), the
 * last error (only the last one's message is kept; the count says how many there were), decisions, the Claude Code
 * agent link and stop, and the end. `now` measures the current phase.
 */
export declare function timelineOf(state: SessionState, now: Date): Timeline;
export {};
