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
