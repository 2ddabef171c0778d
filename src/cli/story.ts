import { deciderText, NOT_VERIFIED } from '../core/decision';
import { hostOf } from '../core/host';
import type { ResumeExplanation } from '../core/views/explain';
import type { Limits } from '../core/limits';
import { interruptionCause, isInterrupted } from '../core/interruption';
import { permissionStatus } from '../core/permission';
import { isFinalPhase } from '../core/phase-names';
import { counted } from '../core/plural';
import { relativeTime } from '../core/relative-time';
import type { SessionState } from '../core/state';
import { taskLine } from '../core/task';
import { shortDuration, utcTime } from '../core/views/time-text';
import type { Timeline } from '../core/views/timeline';
import { agentWord, timelineLines } from '../core/views/timeline-lines';
import { renderRows, type Cell } from './color';
import { wrapWords } from './format';
import { displayWidth, escapeControl } from './text';

/**
 * The task it was delegated (core/task.ts), and the delegation of another task that passed it over, or the session
 * its own delegation passed over: none when not recorded.
 */
function taskFacts(state: SessionState): Cell[][] {
  const task = state.task;
  if (task === undefined) return [];
  const facts: Cell[][] = [];
  const line = taskLine(task);
  if (line !== null) facts.push(['Task', `${line} (as delegated ${utcTime(task.at)})`]);
  if (task.passed_over !== undefined)
    facts.push([
      'Passed over',
      `by a delegation of another task at ${utcTime(task.passed_over.at)}: ${taskLine(task.passed_over) ?? '-'}; ` +
        'it keeps its decision or grant for its own task',
    ]);
  if (task.passed_over_id !== undefined)
    facts.push(['Made beside', `session ${task.passed_over_id}, held for another task when this one was delegated`]);
  return facts;
}

/** The text of `show`: the facts, the resume verdict with every rule, the timeline and the decisions. */
export function renderStory(
  state: SessionState,
  resume: ResumeExplanation,
  timeline: Timeline,
  now: Date,
  limits: Limits,
  colour: boolean,
  width = Infinity,
): string {
  const facts: Cell[][] = [
    ['Session', state.agent_id],
    ['Agent', state.agent_name],
    ['Purpose', state.purpose],
    ...taskFacts(state),
    ['Project', state.project ?? '(none: unassigned)'],
    ['Host', hostOf(state)],
    ['Phase', state.phase],
    [
      'Resume now',
      resume.should_resume
        ? { text: `yes (${resume.reason})`, style: 'green' }
        : { text: `no (${resume.reason})`, style: 'red' },
    ],
    ...explainLines(resume).map((line): Cell[] => ['', line]),
    ['Created', `${utcTime(state.created_at)} (${relativeTime(state.created_at, now)})`],
    ['Last activity', `${utcTime(state.last_updated)} (${relativeTime(state.last_updated, now)})`],
    ['Errors', `${state.error_count} of ${limits.maxErrors}`],
    ...interruptionFacts(state, now),
    ['Metadata', Object.keys(state.metadata).length === 0 ? '-' : JSON.stringify(state.metadata)],
  ];
  if (state.summary !== undefined) facts.push(['Summary', state.summary]);
  if (state.claude !== undefined) {
    const link = state.claude;
    const died = state.interruption?.agent_id === link.agent_id && state.interruption.at === link.stopped_at;
    const stopped =
      link.stopped_at !== undefined
        ? `${died ? 'interrupted' : 'stopped'} ${utcTime(link.stopped_at)}`
        : isFinalPhase(state.phase)
          ? 'no stop recorded'
          : 'running';
    facts.push([agentWord(state), `${link.agent_id} (${link.agent_type ?? 'no type'}), ${stopped}`]);
  }
  const continuation = continuationText(state);
  if (continuation !== null) facts.push(['Continuation', continuation]);
  const sections = [renderRows(wrapFacts(facts, width), colour).replace(/^ {2}/, '')];
  // The tables are indented by two: their free text (the detail, the note, the decider) gives way to the width.
  const inner = width - 2;
  sections.push(
    `Timeline${timeline.dropped > 0 ? ` (${timeline.dropped} older entries dropped by the history cap)` : ''}\n${indent(renderRows(timelineRows(timeline, agentWord(state)), colour, { width: inner, shrink: [2, 1] }))}`,
  );
  const decisions = state.decisions ?? [];
  if (decisions.length > 0) {
    const rows: Cell[][] = [['WHEN', 'DECISION', 'BY', 'WAITED', 'TO', 'NOTE']];
    for (const decision of decisions) {
      rows.push([
        utcTime(decision.at),
        { text: decision.decision, style: decision.decision === 'approved' ? 'green' : 'red' },
        deciderText(decision),
        shortDuration((Date.parse(decision.at) - Date.parse(decision.waiting_since)) / 1000),
        decision.to_phase,
        decision.note ?? '-',
      ]);
    }
    sections.push(`Decisions\n${indent(renderRows(rows, colour, { width: inner, shrink: [5, 2], drop: [3] }))}`);
  }
  const requests = state.permission_requests ?? [];
  if (requests.length > 0) {
    // Issue 33: each sub-agent permission request, its tool and exact input (JSON; controls escaped by renderRows).
    const rows: Cell[][] = [
      ['ASKED', 'BY AGENT', 'TOOL', 'INPUT', 'FOLDER', 'STATUS', 'DECIDED', 'EXPIRES', 'SPENT BY', 'REASON'],
    ];
    for (const request of requests) {
      const status = permissionStatus(request, now);
      rows.push([
        utcTime(request.at),
        request.claude_agent_id,
        request.tool,
        JSON.stringify(request.input ?? null),
        // Where the call was asked: the grant holds there only (issue 40 item 7).
        request.cwd ?? '-',
        request.unverified === true && status === 'approved'
          ? { text: `approved, ${NOT_VERIFIED}`, style: 'red' }
          : { text: status, style: status === 'pending' ? 'yellow' : status === 'rejected' ? 'red' : undefined },
        request.decided_at === undefined ? '-' : utcTime(request.decided_at),
        request.expires_at === undefined ? '-' : utcTime(request.expires_at),
        request.spent_by === undefined ? '-' : `${request.spent_by} at ${utcTime(request.spent_at ?? request.at)}`,
        request.reason ?? '-',
      ]);
    }
    sections.push(`Permission requests\n${indent(renderRows(rows, colour))}`);
  }
  return `${sections.join('\n\n')}\n`;
}

