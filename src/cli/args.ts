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
  return value as Metadata;
}

/**
 * Parses a non-negative number of hours (fractions allowed).
 * @throws SessionError E_USAGE
 */
export function parseHours(raw: unknown, flag = '--hours'): number {
  // Plain decimals only: Number() would also take `0x10`, `1e3` or `Infinity`.
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
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
