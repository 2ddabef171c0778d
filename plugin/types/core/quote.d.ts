/**
 * `text` as a JSON string literal on one line, at most `limit` characters with its quotes: every character JSON
 * escapes is escaped, and so are DEL, C1 controls, U+2028/U+2029 and the bidirectional overrides (`\uXXXX`). Past the
 * limit it is cut at a whole character (never inside an escape or a surrogate pair), `…` inside the quotes.
 */
export declare function quoted(text: string, limit?: number): string;
/**
 * `value` as one line of JSON a reader cannot misread: JSON.stringify's text, with DEL, C1 controls, U+2028/U+2029
 * and the bidirectional overrides written as `\uXXXX`. They occur only inside its strings, where the escape means the
 * same character: every string in it stays closed, and it holds no line break.
 */
export declare function plainJson(value: unknown): string;
