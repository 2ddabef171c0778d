import { hostOf } from '../../host';
import { format } from 'date-fns/format';
import { escapeControl } from '../../control';
import { deciderText } from '../../decision';
import { inboxOf, type InboxEntry } from '../inbox';
import { interruptionCause } from '../../interruption';
import type { Limits } from '../../limits';
import { PHASES, type Phase } from '../../phase-names';
import { counted } from '../../plural';
import type { SessionState } from '../../state';
import { computeStats, type Stats, type StatsGroup } from '../stats';
import { inUtc, shortDuration, utcTime } from '../time-text';
import { timelineOf } from '../timeline';
import { outcomeBuckets, type Bucket } from './buckets';

/** What the report is made from: the sessions, the clock and the limits; everything else is derived. */
export interface ReportInput {
  readonly states: readonly SessionState[];
  readonly now: Date;
  readonly limits: Limits;
  /** Only sessions created at or after this instant are counted and drawn (the inbox shows every waiting one). */
  readonly since?: Date;
  /** Corrupt sessions left out (said in the report). */
  readonly corrupt?: number;
  /** The project whose sessions these are (said in the report); null: every project's. Absent: not said. */
  readonly project?: string | null;
  /** Lanes drawn per agent (its most recently active sessions); default 30. */
  readonly lanesPerAgent?: number;
  /** Agents with a row and lanes (those with the most sessions); default 40. The overall figures count every one. */
  readonly agentsShown?: number;
  /** Inbox rows shown; default 50 (`pending` lists them all). */
  readonly inboxRows?: number;
}

/** The colour of each phase in the lanes and the legend. */
export const PHASE_COLOURS: Readonly<Record<Phase, string>> = {
  initializing: '#9aa5b1',
  investigating: '#4c9be8',
  planning: '#7b61ff',
  approval: '#f5a623',
  executing: '#2bb673',
  validating: '#14a3a3',
  completed: '#1b7f4b',
  failed: '#d64545',
  abandoned: '#6b6b6b',
};

/**
 * The report as one self-contained HTML page (pure): inline CSS and SVG, no script, no external resource (a
 * Content-Security-Policy forbids any), every value taken from a session escaped. Sections: the figures of `stats`
 * with a chart of outcomes and resume rate over time, the approval inbox, and per agent one lane per session (its
 * phases as coloured spans, resumes, the last error and decisions marked, details on hover). With many sessions it
 * stays small: the figures and the chart aggregate every session, the lanes show each agent's most recent ones.
 */
