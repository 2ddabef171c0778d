import { type SessionState } from '../core/state';
/**
 * The state stored as `text` for session `id`, through the strict schema; every backend reads with it. Anything
 * else is E_CORRUPT naming `what` (state.json, the stored state) and where the JSON breaks, never its bytes:
 * JSON.parse's own message quotes the text, and a secret in metadata would show.
 */
export declare function decodeState(id: string, text: string, what: string): SessionState;
/**
 * The project a stored state names, read from its JSON alone: for an entry the schema refuses (a newer version's
 * state, one bad field), whose project still decides who may remove it. Undefined when the text is not a JSON object
 * or names no project (a non-empty text).
 */
export declare function namedProject(text: string): string | undefined;
/**
 * The stored text of a state (compact JSON), for the backends that keep it as one text (memory, PostgreSQL).
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export declare function encodeState(state: SessionState): string;
/**
 * A state as JSON text, each lone surrogate written as U+FFFD (see decodeState); `indent` as JSON.stringify's.
 * @throws SessionError E_USAGE when the state nests too deeply for JSON.stringify (metadata from code or an import)
 */
export declare function stateJson(state: SessionState, indent?: number): string;
