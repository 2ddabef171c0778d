/** Every character the rule escapes (one UTF-16 unit, or the surrogate pair of an astral one). */
export declare const UNSAFE: RegExp;
/** A character as `\uXXXX` escapes, one per UTF-16 unit (as JSON writes an astral one). */
export declare function unicodeEscape(char: string): string;
/**
 * A value as a terminal may show it: every character of the rule above written as `\uXXXX`, so a name or message can
 * neither move the cursor, clear the screen, change colours, hide or reorder text, nor break a row or a one-line
 * error in two.
 */
export declare function escapeControl(text: string): string;
/**
 * A text shown as lines (a plan, a request's pretty-printed JSON on the live page): as escapeControl, but a line break
 * and a tab stay what they are.
 */
export declare function escapeControlInLines(text: string): string;
/**
 * JSON text as a terminal or a page may show it: the rule's characters JSON.stringify leaves as they are written as
 * `\uXXXX`. They occur only inside JSON strings, where the escape means the same character: the text still parses to
 * the same value.
 */
export declare function escapeJsonForTerminal(json: string): string;
/**
 * The characters of the rule in `text` (`U+202E`, each once, in order of appearance, at most `limit`), `keep` aside:
 * what a view that escaped them says it escaped.
 */
export declare function unsafeCharacters(text: string, keep?: 'none' | 'lines', limit?: number): string[];
