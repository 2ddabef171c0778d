import { escapeJsonForTerminal, UNSAFE, unicodeEscape } from './control';

// Text that agents or other programs recorded (metadata, messages, names, notes), as the hooks' contexts hand it to a
// model: inside quotes it cannot close, on a line it cannot break, so it never reads as our words.

// Besides what JSON escapes (`"`, `\`, C0 controls), the one rule of core/control.ts: DEL, C1 controls, the line and
// paragraph separators (a line break to some readers), the bidirectional marks, overrides and isolates (they reorder
// what follows on screen), zero-width characters and the soft hyphen (they hide text).

/**
 * `text` as a JSON string literal on one line, at most `limit` characters with its quotes: every character JSON
 * escapes is escaped, and so is every character of core/control.ts's rule (`\uXXXX`). Past the limit it is cut at a whole character (never inside an escape or a surrogate pair), `…` inside the quotes.
 */
export function quoted(text: string, limit = Infinity): string {
  const room = Math.max(limit, 3) - 2;
  const pieces: string[] = [];
  let length = 0;
  for (const char of text) {
    const piece = escapeChar(char);
    if (length + piece.length > room) {
      // Cut: the ellipsis takes one column, so whole pieces are dropped until it fits.
      while (length + 1 > room && pieces.length > 0) length -= pieces.pop()!.length;
      return `"${pieces.join('')}…"`;
    }
    pieces.push(piece);
    length += piece.length;
  }
  return `"${pieces.join('')}"`;
}

/**
 * `value` as one line of JSON a reader cannot misread: JSON.stringify's text, with every character of
 * core/control.ts's rule written as `\uXXXX`. They occur only inside its strings, where the escape means the same
 * character: every string in it stays closed, and it holds no line break.
 */
export function plainJson(value: unknown): string {
  return escapeJsonForTerminal(JSON.stringify(value) ?? 'null');
}

// --- internal ---

function escapeChar(char: string): string {
  // JSON.stringify escapes `"`, `\`, C0 controls (`\n` as JSON writes it) and a lone surrogate; the rule the rest.
  if (char >= ' ' && UNSAFE.test(char)) return unicodeEscape(char);
  return JSON.stringify(char).slice(1, -1);
}
