import type { SessionState } from '../core/state-schema';
/** A state.json as SessionStateSchema parses it. Undefined where zod fails. */
export declare function parseSessionState(value: unknown): SessionState | undefined;
