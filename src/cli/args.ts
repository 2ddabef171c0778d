import { SessionError, isSessionError, show } from '../core/errors';
import { MAX_METADATA_BYTES, MAX_METADATA_DEPTH, assertMetadata, jsonBytes } from '../core/input';
import { describeJsonError } from '../core/json-error';
import type { Metadata } from '../core/state';
import { errnoCode, ioError } from '../platform/errno';
import { readCapped } from '../platform/read-capped';

// The hours rule is the library's too (Sessions.cleanup); it lives with the other input rules.
export { parseHours } from '../core/input';

/**
 * What main.ts hands `import` for a lone `-` (stdin): a word no one can type (no argument holds a NUL), as yargs
 * reads `-` given as a positional as an empty text.
 */
export const STDIN_FILE = '\u0000stdin';

/**
 * The most `--metadata` may hold, from any source (an argument, `@file` or `-`), and the most a session's merged
 * metadata may grow to (core/input.ts): Linux already refuses a single argument over 128 KiB, so a file or stdin is
 * where larger metadata comes from.
 */
export { MAX_METADATA_BYTES };

/**
 * Parses `--metadata`: a JSON object given as the argument itself. The argument is the user's own text, so a
 * message may quote it (shortened).
 * @throws SessionError E_USAGE naming the flag and the value
 */
export function parseMetadata(text: string | undefined, flag = '--metadata'): Metadata | undefined {
  if (text === undefined) return undefined;
  return parseJsonObject(text, flag, { quote: true });
}

/**
 * Reads every `--metadata` given: each one a JSON object (`'{"k":1}'`), `@FILE` (the object in that file) or `-`
 * (the object on stdin), shallow-merged left to right as successive `update --metadata` would (a later key wins).
 * A file's or stdin's content is never quoted in a message: it may hold secrets; only where its JSON breaks.
 * @param stdin the descriptor `-` reads (0 in the bin)
 * @throws SessionError E_USAGE for a missing file, a text that is not a JSON object, more than MAX_METADATA_BYTES,
 *   stdin named twice; E_IO when a file exists but cannot be read
 */
export function readMetadata(raw: unknown, stdin: number, flag = '--metadata'): Metadata | undefined {
  if (raw === undefined) return undefined;
  const values = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (values.filter((value) => value === '-').length > 1)
    throw new SessionError('E_USAGE', `Expected \`${flag} -\` at most once (stdin is read once), got it twice`);
  let merged: Metadata | undefined;
  for (const value of values) {
    if (typeof value !== 'string')
      throw new SessionError('E_USAGE', `Expected \`${flag}\` to be a JSON object, @FILE or -, got ${show(value)}`);
    const next = readOne(value, stdin, flag);
    merged = merged === undefined ? next : { ...merged, ...next };
  }
  // Merged, the whole must still fit: two large files must not add up past the limit.
  const bytes = values.length > 1 ? jsonBytes(merged) : 0;
  if (bytes > MAX_METADATA_BYTES) {
    throw new SessionError(
      'E_USAGE',
      `Expected \`${flag}\` to hold at most ${MAX_METADATA_BYTES} bytes as JSON, got ${bytes} bytes (merged)`,
    );
  }
  return merged;
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

/** As requireText, for an option that may be left out. */
export function optionalText(raw: unknown, flag: string): string | undefined {
  return raw === undefined ? undefined : requireText(raw, flag);
}

// --- internal ---

function readOne(value: string, stdin: number, flag: string): Metadata {
  if (value === '-') return parseJsonObject(decode(readSource(stdin, `${flag} -`), `${flag} -`), `${flag} -`, {});
  if (!value.startsWith('@')) return parseJsonObject(value, flag, { quote: true });
  const file = value.slice(1);
  const label = `${flag} @${file}`;
  if (file === '') throw new SessionError('E_USAGE', `Expected a file name after \`${flag} @\`, got none`);
  return parseJsonObject(decode(readSource(file, label), label), label, {});
}

function readSource(source: string | number, label: string): Buffer {
  let bytes: Buffer | 'too-large';
  try {
    bytes = readCapped(source, MAX_METADATA_BYTES);
  } catch (error) {
    const code = errnoCode(error);
    const what = `\`${label}\` to name a readable file`;
    if (code === 'ENOENT') throw new SessionError('E_USAGE', `Expected ${what}, got ${show(source)} (not found)`);
    if (code === 'EISDIR') throw new SessionError('E_USAGE', `Expected ${what}, got ${show(source)} (a folder)`);
    throw ioError(error, 'read', typeof source === 'number' ? 'stdin' : source);
  }
  if (bytes === 'too-large')
    throw new SessionError('E_USAGE', `Expected \`${label}\` to hold at most ${MAX_METADATA_BYTES} bytes, got more`);
  return bytes;
}

function decode(bytes: Buffer, label: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // TextDecoder's only failure mode with `fatal` is malformed input.
    throw new SessionError('E_USAGE', `Expected \`${label}\` to be UTF-8 text, got invalid bytes`);
  }
  // A byte order mark (some Windows editors write one) is not JSON, but it is not the user's mistake either.
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function parseJsonObject(text: string, label: string, options: { quote?: boolean }): Metadata {
  const got = (words: string): string => (options.quote ? `${show(text)} (${words})` : words);
  if (Buffer.byteLength(text) > MAX_METADATA_BYTES)
    throw new SessionError('E_USAGE', `Expected \`${label}\` to hold at most ${MAX_METADATA_BYTES} bytes, got more`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text: where it breaks, in words, instead.
    throw new SessionError('E_USAGE', `Expected \`${label}\` to be a JSON object, got ${got(describeJsonError(text))}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new SessionError('E_USAGE', `Expected \`${label}\` to be a JSON object, got ${got(kind)}`);
  }
  // The library's rules (input.ts): JSON.parse reads nesting that the indented state.json could not be written with.
  if (options.quote) return assertMetadata(value, label);
  try {
    return assertMetadata(value, label);
  } catch (error) {
    // Its message names the key path (`1e999` under some key): a file's keys are its content too. The size names
    // only numbers.
    if (!isSessionError(error, 'E_USAGE') || jsonBytes(value) > MAX_METADATA_BYTES) throw error;
    const rules = `finite numbers, nested at most ${MAX_METADATA_DEPTH} levels deep`;
    throw new SessionError(
      'E_USAGE',
      `Expected \`${label}\` to be a JSON object (${rules}), got a value outside these`,
    );
  }
}

/** `--limit`: a whole number of sessions, at least 1. @throws SessionError E_USAGE naming the value */
export function parseLimit(text: string): number {
  if (!/^[1-9]\d{0,8}$/.test(text))
    throw new SessionError('E_USAGE', `Expected \`--limit\` to be a whole number of at least 1, got ${show(text)}`);
  return Number(text);
}
