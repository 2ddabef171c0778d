import stringWidth from 'string-width';

// Lives in the core: the HTML report (core/report) shows session texts the same way.
export { escapeControl } from '../core/control';

/**
 * How many terminal columns `text` takes: CJK and emoji are two, combining marks none. string-width (v4, CommonJS)
 * is already in the CLI bundle through yargs, so it costs the CLI nothing; the hook bundles never import this.
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** `text` padded with spaces to `width` columns of display width. */
export function padDisplay(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * `text` cut to at most `width` columns of display width, an ellipsis marking the cut (whole code points: a wide
 * character that would straddle the edge goes with the cut).
 */
export function truncateDisplay(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let kept = '';
  let used = 0;
  for (const char of text) {
    const next = displayWidth(char);
    if (used + next > width - 1) break;
    kept += char;
    used += next;
  }
  return `${kept}…`;
}
