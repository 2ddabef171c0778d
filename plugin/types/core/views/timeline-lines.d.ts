import type { SessionState } from '../state';
import type { Timeline } from './timeline';
/** How a line is marked: a phase stay, something that went well, badly, a warning, or a plain fact. */
export type LineTone = 'phase' | 'good' | 'bad' | 'warn' | 'plain';
/** One line of the timeline: when (null: the history cap dropped it), what, the detail, whether it is within a stay. */
export interface TimelineLine {
    readonly at: string | null;
    readonly what: string;
    readonly detail: string;
    readonly tone: LineTone;
    /** An event within the phase stay above it (indented by `show`). */
    readonly nested: boolean;
}
/** Whose agent the session's link names: `Claude agent`, `Codex agent`, `opencode task`. */
export declare function agentWord(state: SessionState): string;
/** The timeline's lines: each phase stay (its length, its resumes), then what happened during it. */
export declare function timelineLines(timeline: Timeline, agent: string): TimelineLine[];
