import { displayWidth, escapeControl, padDisplay } from './text';

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
export function renderRows(rows: readonly (readonly Cell[])[], colour: boolean): string {
  const texts = rows.map((row) => row.map((cell) => escapeControl(typeof cell === 'string' ? cell : cell.text)));
  const widths = (texts[0] ?? []).map((_, column) => Math.max(...texts.map((row) => displayWidth(row[column] ?? ''))));
  return rows
    .map((row, index) =>
      row
        .map((cell, column) => {
          const text = texts[index]![column]!;
          const padded = column === row.length - 1 ? text : padDisplay(text, widths[column]!);
          const style = index === 0 ? 'bold' : typeof cell === 'string' ? undefined : cell.style;
          // Pad first, then colour: the codes take no width on screen, so the columns stay aligned.
          return paint(padded, style, colour);
        })
        .join('  '),
    )
    .join('\n');
}
