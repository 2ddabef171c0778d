import { isFinalPhase, type Phase } from '../phase-names';
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
export type TimelineEvent = TimelineMoment & { readonly span: number };

type TimelineMoment =
  | { readonly kind: 'created'; readonly at: string }
  | { readonly kind: 'resume'; readonly at: string; readonly phase: Phase }
  /** Its stopped Claude agent came back with its context (SendMessage, issue 34). */
  | { readonly kind: 'continued'; readonly at: string; readonly phase: Phase }
  | { readonly kind: 'error'; readonly at: string; readonly message: string; readonly count: number }
  /** An agent died of a host failure; its kind and message are kept for the last interruption only. */
  | {
      readonly kind: 'interrupted';
      readonly at: string;
      readonly phase: Phase;
      readonly error: string | null;
      readonly message: string | null;
    }
  | { readonly kind: 'decision'; readonly at: string; readonly decision: Decision }
  | { readonly kind: 'claude_linked'; readonly at: string; readonly claude_agent_id: string; readonly resumed: boolean }
  | { readonly kind: 'claude_stopped'; readonly at: string; readonly claude_agent_id: string }
  | { readonly kind: 'finalized'; readonly at: string; readonly phase: Phase; readonly summary: string | null };

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
export function timelineOf(state: SessionState, now: Date): Timeline {
  const dropped = state.history_dropped ?? 0;
  const first = state.history[0];
  let current: { phase: Phase; started_at: string | null; resumes: string[] } = {
    phase: dropped > 0 && first !== undefined ? first.from_phase : 'initializing',
    started_at: dropped > 0 ? null : state.created_at,
    resumes: [],
  };
  const spans: PhaseSpan[] = [];
  const events: TimelineMoment[] = dropped > 0 ? [] : [{ kind: 'created', at: state.created_at }];
  const last = state.interruption;
  for (const entry of state.history) {
    if (entry.event === 'interrupted') {
      const kept = last !== undefined && last.at === entry.timestamp;
      events.push({
        kind: 'interrupted',
        at: entry.timestamp,
        phase: entry.to_phase,
        error: kept ? last.error : null,
        message: kept ? (last.message ?? null) : null,
      });
      continue;
    }
    if (entry.event === 'continue') {
      events.push({ kind: 'continued', at: entry.timestamp, phase: entry.to_phase });
      continue;
    }
    if (entry.event === 'resume') {
      current.resumes.push(entry.timestamp);
      events.push({ kind: 'resume', at: entry.timestamp, phase: entry.to_phase });
      continue;
    }
    spans.push(close(current, entry.timestamp));
    current = { phase: entry.to_phase, started_at: entry.timestamp, resumes: [] };
  }
  const final = isFinalPhase(current.phase);
  spans.push(final ? { ...close(current, current.started_at), seconds: null } : close(current, null, now));
  if (state.last_error !== null) {
    const { message, timestamp } = state.last_error;
    events.push({ kind: 'error', at: timestamp, message, count: state.error_count });
  }
  for (const decision of state.decisions ?? []) events.push({ kind: 'decision', at: decision.at, decision });
  const link = state.claude;
  if (link !== undefined) {
    const resumed = link.resumed_from !== undefined;
    events.push({ kind: 'claude_linked', at: link.linked_at, claude_agent_id: link.agent_id, resumed });
    if (link.stopped_at !== undefined)
      events.push({ kind: 'claude_stopped', at: link.stopped_at, claude_agent_id: link.agent_id });
  }
  if (state.finalized_at !== undefined)
    events.push({ kind: 'finalized', at: state.finalized_at, phase: state.phase, summary: state.summary ?? null });
  // Stable: events of one instant keep the order above (creation first, the end last).
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { spans, events: events.map((event) => ({ ...event, span: spanOf(event, spans) })), dropped };
}

// --- internal ---

/**
 * The stay an event belongs to: a resume's own span; a decision ends the stay in approval, so the last span begun
 * strictly before it (its move starts the next one at the same instant); the end, the last span; anything else, the
 * last span begun at or before it.
 */
function spanOf(event: TimelineMoment, spans: readonly PhaseSpan[]): number {
  if (event.kind === 'finalized') return spans.length - 1;
  if (event.kind === 'resume') {
    const own = spans.findIndex((span) => span.resumes.includes(event.at));
    if (own >= 0) return own;
  }
  const at = Date.parse(event.at);
  const strict = event.kind === 'decision';
  let found = 0;
  spans.forEach((span, index) => {
    if (span.started_at === null) return;
    const start = Date.parse(span.started_at);
    if (strict ? start < at : start <= at) found = index;
  });
  return found;
}

function close(
  span: { phase: Phase; started_at: string | null; resumes: string[] },
  endedAt: string | null,
  now?: Date,
): PhaseSpan {
  const end = endedAt === null ? now : new Date(endedAt);
  const seconds =
    span.started_at === null || end === undefined
      ? null
      : Math.max(0, Math.round((end.getTime() - Date.parse(span.started_at)) / 1000));
  return { phase: span.phase, started_at: span.started_at, ended_at: endedAt, seconds, resumes: span.resumes };
}
