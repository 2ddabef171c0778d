import { displayWidth, escapeControl, padDisplay, truncateDisplay } from './text';

/** A style a table cell may have. */
export type Style = 'green' | 'red' | 'yellow' | 'dim' | 'bold';

const CODES: Readonly<Record<Style, readonly [number, number]>> = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
};

/**
 * Whether output may be coloured, by the usual conventions, in this order:
 * - `FORCE_COLOR` (as Node and chalk read it): `0` or `false` turns colour off, `1`, `2`, `3`, `true` or empty turns
 *   it on, even into a pipe; any other value is ignored;
 * - `NO_COLOR` set to a non-empty value turns it off (https://no-color.org);
 * - `TERM=dumb` (a terminal that cannot show it: Emacs shell buffers, some CI logs) turns it off;
 * - otherwise only a terminal gets colour: pipes, files and CI logs get plain text.
 */
export function colourEnabled(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (['', '1', '2', '3', 'true'].includes(force)) return true;
    if (force === '0' || force === 'false') return false;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}

/** Wraps `text` in the ANSI codes of `style` when `enabled`; returns it unchanged otherwise. */
export function paint(text: string, style: Style | undefined, enabled: boolean): string {
  if (!enabled || style === undefined) return text;
  const [on, off] = CODES[style];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

/** A cell of a table: its text, and optionally how to colour it. */
export type Cell = string | { readonly text: string; readonly style?: Style | undefined };

/**
 * A plain-text table: control characters in cells escaped (see escapeControl), columns padded to their widest cell
 * by display width (measured without colour codes; CJK and emoji take two columns), two spaces apart, the last column
 * unpadded; the first row is the header (bold when coloured).
 */
export function renderRows(rows: readonly (readonly Cell[])[], colour: boolean, fit?: Fit): string {
  const full = rows.map((row) => row.map((cell) => escapeControl(typeof cell === 'string' ? cell : cell.text)));
  const widths = (full[0] ?? []).map((_, column) => Math.max(...full.map((row) => displayWidth(row[column] ?? ''))));
  const dropped = fit === undefined ? new Set<number>() : narrow(widths, fit);
  const texts = full.map((row) => row.map((text, column) => truncateDisplay(text, widths[column]!)));
  return rows
    .map((row, index) =>
      row
        .flatMap((cell, column) => (dropped.has(column) ? [] : [[cell, column] as const]))
        .map(([cell, column], at, kept) => {
          const text = texts[index]![column]!;
          const padded = at === kept.length - 1 ? text : padDisplay(text, widths[column]!);
          const style = index === 0 ? 'bold' : typeof cell === 'string' ? undefined : cell.style;
          // Pad first, then colour: the codes take no width on screen, so the columns stay aligned.
          return paint(padded, style, colour);
        })
        .join('  '),
    )
    .join('\n');
}

/**
 * How a table fits a width (see outputWidth): the columns that may give way (their cells cut, an ellipsis marking the
 * cut), and the fewest columns each keeps.
 */
export interface Fit {
  readonly width: number;
  /** The columns whose cells may be cut, by index (free texts: what a session waits on, an agent's name). */
  readonly shrink: readonly number[];
  /** The columns any shrinkable column keeps at the least (default 8). */
  readonly min?: number;
  /** The columns left out, in this order, when the table is still too wide with every shrinkable one cut. */
  readonly drop?: readonly number[];
}

/**
 * Narrows the widest shrinkable column, a column at a time, until the table fits or none can give more; then leaves
 * out the droppable columns, the first named first, while it does not fit. Returns the columns left out.
 */
function narrow(widths: number[], fit: Fit): Set<number> {
  const full = [...widths];
  const min = fit.min ?? 8;
  const dropped = new Set<number>();
  let total = widths.reduce((sum, width) => sum + width, 0) + 2 * Math.max(0, widths.length - 1);
  while (total > fit.width) {
    const column = fit.shrink
      .filter((index) => (widths[index] ?? 0) > min)
      .sort((a, b) => widths[b]! - widths[a]! || b - a)[0];
    if (column === undefined) break;
    const wanted = Math.max(min, widths[column]! - (total - fit.width));
    // The widest gives way down to the next widest first, so the cuts are shared out.
    const next = Math.max(wanted, ...fit.shrink.filter((index) => index !== column).map((index) => widths[index]!));
    const to = next < widths[column]! ? next : wanted;
    total -= widths[column]! - to;
    widths[column] = to;
  }
  for (const column of fit.drop ?? []) {
    if (total <= fit.width) break;
    total -= widths[column]! + 2;
    dropped.add(column);
  }
  // A column left out may leave room: the cut columns get it back, in the order they are named.
  for (const column of fit.shrink) {
    const back = Math.min(fit.width - total, full[column]! - widths[column]!);
    if (back <= 0) continue;
    widths[column]! += back;
    total += back;
  }
  return dropped;
}
