/**
 * `text` as a JSON string literal on one line, at most `limit` characters with its quotes: every character JSON
 * escapes is escaped, and so is every character of core/control.ts's rule (`\uXXXX`). Past the limit it is cut at a whole character (never inside an escape or a surrogate pair), `…` inside the quotes.
 */
export declare function quoted(text: string, limit?: number): string;
/**
 * `value` as one line of JSON a reader cannot misread: JSON.stringify's text, with every character of
 * core/control.ts's rule written as `\uXXXX`. They occur only inside its strings, where the escape means the same
 * character: every string in it stays closed, and it holds no line break.
 */
export declare function plainJson(value: unknown): string;
