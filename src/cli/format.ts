import { hostOf } from '../core/host';
import { shortId } from '../core/ids';
import { isInterrupted } from '../core/interruption';
import { pendingPermission } from '../core/permission';
import { relativeTime } from '../core/relative-time';
import { taskLine } from '../core/task';
import type { ListEntry } from '../service/sessions';
import { renderRows, type Cell } from './color';
import type { CliIo } from './context';
import { displayWidth, escapeControl } from './text';

/**
 * A plain-text table: a header, then one row a session, columns padded to their widest cell; with `projects`, each
 * session's project in a column of its own (`-` for one of none). When a session of another host than Claude Code is
 * listed (core/host.ts), each session's host is in a HOST column (a store only Claude Code writes keeps its table).
 */
export function renderTable(
  entries: readonly ListEntry[],
  now: Date,
  colour = false,
  projects = false,
  width = Infinity,
): string {
  const idText = shownIds(entries.map((entry) => entry.id));
  const hosts = entries.some((entry) => entry.kind === 'valid' && entry.state.host !== undefined);
  // The delegated task (core/task.ts) in a column of its own once a listed session records one.
  const tasks = entries.some((entry) => entry.kind === 'valid' && taskLine(entry.state.task) !== null);
  const rows: Cell[][] = [
    [
      ...(projects ? ['PROJECT'] : []),
      'ID',
      'AGENT',
      ...(hosts ? ['HOST'] : []),
      'PHASE',
      'RESUMABLE',
      'ERRORS',
      'LAST ACTIVITY',
      ...(tasks ? ['TASK'] : []),
    ],
  ];
  for (const entry of entries) {
    if (entry.kind === 'corrupt') {
      rows.push([
        ...(projects ? ['?'] : []),
        idText(entry.id),
        '-',
        ...(hosts ? ['-'] : []),
        { text: 'corrupt', style: 'red' },
        { text: 'no (invalid_state)', style: 'red' },
        '-',
        relativeTime(entry.modifiedAt, now),
        ...(tasks ? ['-'] : []),
      ]);
      continue;
    }
    const { state } = entry;
    rows.push([
      ...(projects ? [state.project ?? '-'] : []),
      idText(entry.id),
      state.agent_name,
      ...(hosts ? [hostOf(state)] : []),
      // Interrupted: its agent died of a host failure; neither running nor done, it waits to be carried on.
      isInterrupted(state)
        ? { text: `${state.phase}, interrupted`, style: 'yellow' }
        : state.phase === 'approval' && pendingPermission(state) !== null
          ? { text: `${state.phase}, permission`, style: 'yellow' }
          : state.phase,
      entry.resumable ? { text: 'yes', style: 'green' } : { text: `no (${entry.reason})`, style: 'dim' },
      { text: String(state.error_count), style: state.error_count > 0 ? 'yellow' : undefined },
      // "in 72 years" would read as a valid time: a clock ahead is shown as what it is, with the stored time.
      entry.clockAhead
        ? { text: `clock ahead (${state.last_updated})`, style: 'red' }
        : relativeTime(state.last_updated, now),
      ...(tasks ? [taskLine(state.task) ?? '-'] : []),
    ]);
  }
  // Free texts give way first (the agent's name, the reason, the project), then the errors and host columns go.
  const at = (name: string): number => (rows[0] as string[]).indexOf(name);
  return renderRows(rows, colour, {
    width,
    shrink: [
      ...(tasks ? [at('TASK')] : []),
      at('AGENT'),
      at('RESUMABLE'),
      at('LAST ACTIVITY'),
      ...(projects ? [at('PROJECT')] : []),
    ],
    drop: [at('ERRORS'), ...(hosts ? [at('HOST')] : [])],
  });
}

/**
 * How a table shows the ids of its rows: the short form (core/ids.ts shortId, which every command taking an id
 * accepts), unless two rows would show the same one: those show their whole id.
 */
export function shownIds(ids: readonly string[]): (id: string) => string {
  const seen = new Map<string, number>();
  for (const id of ids) seen.set(shortId(id), (seen.get(shortId(id)) ?? 0) + 1);
  return (id) => (seen.get(shortId(id)) === 1 ? shortId(id) : id);
}

/** A column of a table that may give way when the width is short (see renderFitted). */
export interface FitColumn {
  /** The header, one line or two, read top to bottom (`['SUCCESS', 'RATE']`): narrower than one long line. */
  readonly header: readonly string[];
  /** Which columns give way first: the highest; 0 is shown whatever the width. */
  readonly priority: number;
}

/** A table laid out to a width: its text, and the headers of the columns left out (`DONE/FAILED/ABANDONED`). */
export interface FittedTable {
  readonly text: string;
  readonly leftOut: readonly string[];
}

/**
 * A plain-text table (renderRows) that fits in `width` columns when it can: the columns are taken by priority (the
 * lowest first, in their order on a tie) while they fit, and shown in their own order; the others are left out and
 * named. Columns of priority 0 are shown even when they alone are wider. The header's lines are bold when coloured.
 */
export function renderFitted(
  columns: readonly FitColumn[],
  rows: readonly (readonly Cell[])[],
  width: number,
  colour = false,
): FittedTable {
  const depth = Math.max(...columns.map((column) => column.header.length));
  const headers: Cell[][] = Array.from({ length: depth }, (_, line) =>
    columns.map((column) => {
      const text = column.header[line] ?? '';
      return text === '' ? '' : { text, style: 'bold' as const };
    }),
  );
  const all = [...headers, ...rows];
  const widths = columns.map((_, index) => Math.max(...all.map((row) => cellWidth(row[index]))));
  const order = columns.map((_, index) => index).sort((a, b) => columns[a]!.priority - columns[b]!.priority || a - b);
  const kept = new Set<number>();
  let used = 0;
  for (const index of order) {
    // Two spaces between columns (renderRows).
    const next = used + (kept.size === 0 ? 0 : 2) + widths[index]!;
    if (columns[index]!.priority !== 0 && next > width) continue;
    kept.add(index);
    used = next;
  }
  const pick = (row: readonly Cell[]): Cell[] => row.filter((_, index) => kept.has(index));
  const text = renderRows(all.map(pick), colour)
    .split('\n')
    // A header line whose last columns have no second line would end in padding.
    .map((line) => line.trimEnd())
    .join('\n');
  const leftOut = columns.filter((_, index) => !kept.has(index)).map((column) => headerName(column));
  return { text, leftOut };
}

/**
 * The width a table may take: the terminal's, when stdout is one; else `COLUMNS` when set (1 to 9999); else 120, so
 * that a pipe or a file gets what most terminals show.
 */
export function outputWidth(io: Pick<CliIo, 'columns' | 'env'>): number {
  const fromEnv = /^[1-9]\d{0,3}$/.test(io.env.COLUMNS ?? '') ? Number(io.env.COLUMNS) : undefined;
  // A terminal that reports no size (0 columns: a pty nobody sized, as `script` makes) is read as none.
  const terminal = io.columns !== undefined && io.columns > 0 ? io.columns : undefined;
  return terminal ?? fromEnv ?? 120;
}

/** `text` as lines of at most `width` columns, broken between words (a word longer than a line has one alone). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

// --- internal ---

function cellWidth(cell: Cell | undefined): number {
  if (cell === undefined) return 0;
  return displayWidth(escapeControl(typeof cell === 'string' ? cell : cell.text));
}

/** A header on one line, as a name: `SUCCESS RATE`, `DONE/FAILED/ABANDONED` (no space after a slash). */
function headerName(column: FitColumn): string {
  return column.header.join(' ').replace(/\/ /g, '/');
}
