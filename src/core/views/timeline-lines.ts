import { deciderText } from '../decision';
import { hostOf, type Host } from '../host';
import { interruptionCause } from '../interruption';
import type { SessionState } from '../state';
import { shortDuration } from './time-text';
import type { Timeline, TimelineEvent } from './timeline';

// A session's timeline in words, one line per phase stay and per event within it: what `show` prints as its table and
// the live page's detail view shows (one wording for both; each adds its own times and colours).

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

/** Whose agent a session's link names, by its host: a Codex link holds a Codex thread id, linked the same way. */
const AGENT_WORDS: Readonly<Record<Host, string>> = {
  'claude-code': 'Claude agent',
  codex: 'Codex agent',
  'agent-sdk': 'Claude agent',
  opencode: 'opencode task',
};

/** Whose agent the session's link names: `Claude agent`, `Codex agent`, `opencode task`. */
export function agentWord(state: SessionState): string {
  return AGENT_WORDS[hostOf(state)];
}

/** The timeline's lines: each phase stay (its length, its resumes), then what happened during it. */
export function timelineLines(timeline: Timeline, agent: string): TimelineLine[] {
  const lines: TimelineLine[] = [];
  timeline.spans.forEach((span, index) => {
    // A final phase is a moment, shown by its `finalized` event with the summary.
    if (span.seconds !== null || span.started_at === null) {
      const lasted =
        span.seconds === null ? '' : `${shortDuration(span.seconds)}${span.ended_at === null ? ' so far' : ''}`;
      const resumes = span.resumes.length > 0 ? `, resumed ${span.resumes.length}×` : '';
      lines.push({
        at: span.started_at,
        what: span.phase,
        detail: `${lasted}${resumes}`,
        tone: 'phase',
        nested: false,
      });
    }
    for (const event of timeline.events) {
      if (event.span === index && event.kind !== 'created')
        lines.push({ at: event.at, ...eventWords(event, agent), nested: true });
    }
  });
  return lines;
}

// --- internal ---

function eventWords(event: TimelineEvent, agent: string): Pick<TimelineLine, 'what' | 'detail' | 'tone'> {
  switch (event.kind) {
    case 'resume':
      return { what: 'resumed', detail: `in ${event.phase}`, tone: 'good' };
    case 'continued':
      return { what: 'continued', detail: `in ${event.phase}, with its context`, tone: 'good' };
    case 'interrupted':
      return {
        what: 'interrupted',
        detail:
          event.error === null
            ? `in ${event.phase} (a host failure; only the last one's kind and message are kept)`
            : `in ${event.phase} by ${interruptionCause(event.error)}${event.message === null ? '' : `: ${event.message}`}`,
        tone: 'warn',
      };
    case 'error':
      return {
        what: 'error',
        detail: `${event.message} (${event.count} so far; only the last message is kept)`,
        tone: 'bad',
      };
    case 'decision':
      return {
        what: event.decision.decision,
        detail: `by ${deciderText(event.decision)}${event.decision.note === undefined ? '' : `: ${event.decision.note}`}`,
        tone: event.decision.decision === 'approved' ? 'good' : 'bad',
      };
    case 'claude_linked':
      return {
        what: agent.toLowerCase(),
        detail: `${event.claude_agent_id} linked${event.resumed ? ' (resumed the session)' : ''}`,
        tone: 'plain',
      };
    case 'claude_stopped':
      return { what: agent.toLowerCase(), detail: `${event.claude_agent_id} stopped`, tone: 'plain' };
    case 'finalized':
      return {
        what: 'finalized',
        detail: `${event.phase}${event.summary === null ? '' : `: ${event.summary}`}`,
        tone: 'phase',
      };
    case 'created':
      return { what: 'created', detail: '', tone: 'plain' };
  }
}
