/** What a caller-chosen session id may look like: one safe path segment. */
export declare const ID_PATTERN: RegExp;
/** True when `id` is a string that is safe to use as a session folder name. */
export declare function isValidId(id: unknown): id is string;
/**
 * Checks an id before any disk access, so no id can name a path outside the store.
 * @throws SessionError E_USAGE when the id is not one safe path segment.
 */
export declare function assertValidId(id: unknown, name?: string): string;
/**
 * A new id `agent-YYYYMMDD-HHMMSS-xxxxxxxx`: UTC time and 8 random hex digits.
 * @param now the creation time
 * @param randomHex 8 hex digits; injected so the core stays free of I/O and tests stay deterministic
 */
export declare function generateId(now: Date, randomHex: string): string;
/** How many candidates an ambiguous id names (and how many matches a store is asked for, one more). */
export declare const ID_CANDIDATES = 10;
/**
 * The short form of an id, as listings show it: the last 8 hex digits of a generated id (`agent-…-5bb8adff` →
 * `5bb8adff`), which any command taking an id accepts (see pickId); an id of another form (a caller's `worker-5`)
 * as it is.
 */
export declare function shortId(id: string): string;
/**
 * The one id `text` names among the ids that contain it (`matches`, from the store): the id equal to it, else the only
 * one. As git takes a unique part of a commit's hash: the short form of a listing, or any unique part of an id.
 * @throws SessionError E_NOT_FOUND when none contains it; E_USAGE (exit 2) when several do, naming them
 */
export declare function pickId(text: string, matches: readonly string[]): string;