export function renderReport(input: ReportInput): string {
  const { now, limits, since } = input;
  const stats = computeStats(input.states, { now, limits, ...(since === undefined ? {} : { since }) });
  const kept =
    since === undefined ? input.states : input.states.filter((s) => Date.parse(s.created_at) >= since.getTime());
  const inbox = inboxOf(input.states, now, limits);
  const shown = busiestAgents(stats, input.agentsShown ?? 40);
  const agents = agentIndex(inbox.slice(0, input.inboxRows ?? 50), kept, shown);
  const body = [
    header(stats, kept.length, input.corrupt ?? 0, now, input.project),
    filters(agents),
    inboxSection(inbox, input.inboxRows ?? 50, agents, input.project === null),
    figures(stats, shown),
    chart(outcomeBuckets(kept, now, since)),
    lanes(kept, now, input.lanesPerAgent ?? 30, shown, agents),
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-session report</title>
<style>${CSS}${filterCss(agents)}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * Text made safe for HTML text and attribute values (both quote kinds). Control characters are written as `\uXXXX`
 * first, as in every other output: the report goes to stdout by default, where a raw ESC in a note would drive the
 * terminal, and bidirectional overrides would reorder what the page shows.
 */
export function escapeHtml(value: string): string {
  return escapeControl(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

// --- internal ---

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d232a;background:#fafbfc}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:18px 0 6px}
.muted{color:#66717d}table{border-collapse:collapse;background:#fff;margin:4px 0}
th,td{padding:4px 10px;border-bottom:1px solid #e3e7eb;text-align:left;vertical-align:top}
th{background:#f0f3f6;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{background:#fff;border:1px solid #e3e7eb;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-1px}
svg{background:#fff;border:1px solid #e3e7eb;border-radius:4px;max-width:100%}
svg text{font:11px system-ui,sans-serif;fill:#39424c}.wait{max-width:420px;overflow-wrap:anywhere}
table{max-width:100%}td{overflow-wrap:anywhere}#agents td:first-child{max-width:180px}#agents th{font-size:12px}
code.cmd{user-select:all;font-size:12px;background:#f0f3f6;padding:1px 4px;border-radius:3px;white-space:nowrap}
#filters{border:1px solid #e3e7eb;border-radius:6px;background:#fff;padding:6px 12px;margin:12px 0}
#filters p{margin:2px 0}#filters label{margin-right:10px;white-space:nowrap}#filters input{vertical-align:-2px}
svg line.tick{stroke:#8a96a3;stroke-width:1}
`;

function header(stats: Stats, kept: number, corrupt: number, now: Date, project: string | null | undefined): string {
  const window = stats.since === null ? 'all sessions' : `sessions created since ${utcTime(stats.since)}`;
  const skipped = corrupt > 0 ? `; ${counted(corrupt, 'corrupt session')} left out` : '';
  const whose =
    project === undefined ? '' : project === null ? ' of every project' : ` of the project ${JSON.stringify(project)}`;
  return `<h1>agent-session report</h1>
<p class="muted">Generated ${escapeHtml(utcTime(now))}; ${escapeHtml(window + whose)} (<span data-figure="kept">${kept}</span>)${skipped}.</p>`;
}

const CARDS: readonly [keyof StatsGroup, string][] = [
  ['sessions', 'sessions'],
  ['active', 'active'],
  ['resumable_now', 'resumable now'],
  ['completed', 'completed'],
  ['failed', 'failed'],
  ['abandoned', 'abandoned'],
  ['success_rate', 'success rate'],
  ['resumes', 'resumes'],
  ['resume_rate', 'resume rate'],
  ['approvals', 'approvals'],
  ['rejections', 'rejections'],
  ['median_decision_seconds', 'median time to decision'],
  ['interruptions', 'interruptions'],
  ['carried_on', 'carried on'],
  ['interrupted_now', 'interrupted now'],
  ['permission_requests', 'permission requests'],
  ['permissions_spent', 'permissions run'],
  ['continued', 'continued with context'],
  ['primed', 'primed afresh'],
];

/** The `limit` agents with the most sessions (ties by name): a store of 10,000 one-session agents stays one page. */
function busiestAgents(stats: Stats, limit: number): ReadonlySet<string> {
  const names = Object.keys(stats.agents).sort(
    (a, b) => stats.agents[b]!.sessions - stats.agents[a]!.sessions || (a < b ? -1 : a > b ? 1 : 0),
  );
  return new Set(names.slice(0, limit));
}

function figures(stats: Stats, shown: ReadonlySet<string>): string {
  const cards = CARDS.map(
    ([key, label]) =>
      `<div class="card"><b data-figure="${key}">${escapeHtml(figure(key, stats.overall[key]))}</b>${escapeHtml(label)}</div>`,
  ).join('');
  const entries = Object.entries(stats.agents);
  const others = entries.filter(([name]) => !shown.has(name));
  const rest =
    others.length === 0
      ? ''
      : `\n<tr class="muted"><td>${counted(others.length, 'other agent')}</td><td class="n">${others.reduce((sum, [, group]) => sum + group.sessions, 0)}</td><td colspan="${AGENT_COLUMNS.length - 1}">fewer sessions each; counted above (\`stats\` lists every agent)</td></tr>`;
  const rows = entries
    .filter(([name]) => shown.has(name))
    .map(
      ([name, group]) =>
        `<tr data-agent="${escapeHtml(name)}"><td>${escapeHtml(name)}</td>${AGENT_COLUMNS.map(
          ([key]) => `<td class="n" data-figure="${key}">${escapeHtml(figure(key, group[key]))}</td>`,
        ).join('')}</tr>`,
    )
    .join('\n');
  const head = AGENT_COLUMNS.map(([, label]) => `<th>${label}</th>`).join('');
  return `<h2>Figures</h2>
<div class="cards" id="figures">${cards}</div>
<h3>Per agent</h3>
<table id="agents"><thead><tr><th>agent</th>${head}</tr></thead><tbody>
${rows}${rest}
</tbody></table>`;
}

const AGENT_COLUMNS: readonly [keyof StatsGroup, string][] = [
  ['sessions', 'sessions'],
  ['active', 'active'],
  ['completed', 'done'],
  ['failed', 'failed'],
  ['abandoned', 'abandoned'],
  ['success_rate', 'success'],
  ['resume_rate', 'resume rate'],
  ['approvals', 'approved'],
  ['rejections', 'rejected'],
  ['median_decision_seconds', 'to decision'],
  ['interruptions', 'interrupted'],
  ['carried_on', 'carried on'],
];

function figure(key: keyof StatsGroup, value: StatsGroup[keyof StatsGroup]): string {
  if (value === null) return '-';
  if (typeof value !== 'number') return '';
  if (key.endsWith('_rate')) return `${Math.round(value * 1000) / 10}%`;
  if (key.endsWith('_seconds')) return shortDuration(value);
  return String(value);
}

const CHART = { width: 900, height: 240, left: 44, right: 44, top: 14, bottom: 36 } as const;
const OUTCOME_COLOURS = {
  completed: PHASE_COLOURS.completed,
  failed: PHASE_COLOURS.failed,
  abandoned: PHASE_COLOURS.abandoned,
  open: '#b9c7d6',
};

function chart(buckets: readonly Bucket[]): string {
  if (buckets.length === 0) return '<h2>Outcomes and resume rate over time</h2><p class="muted">No sessions.</p>';
  const { width, height, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const most = Math.max(1, ...buckets.map((b) => b.sessions));
  const slot = plotW / buckets.length;
  const barW = Math.max(1, slot * 0.7);
  const parts: string[] = [];
  const points: string[] = [];
  buckets.forEach((bucket, index) => {
    const x = left + index * slot + (slot - barW) / 2;
    let y = top + plotH;
    for (const outcome of ['completed', 'failed', 'abandoned', 'open'] as const) {
      const h = (bucket[outcome] / most) * plotH;
      if (h <= 0) continue;
      y -= h;
      parts.push(
        `<rect x="${n(x)}" y="${n(y)}" width="${n(barW)}" height="${n(h)}" fill="${OUTCOME_COLOURS[outcome]}"><title>${escapeHtml(`${bucket.label}: ${bucket[outcome]} ${outcome}`)}</title></rect>`,
      );
    }
    if (bucket.sessions > 0) {
      const rate = bucket.resumed / bucket.sessions;
      points.push(`${n(left + index * slot + slot / 2)},${n(top + plotH - rate * plotH)}`);
    }
  });
  const every = Math.ceil(buckets.length / 8);
  const labels = buckets
    .map((bucket, index) =>
      index % every === 0
        ? `<text x="${n(left + index * slot + slot / 2)}" y="${height - bottom + 16}" text-anchor="middle">${escapeHtml(bucket.label)}</text>`
        : '',
    )
    .join('');
  const axes =
    `<line x1="${left}" y1="${top + plotH}" x2="${width - right}" y2="${top + plotH}" stroke="#8a96a3"/>` +
    `<text x="${left - 6}" y="${top + 8}" text-anchor="end">${most}</text><text x="${left - 6}" y="${top + plotH}" text-anchor="end">0</text>` +
    `<text x="${width - right + 6}" y="${top + 8}">100%</text><text x="${width - right + 6}" y="${top + plotH}">0%</text>`;
  const line =
    points.length > 0
      ? `<polyline points="${points.join(' ')}" fill="none" stroke="#e8590c" stroke-width="2"><title>resume rate (sessions resumed at least once ÷ sessions)</title></polyline>`
      : '';
  const legend = Object.entries(OUTCOME_COLOURS)
    .map(([name, colour]) => `<span><i style="background:${colour}"></i>${name}</span>`)
    .join('');
  return `<h2>Outcomes and resume rate over time</h2>
<p class="legend">${legend}<span><i style="background:#e8590c"></i>resume rate (right axis)</span> <span class="muted">sessions by creation time, ${escapeHtml(buckets[0]!.unit)} buckets (UTC)</span></p>
<svg id="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Outcomes and resume rate over time">${axes}${parts.join('')}${line}${labels}</svg>`;
}

function inboxSection(
  inbox: readonly InboxEntry[],
  limit: number,
  agents: ReadonlyMap<string, number>,
  acrossProjects: boolean,
): string {
  const shown = inbox.slice(0, limit);
  const rows = shown
    .map(
      (entry) =>
        `<tr data-session="${escapeHtml(entry.agent_id)}" data-phase="${entry.phase}" data-agent-index="${agents.get(entry.agent_name) ?? -1}"><td>${escapeHtml(entry.agent_id)}</td><td>${escapeHtml(entry.agent_name)}</td>` +
        `<td>${escapeHtml(entry.interrupted === null ? entry.phase : `${entry.phase}, interrupted`)}</td><td class="n">${escapeHtml(shortDuration(entry.waited_seconds))}</td>` +
        `<td>${escapeHtml(inboxResumable(entry))}</td>` +
        `<td class="wait">${entry.waits_on === null ? '-' : `${escapeHtml(entry.waits_on.source)}: ${escapeHtml(entry.waits_on.text)}`}</td>` +
        `<td><code class="cmd" title="click to select, then copy">${escapeHtml(inboxCommand(entry, acrossProjects))}</code></td></tr>`,
    )
    .join('\n');
  const more =
    inbox.length > shown.length
      ? `<p class="muted">and ${inbox.length - shown.length} more (see \`agent-session pending\`).</p>`
      : '';
  return `<h2>Approval inbox <span class="muted">(<span data-figure="inbox">${inbox.length}</span> waiting, oldest first)</span></h2>
${
  inbox.length === 0
    ? '<p class="muted">Nothing waits for a decision.</p>'
    : `<table id="inbox"><thead><tr><th>session</th><th>agent</th><th>phase</th><th>waiting</th><th>resumable</th><th>waits on</th><th>command</th></tr></thead><tbody>
${rows}
</tbody></table>${more}`
}`;
}

/** The command that decides (or shows) an inbox row, to copy: approve for a session parked in approval. */
function inboxCommand(entry: InboxEntry, acrossProjects: boolean): string {
  if (entry.phase !== 'approval' || entry.interrupted !== null) return `agent-session show ${entry.agent_id}`;
  return `agent-session approve ${entry.agent_id}${acrossProjects ? ' --all-projects' : ''}`;
}

/** A small number per agent name (inbox first, then the lanes' agents), for the filters' CSS: no name enters CSS. */
function agentIndex(
  inbox: readonly InboxEntry[],
  states: readonly SessionState[],
  shown: ReadonlySet<string>,
): ReadonlyMap<string, number> {
  const names = new Set<string>(inbox.map((entry) => entry.agent_name));
  for (const state of states) if (shown.has(state.agent_name)) names.add(state.agent_name);
  return new Map([...names].sort().map((name, index) => [name, index]));
}

/**
 * Filters by phase and by agent without a script (the page has none): radio buttons, and CSS rules by `:has()` that
 * hide the inbox rows and the agents' lanes of other agents, and hide other phases' inbox rows and dim their lanes.
 */
function filters(agents: ReadonlyMap<string, number>): string {
  const phases = [['all', 'all'], ...PHASES.map((phase) => [phase, phase])]
    .map(
      ([value, label], index) =>
        `<label><input type="radio" name="phase" id="f-phase-${value}"${index === 0 ? ' checked' : ''}> ${escapeHtml(label!)}</label>`,
    )
    .join('');
  const names = [...agents.entries()]
    .map(
      ([name, index]) => `<label><input type="radio" name="agent" id="f-agent-${index}"> ${escapeHtml(name)}</label>`,
    )
    .join('');
  return `<form id="filters"><p><b>Phase</b> ${phases}</p><p><b>Agent</b> <label><input type="radio" name="agent" id="f-agent-all" checked> all</label>${names}</p></form>`;
}

function filterCss(agents: ReadonlyMap<string, number>): string {
  const byPhase = PHASES.map(
    (phase) =>
      `body:has(#f-phase-${phase}:checked) #inbox tr[data-phase]:not([data-phase="${phase}"]){display:none}` +
      `body:has(#f-phase-${phase}:checked) g.lane:not([data-phase="${phase}"]){opacity:.15}`,
  );
  const byAgent = [...agents.values()].map(
    (index) =>
      `body:has(#f-agent-${index}:checked) #inbox tr[data-agent-index]:not([data-agent-index="${index}"]){display:none}` +
      `body:has(#f-agent-${index}:checked) section.agent:not([data-agent-index="${index}"]){display:none}`,
  );
  return [...byPhase, ...byAgent].join('\n');
}

function inboxResumable(entry: InboxEntry): string {
  if (!entry.resumable) return `no (${entry.reason})`;
  return entry.expires_in_seconds === null
    ? 'yes, by the next delegation'
    : `yes, ${shortDuration(entry.expires_in_seconds)} left`;
}

const LANE = { width: 900, label: 250, height: 16, gap: 4, right: 110 } as const;

function lanes(
  states: readonly SessionState[],
  now: Date,
  perAgent: number,
  shown: ReadonlySet<string>,
  agents: ReadonlyMap<string, number>,
): string {
  const byAgent = new Map<string, SessionState[]>();
  for (const state of states) {
    if (!shown.has(state.agent_name)) continue;
    const own = byAgent.get(state.agent_name);
    if (own === undefined) byAgent.set(state.agent_name, [state]);
    else own.push(state);
  }
  const legend = PHASES.map((phase) => `<span><i style="background:${PHASE_COLOURS[phase]}"></i>${phase}</span>`).join(
    '',
  );
  const sections = [...byAgent.keys()].sort().map((agent) => {
    const all = byAgent.get(agent)!;
    // Most recently active first, then by id: the same page for the same store, whatever order the store lists in.
    const drawn = [...all].sort(byRecency).slice(0, perAgent);
    return `<section class="agent" data-agent-index="${agents.get(agent) ?? -1}">${agentLanes(agent, drawn, all.length, now)}</section>`;
  });
  return `<h2>Timeline per agent</h2>
<p class="legend">${legend}<span>● resume</span><span>⬤ continued with its context</span><span>↯ interruption</span><span>✕ last error</span><span>◆ decision</span> <span class="muted">each lane spans one session's life, from its creation to its end (or now); hover a span or a mark for its details</span></p>
${sections.join('\n')}`;
}

function agentLanes(agent: string, drawn: readonly SessionState[], total: number, now: Date): string {
  const start = Math.min(...drawn.map((s) => Date.parse(s.created_at)));
  const end = now.getTime();
  const plot = LANE.width - LANE.label - LANE.right;
  const rows = drawn.map((state, index) => {
    // Each lane spans its own session's life (creation to the end, or now): sessions of minutes stay readable beside
    // one that waited for days; the hover text gives the times.
    const from = Date.parse(state.created_at);
    const to = Math.max(from + 1000, state.finalized_at === undefined ? now.getTime() : Date.parse(state.finalized_at));
    const x = (at: string): number => LANE.label + ((Math.min(to, Date.parse(at)) - from) / (to - from)) * plot;
    const y = index * (LANE.height + LANE.gap) + 4;
    const mid = y + LANE.height / 2;
    const timeline = timelineOf(state, now);
    const spans = timeline.spans
      .filter((span) => span.started_at !== null || timeline.dropped > 0)
      .map((span, spanIndex, list) => {
        const from = span.started_at ?? (timeline.dropped > 0 ? state.created_at : state.created_at);
        const next = list[spanIndex + 1]?.started_at;
        const to = next ?? span.ended_at ?? (span.seconds === null ? from : now.toISOString());
        const x1 = x(from);
        const w = Math.max(span.seconds === null ? 3 : 1, x(to) - x1);
        const detail = `${span.phase}: ${utcTime(from)}${span.seconds === null ? '' : `, ${shortDuration(span.seconds)}${span.ended_at === null ? ' so far' : ''}`}${span.resumes.length > 0 ? `, resumed ${span.resumes.length}×` : ''}`;
        return `<rect class="span" data-phase="${span.phase}" x="${n(x1)}" y="${y}" width="${n(w)}" height="${LANE.height}" fill="${PHASE_COLOURS[span.phase]}"><title>${escapeHtml(detail)}</title></rect>`;
      });
    const marks = timeline.events.flatMap((event) => {
      const at = n(x(event.at));
      if (event.kind === 'resume')
        return [
          `<circle class="resume" cx="${at}" cy="${mid}" r="4" fill="#fff" stroke="#1d232a"><title>${escapeHtml(`resumed in ${event.phase} at ${utcTime(event.at)}`)}</title></circle>`,
        ];
      if (event.kind === 'continued')
        return [
          `<circle class="continued" cx="${at}" cy="${mid}" r="4" fill="#1d232a" stroke="#1d232a"><title>${escapeHtml(`continued with its context in ${event.phase} at ${utcTime(event.at)}`)}</title></circle>`,
        ];
      if (event.kind === 'interrupted') {
        const why = event.error === null ? 'a host failure' : interruptionCause(event.error);
        const said = event.message === null ? '' : `: ${event.message}`;
        return [
          `<text class="interrupted" x="${at}" y="${mid + 4}" text-anchor="middle" fill="#b35c00">↯<title>${escapeHtml(`interrupted in ${event.phase} by ${why} at ${utcTime(event.at)}${said}`)}</title></text>`,
        ];
      }
      if (event.kind === 'error')
        return [
          `<text class="error" x="${at}" y="${mid + 4}" text-anchor="middle" fill="#b00020">✕<title>${escapeHtml(`error ${event.count}: ${event.message} (${utcTime(event.at)})`)}</title></text>`,
        ];
      if (event.kind === 'decision') {
        const note = event.decision.note === undefined ? '' : `: ${event.decision.note}`;
        return [
          `<text class="decision" x="${at}" y="${mid + 4}" text-anchor="middle">◆<title>${escapeHtml(`${event.decision.decision} by ${deciderText(event.decision)} at ${utcTime(event.at)}${note}`)}</title></text>`,
        ];
      }
      return [];
    });
    const life = `${utcTime(state.created_at)}, ${shortDuration((to - from) / 1000)}${state.finalized_at === undefined ? ' so far' : ''}`;
    const ticks = laneTicks(from, to, plot, y);
    const host = hostOf(state);
    const carried = state.continuation;
    const how = carried === undefined ? '' : `; its agent: ${carried.choice} (${carried.reason})`;
    const label = `<text x="4" y="${mid + 4}">${escapeHtml(state.agent_id)}<title>${escapeHtml(`${state.agent_id} (${state.phase}, ${host}, ${state.purpose}): ${life}${how}`)}</title></text>`;
    return `<g class="lane" data-session="${escapeHtml(state.agent_id)}" data-host="${host}" data-phase="${state.phase}">${label}${spans.join('')}${ticks}${marks.join('')}</g>`;
  });
  const height = drawn.length * (LANE.height + LANE.gap) + 8;
  const note =
    total > drawn.length
      ? ` <span class="muted">(${drawn.length} most recent of ${total}; every one is in the figures)</span>`
      : '';
  const range = `${format(start, 'yyyy-MM-dd HH:mm', { in: inUtc })} → ${format(end, 'yyyy-MM-dd HH:mm', { in: inUtc })} UTC`;
  return `<h3 data-agent="${escapeHtml(agent)}">${escapeHtml(agent)} <span class="muted">${escapeHtml(range)}</span>${note}</h3>
<svg class="lanes" data-agent="${escapeHtml(agent)}" viewBox="0 0 ${LANE.width} ${height}" width="${LANE.width}" height="${height}">${rows.join('')}</svg>`;
}

/** Steps the lanes' ticks may take: the first that gives at most 8 ticks over a lane's life. */
const TICK_STEPS: readonly number[] = [
  60,
  300,
  900,
  1800,
  3600,
  3 * 3600,
  6 * 3600,
  12 * 3600,
  86_400,
  7 * 86_400,
  30 * 86_400,
  365 * 86_400,
].map((seconds) => seconds * 1000);

/**
 * A lane's time ticks: a short line under the lane at each step since its creation (the step chosen so that at most
 * 8 fit), and at its right end its length and the step, as `2h 5m · tick 30m`.
 */
function laneTicks(from: number, to: number, plot: number, y: number): string {
  const life = to - from;
  const step = TICK_STEPS.find((candidate) => life / candidate <= 8) ?? TICK_STEPS.at(-1)!;
  const lines: string[] = [];
  for (let at = step; at < life; at += step) {
    const x = LANE.label + (at / life) * plot;
    lines.push(
      `<line class="tick" x1="${n(x)}" y1="${y + LANE.height - 4}" x2="${n(x)}" y2="${y + LANE.height + 2}"/>`,
    );
  }
  const text = `${shortDuration(life / 1000)} · tick ${shortDuration(step / 1000)}`;
  return `${lines.join('')}<text class="ticks" x="${LANE.label + plot + 4}" y="${y + LANE.height - 4}">${escapeHtml(text)}</text>`;
}

/** Most recently active first, ties by id. */
export function byRecency(a: SessionState, b: SessionState): number {
  return (
    Date.parse(b.last_updated) - Date.parse(a.last_updated) ||
    (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0)
  );
}

/** A coordinate with at most one decimal: enough on screen, a tenth of the bytes. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}