/**
 * The facts (label, value) with each value wrapped to what `width` leaves beside the labels: between words, and a
 * word longer than a line (a JSON blob) cut into pieces; continued lines have an empty label. Nothing is cut off.
 */
function wrapFacts(facts: readonly Cell[][], width: number): Cell[][] {
  const labels = Math.max(...facts.map((row) => displayWidth(textOf(row[0]))));
  const room = Math.max(20, width - labels - 2);
  if (!Number.isFinite(width)) return [...facts];
  return facts.flatMap((row) => {
    const [label, value] = row;
    const text = escapeControl(textOf(value));
    if (displayWidth(text) <= room) return [row];
    const style = typeof value === 'string' || value === undefined ? undefined : value.style;
    const lines = wrapWords(text, room).flatMap((line) => pieces(line, room));
    return lines.map((line, index): Cell[] => [index === 0 ? label! : '', { text: line, style }]);
  });
}

/** `line` in pieces of at most `width` columns. */
function pieces(line: string, width: number): string[] {
  const out: string[] = [];
  let piece = '';
  for (const char of line) {
    if (displayWidth(piece + char) > width) {
      out.push(piece);
      piece = '';
    }
    piece += char;
  }
  if (piece !== '') out.push(piece);
  return out;
}

function textOf(cell: Cell | undefined): string {
  return cell === undefined ? '' : typeof cell === 'string' ? cell : cell.text;
}

/**
 * The last choice between continuing the session's Claude agent with its context and priming a fresh one (issue 34):
 * `continue (transcript 30 KB, under the 512 KB limit, in session …), Claude agent a0d5…, decided 2026-…; continued 2
 * times, last 2026-…`; null when none was made.
 */
export function continuationText(state: SessionState): string | null {
  const record = state.continuation;
  if (record === undefined) return null;
  const back =
    record.count === 0
      ? record.continuing
        ? '; asked, not started yet'
        : ''
      : `; continued ${counted(record.count, 'time')}, last ${utcTime(record.continued_at ?? record.decided_at)}`;
  const transcript =
    record.transcript_path === undefined
      ? ''
      : `; transcript ${record.transcript_path}${record.transcript_bytes === undefined ? '' : ` (${record.transcript_bytes} bytes)`}`;
  return `${record.choice} (${record.reason}), Claude agent ${record.claude_agent_id}, decided ${utcTime(record.decided_at)}${back}${transcript}`;
}

/** One line per resume rule, marked ok or no (`show`, `should-resume --explain`). */
export function explainLines(resume: ResumeExplanation): string[] {
  return resume.checks.map((check) => `${check.ok ? 'ok' : 'NO'}  ${check.text}`);
}

// --- internal ---

/** `Interrupted`: the count apart from errors, how many were carried on, the last one, and whether it waits now. */
function interruptionFacts(state: SessionState, now: Date): Cell[][] {
  const record = state.interruption;
  if (record === undefined) return [];
  const waiting = isInterrupted(state);
  const last =
    `last by ${interruptionCause(record.error)} ${utcTime(record.at)} (${relativeTime(record.at, now)}), ` +
    `in phase ${record.phase}`;
  const rows: Cell[][] = [
    [
      'Interrupted',
      {
        text: `${counted(record.count, 'time')}, carried on ${record.carried_on}; ${last}${waiting ? '; waiting for the next delegation to carry it on' : ''}`,
        style: waiting ? 'yellow' : undefined,
      },
    ],
  ];
  if (record.message !== undefined) rows.push(['', `the host said: ${record.message}`]);
  return rows;
}

function timelineRows(timeline: Timeline, agent: string): Cell[][] {
  // Each phase stay, then what happened during it (core/views/timeline-lines.ts: the words the live page shows too).
  const rows: Cell[][] = [['WHEN', 'WHAT', 'DETAIL']];
  for (const line of timelineLines(timeline, agent)) {
    const what = line.nested ? `  ${line.what}` : line.what;
    rows.push([
      line.at === null ? '(dropped)' : utcTime(line.at),
      line.tone === 'plain' ? what : { text: what, style: TONE_STYLES[line.tone] },
      line.detail,
    ]);
  }
  return rows;
}

const TONE_STYLES = { phase: 'bold', good: 'green', bad: 'red', warn: 'yellow' } as const;

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
