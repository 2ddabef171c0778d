import { SessionError, isSessionError } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { parseState, type SessionState } from '../core/state';
import { isWellFormed, wellFormedDeep } from '../core/text';

// A lone surrogate in JSON text: JSON.stringify writes one as this escape (a pair it writes as it is), and a file
// written so reads back as one. A match inside an escaped backslash (`\\ud800`) only costs a walk that finds nothing.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The state stored as `text` for session `id`, through the strict schema; every backend reads with it. Anything
 * else is E_CORRUPT naming `what` (state.json, the stored state) and where the JSON breaks, never its bytes:
 * JSON.parse's own message quotes the text, and a secret in metadata would show.
 */
export function decodeState(id: string, text: string, what: string): SessionState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${what} is not valid JSON (${describeJsonError(text)})`);
  }
  // A state that holds a lone surrogate (cut inside a pair by an older version, a host's payload) is read with U+FFFD in
  // its place: PostgreSQL's jsonb refuses one, so a state read here can always be written anywhere (copy, update).
  if (SURROGATE_ESCAPE.test(text) || !isWellFormed(text)) {
    try {
      raw = wellFormedDeep(raw);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${what} nests too deeply to read`);
    }
  }
  let state: SessionState;
  try {
    state = parseState(raw);
  } catch (error) {
    if (isSessionError(error)) throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${error.message}`);
    throw error;
  }
  if (state.agent_id !== id) {
    throw new SessionError('E_CORRUPT', `Session \`${id}\`: ${what} names a different agent_id \`${state.agent_id}\``);
  }
  return state;
}

/**
 * The project a stored state names, read from its JSON alone: for an entry the schema refuses (a newer version's
 * state, one bad field), whose project still decides who may remove it. Undefined when the text is not a JSON object
 * or names no project (a non-empty text).
 */
export function namedProject(text: string): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const project: unknown = (raw as Record<string, unknown>).project;
  return typeof project === 'string' && project !== '' ? project : undefined;
}

/**
 * The stored text of a state (compact JSON), for the backends that keep it as one text (memory, PostgreSQL).
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export function encodeState(state: SessionState): string {
  return stateJson(state);
}

/**
 * A state as JSON text, each lone surrogate written as U+FFFD (see decodeState); `indent` as JSON.stringify's.
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export function stateJson(state: SessionState, indent?: number): string {
  try {
    const text = JSON.stringify(state, null, indent);
    return SURROGATE_ESCAPE.test(text) ? JSON.stringify(wellFormedDeep(state), null, indent) : text;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new SessionError(
      'E_USAGE',
      `Expected the state of session \`${state.agent_id}\` to nest less deeply, got metadata too deep to write`,
    );
  }
}
