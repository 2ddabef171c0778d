// Text that agents or other programs recorded (metadata, messages, names, notes), as the hooks' contexts hand it to a
// model: inside quotes it cannot close, on a line it cannot break, so it never reads as our words.

// Besides what JSON escapes (`"`, `\`, C0 controls): DEL, C1 controls, the line and paragraph separators (a line
// break to some readers) and the bidirectional overrides and isolates (they reorder what follows on screen).
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * `text` as a JSON string literal on one line, at most `limit` characters with its quotes: every character JSON
 * escapes is escaped, and so are DEL, C1 controls, U+2028/U+2029 and the bidirectional overrides (`\uXXXX`). Past the
 * limit it is cut at a whole character (never inside an escape or a surrogate pair), `…` inside the quotes.
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
 * `value` as one line of JSON a reader cannot misread: JSON.stringify's text, with DEL, C1 controls, U+2028/U+2029
 * and the bidirectional overrides written as `\uXXXX`. They occur only inside its strings, where the escape means the
 * same character: every string in it stays closed, and it holds no line break.
 */
export function plainJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(UNSAFE_ALL, (char) => unicodeEscape(char));
}

// --- internal ---

const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function escapeChar(char: string): string {
  if (UNSAFE.test(char)) return unicodeEscape(char);
  // JSON.stringify escapes `"`, `\`, C0 controls and a lone surrogate; anything else comes back as it was.
  return JSON.stringify(char).slice(1, -1);
}
