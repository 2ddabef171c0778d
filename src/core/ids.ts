import { SessionError, show } from './errors';

/** What a caller-chosen session id may look like: one safe path segment. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** True when `id` is a string that is safe to use as a session folder name. */
export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id) && id !== '.' && id !== '..';
}

/**
 * Checks an id before any disk access, so no id can name a path outside the store.
 * @throws SessionError E_USAGE when the id is not one safe path segment.
 */
export function assertValidId(id: unknown, name = 'agent_id'): string {
  if (!isValidId(id)) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`${name}\` to match ${ID_PATTERN.source} (letters, digits, _ . -), got ${show(id)}`,
    );
  }
  return id;
}

/**
 * A new id `agent-YYYYMMDD-HHMMSS-xxxxxxxx`: UTC time and 8 random hex digits.
 * @param now the creation time
 * @param randomHex 8 hex digits; injected so the core stays free of I/O and tests stay deterministic
 */
export function generateId(now: Date, randomHex: string): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `agent-${stamp}-${randomHex}`;
}

/** How many candidates an ambiguous id names (and how many matches a store is asked for, one more). */
export const ID_CANDIDATES = 10;

/**
 * The short form of an id, as listings show it: the last 8 hex digits of a generated id (`agent-…-5bb8adff` →
 * `5bb8adff`), which any command taking an id accepts (see pickId); an id of another form (a caller's `worker-5`)
 * as it is.
 */
export function shortId(id: string): string {
  return /-([0-9a-f]{8})$/.exec(id)?.[1] ?? id;
}

/**
 * The one id `text` names among the ids that contain it (`matches`, from the store): the id equal to it, else the only
 * one. As git takes a unique part of a commit's hash: the short form of a listing, or any unique part of an id.
 * @throws SessionError E_NOT_FOUND when none contains it; E_USAGE (exit 2) when several do, naming them
 */
export function pickId(text: string, matches: readonly string[]): string {
  if (matches.includes(text)) return text;
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new SessionError('E_NOT_FOUND', `Session \`${text}\` not found`);
  const named = [...matches].sort().slice(0, ID_CANDIDATES);
  const more = matches.length > ID_CANDIDATES ? ', …' : '';
  throw new SessionError(
    'E_USAGE',
    `Expected \`${text}\` to name one session, got ${matches.length > ID_CANDIDATES ? 'more than ' + ID_CANDIDATES : matches.length}: ${named.join(', ')}${more} (give more of the id)`,
  );
}
