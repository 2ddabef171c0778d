import { SessionError, show } from '../core/errors';
import { assertMetadata } from '../core/input';

// The hours rule is the library's too (Sessions.cleanup); it lives with the other input rules.
export { parseHours } from '../core/input';
import type { Metadata } from '../core/state';

/**
 * Parses `--metadata`: a JSON object.
 * @throws SessionError E_USAGE naming the flag and the value
 */
export function parseMetadata(text: string | undefined, flag = '--metadata'): Metadata | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse only fails on syntax; the message below says what was expected.
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a JSON object, got ${show(text)} (not valid JSON)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a JSON object, got ${show(text)}`);
  }
  // The library's rules (input.ts): JSON.parse reads nesting that the indented state.json could not be written with.
  return assertMetadata(value, flag);
}

/**
 * Checks a required non-empty text option.
 * @throws SessionError E_USAGE
 */
export function requireText(raw: unknown, flag: string): string {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a non-empty text, got ${show(raw ?? '')}`);
  return raw;
}
