import { parseDecimal } from './decimal';
import { SessionError, show } from './errors';
import type { Metadata } from './state';

/**
 * The checks of what a caller hands in (CLI options, library calls, imported files), in one place so the CLI, the
 * library and import agree: what one accepts the others accept, and the store's own reader never rejects it.
 */

// C0 controls, DEL and C1 controls: invisible in a name, and able to move a terminal's cursor or clear its screen;
// the line and paragraph separators; the bidirectional overrides and isolates, which reorder what follows on screen.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Far beyond any real agent type (`terraform-architect`, `my-plugin:reviewer`); every display and log line shows it. */
export const MAX_AGENT_NAME_LENGTH = 256;

/** Far beyond any real metadata, far below what JSON.stringify can write. */
export const MAX_METADATA_DEPTH = 100;

/**
 * The most a session's metadata may hold, as compact JSON in UTF-8 bytes: what one `--metadata` may bring, and what
 * the merge of every update may grow to, so no session grows without bound (each read and hook answer carries it).
 */
export const MAX_METADATA_BYTES = 1024 * 1024;

/**
 * Why `name` cannot be an agent name (blank, longer than 256 characters, control characters, bidirectional overrides,
 * not text), or null when
 * it can. The one naming rule: `create`, `import`, the hooks of both protocols, the library and `--by` apply it.
 */
export function agentNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.trim() === '') return `a non-empty name, got ${show(name ?? null)}`;
  if (name.length > MAX_AGENT_NAME_LENGTH)
    return `a name of at most ${MAX_AGENT_NAME_LENGTH} characters, got ${name.length} characters: ${show(name)}`;
  if (CONTROL.test(name))
    return `a name without control characters or bidirectional overrides, got ${show(escapeInvisible(name))}`;
  return null;
}

/** Why `value` cannot be a required text (`--purpose` and the like: blank or not text), or null when it can. */
export function requiredTextProblem(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? null : `a non-empty text, got ${show(value ?? null)}`;
}

/**
 * Checks an agent name as `create` takes it.
 * @throws SessionError E_USAGE naming the value and the rule
 */
export function assertAgentName(name: unknown, label = 'agent'): string {
  const problem = agentNameProblem(name);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected \`${label}\` to be ${problem}`);
  return name as string;
}

/**
 * Checks a required text value (purpose, summary, error message).
 * @throws SessionError E_USAGE when it is not a string
 */
export function assertText(value: unknown, label: string): string {
  if (typeof value !== 'string')
    throw new SessionError('E_USAGE', `Expected \`${label}\` to be a text, got ${show(value ?? null)}`);
  return value;
}

/**
 * Checks metadata: a plain object holding only what JSON writes back as it was (text, finite numbers, booleans,
 * null, arrays and plain objects), nested at most MAX_METADATA_DEPTH levels, at most MAX_METADATA_BYTES as JSON. A
 * loop, not recursion: any depth (or a cycle, which is too deep) is refused without running out of stack.
 * @throws SessionError E_USAGE naming the first value that is not JSON, the depth, or the size and the limit
 */
export function assertMetadata(value: unknown, label = 'metadata'): Metadata {
  assertMetadataShape(value, label);
  const bytes = jsonBytes(value);
  if (bytes > MAX_METADATA_BYTES) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`${label}\` to hold at most ${MAX_METADATA_BYTES} bytes as JSON, got ${bytes} bytes`,
    );
  }
  return value as Metadata;
}

/**
 * Why the metadata of a session held elsewhere (an import) breaks the rules of assertMetadata, or null: the same
 * rules `create` and `update` apply.
 */
export function metadataProblem(value: unknown): string | null {
  try {
    assertMetadata(value);
    return null;
  } catch (error) {
    if (error instanceof SessionError) return error.message;
    throw error;
  }
}

/**
 * Checks the metadata an update leaves: at most MAX_METADATA_BYTES as JSON. An update that shrinks metadata an older
 * version let grow past the limit is let through, so such a session can still be trimmed (`{"big": null}`).
 * @throws SessionError E_USAGE naming the size and the limit
 */
export function assertMergedMetadata(merged: Metadata, before: Metadata, id: string): void {
  const bytes = jsonBytes(merged);
  if (bytes <= MAX_METADATA_BYTES || bytes <= jsonBytes(before)) return;
  throw new SessionError(
    'E_USAGE',
    `Expected the metadata of session \`${id}\` merged with this update to hold at most ${MAX_METADATA_BYTES} bytes as JSON, got ${bytes} bytes`,
  );
}

/** The size of `value` as compact JSON, in UTF-8 bytes (without Buffer: the core runs anywhere). */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // One UTF-16 unit is 1 byte below U+0080, 2 below U+0800, else 3; a surrogate pair (2 units) is 4 bytes.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

function assertMetadataShape(value: unknown, label: string): void {
  if (!isPlainObject(value))
    throw new SessionError('E_USAGE', `Expected \`${label}\` to be a JSON object, got ${describe(value)}`);
  const pending: [unknown, number, string][] = [[value, 1, label]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth, path] = next;
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) {
        throw new SessionError(
          'E_USAGE',
          `Expected \`${path}\` to be a finite number (JSON has no ${String(item)}), got ${String(item)}`,
        );
      }
      continue;
    }
    if (!Array.isArray(item) && !isPlainObject(item)) {
      const kinds = 'text, number, boolean, null, array or object';
      throw new SessionError('E_USAGE', `Expected \`${path}\` to be a JSON value (${kinds}), got ${describe(item)}`);
    }
    if (depth > MAX_METADATA_DEPTH) {
      const expected = `a JSON object nested at most ${MAX_METADATA_DEPTH} levels deep`;
      throw new SessionError('E_USAGE', `Expected \`${label}\` to be ${expected}, got deeper (or a cycle)`);
    }
    for (const [key, child] of Object.entries(item)) pending.push([child, depth + 1, `${path}.${key}`]);
  }
}

/**
 * Checks a number of hours, 0 or more, fractions allowed (cleanup's `hours`).
 * @throws SessionError E_USAGE naming the value: not a number (a text too), negative, NaN or infinite
 */
export function assertHours(value: unknown, label = 'hours'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`${label}\` to be a number of hours, 0 or more, got ${show(value ?? null)}`,
    );
  }
  return value;
}

/**
 * Parses `--hours` from the command line: a decimal text (or a number), then the rule of assertHours.
 * @throws SessionError E_USAGE
 */
export function parseHours(raw: unknown, flag = '--hours'): number {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimal(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < 0) {
    throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a number of hours, 0 or more, got ${show(raw)}`);
  }
  return value;
}

// --- internal ---

/** A refused name as a message may show it: its invisible characters as `\uXXXX` (show() escapes only C0). */
function escapeInvisible(name: string): string {
  return name.replace(/[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `a BigInt (${value}n)`;
  if (typeof value === 'function' || typeof value === 'symbol' || value === undefined) return `a ${typeof value}`;
  if (Array.isArray(value)) return `an array ${show(value)}`;
  if (typeof value === 'object' && value !== null && !isPlainObject(value))
    return `a ${value.constructor?.name ?? 'non-plain'} object`;
  return show(value);
}
