// C0 controls (newline, NUL, ESC…), DEL, C1 controls (a lone 0x9B is a CSI to some terminals), and the bidirectional
// overrides and isolates, which reorder what follows them on screen ("Trojan Source").
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A value as a terminal may show it: every control character written as `\uXXXX`, so a name or message can neither
 * move the cursor, clear the screen, change colours, nor break a table row or a one-line error in two.
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// What JSON.stringify leaves as it is but a terminal acts on: DEL, C1 controls, bidirectional overrides and isolates.
// It writes C0 controls as escapes already, and they appear nowhere else in its output but its own indentation.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text as a terminal may show it: DEL, C1 controls and bidirectional overrides written as `\uXXXX`. They occur
 * only inside JSON strings, where the escape means the same character: the text still parses to the same value.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
