import { parseDecimal } from '../core/decimal';
import { SessionError, show } from '../core/errors';
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
  // JSON.parse reads nesting that the indented state.json could not be written with (the stack runs out).
  if (nestedDeeperThan(value, MAX_METADATA_DEPTH)) {
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a JSON object nested at most ${MAX_METADATA_DEPTH} levels deep, got ${show(text)}`);
  }
  return value as Metadata;
}

/** Far beyond any real metadata, far below what JSON.stringify can write. */
const MAX_METADATA_DEPTH = 100;

/**
 * Parses a non-negative number of hours (fractions allowed).
 * @throws SessionError E_USAGE
 */
export function parseHours(raw: unknown, flag = '--hours'): number {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimal(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < 0) {
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a number of hours, 0 or more, got ${show(raw)}`);
  }
  return value;
}

/**
 * Checks a required non-empty text option.
 * @throws SessionError E_USAGE
 */
export function requireText(raw: unknown, flag: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a non-empty text, got ${show(raw ?? '')}`);
  return raw;
}

// --- internal ---

/** True when objects and arrays in `value` nest deeper than `limit`; a loop, not recursion, so any depth is safe. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
