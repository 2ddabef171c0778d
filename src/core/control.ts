// The one rule of what no view shows as it is (the terminal's tables and errors, `--json` to a terminal, the HTML
// report, the live page, the texts given to a model): Unicode's control characters (Cc: C0, DEL, C1; a lone 0x9B is a
// CSI to some terminals), its format characters (Cf: the bidirectional marks, overrides and isolates that reorder what
// follows on screen, "Trojan Source"; U+061C; the zero-width space, joiners and word joiner; the soft hyphen; the byte
// order mark; the tag characters) and the line and paragraph separators (Zl, Zp: a line break to some readers). Each
// is written as `\uXXXX` (an astral one as its two UTF-16 escapes, as JSON writes it), so what is shown is what is
// stored: nothing hidden, reordered, or broken in two. Spelled out rather than `\p{Cc}\p{Cf}\p{Zl}\p{Zp}`, whose
// tables cost every hook that uses this module ~10 M instructions; tests/unit/core/control.test.ts checks the two
// agree on every code point.
const BMP =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u180e' +
  '\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
// The astral ones as their surrogate pairs (U+110BD, U+110CD, U+13430-1343F, U+1BCA0-1BCA3, U+1D173-1D17A, U+E0001,
// U+E0020-E007F): without the `u` flag, whose compiled class costs a hook a few million instructions more.
const ASTRAL =
  '\\ud804[\\udcbd\\udccd]|\\ud80d[\\udc30-\\udc3f]|\\ud82f[\\udca0-\\udca3]|\\ud834[\\udd73-\\udd7a]|' +
  '\\udb40[\\udc01\\udc20-\\udc7f]';

/** Every character the rule escapes (one UTF-16 unit, or the surrogate pair of an astral one). */
export const UNSAFE = new RegExp(`[${BMP}]|${ASTRAL}`);

const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

// The same, but C0 controls: JSON.stringify writes those as escapes already, and they appear nowhere else in its
// output but its own indentation.
const UNSAFE_IN_JSON = new RegExp(`(?![\\u0000-\\u001f])(?:${UNSAFE.source})`, 'g');

// The same, but a line break and a tab: a text shown as lines keeps them.
const UNSAFE_IN_LINES = new RegExp(`(?![\\n\\t])(?:${UNSAFE.source})`, 'g');

/** A character as `\uXXXX` escapes, one per UTF-16 unit (as JSON writes an astral one). */
export function unicodeEscape(char: string): string {
  let out = '';
  for (let index = 0; index < char.length; index++) out += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * A value as a terminal may show it: every character of the rule above written as `\uXXXX`, so a name or message can
 * neither move the cursor, clear the screen, change colours, hide or reorder text, nor break a row or a one-line
 * error in two.
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE_ALL, unicodeEscape);
}

/**
 * A text shown as lines (a plan, a request's pretty-printed JSON on the live page): as escapeControl, but a line break
 * and a tab stay what they are.
 */
export function escapeControlInLines(text: string): string {
  return text.replace(UNSAFE_IN_LINES, unicodeEscape);
}

/**
 * JSON text as a terminal or a page may show it: the rule's characters JSON.stringify leaves as they are written as
 * `\uXXXX`. They occur only inside JSON strings, where the escape means the same character: the text still parses to
 * the same value.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(UNSAFE_IN_JSON, unicodeEscape);
}

/**
 * The characters of the rule in `text` (`U+202E`, each once, in order of appearance, at most `limit`), `keep` aside:
 * what a view that escaped them says it escaped.
 */
export function unsafeCharacters(text: string, keep: 'none' | 'lines' = 'none', limit = 8): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(keep === 'lines' ? UNSAFE_IN_LINES : UNSAFE_ALL)) {
    const name = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    if (!found.includes(name)) found.push(name);
    if (found.length >= limit) break;
  }
  return found;
}
