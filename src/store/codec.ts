import { SessionError, isSessionError } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { parseState, type SessionState } from '../core/state';

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
 * The stored text of a state (compact JSON), for the backends that keep it as one text (memory, PostgreSQL).
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export function encodeState(state: SessionState): string {
  try {
    return JSON.stringify(state);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new SessionError(
      'E_USAGE',
      `Expected the state of session \`${state.agent_id}\` to nest less deeply, got metadata too deep to write`,
    );
  }
}
