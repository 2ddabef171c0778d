/**
 * `text` cut to at most `limit` UTF-16 code units, ending with `mark` when cut; the cut never splits a surrogate pair
 * (the pair is left out whole, so the result may be one unit shorter than the limit).
 */
export declare function cutText(text: string, limit: number, mark?: string): string;
/** Cuts `text` to at most `limit` characters, marking the cut with `…` (cutText). */
export declare function excerpt(text: string, limit: number): string;
/** `text` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which ES2022 lacks). */
export declare function wellFormed(text: string): string;
/** True when `text` holds no lone surrogate. */
export declare function isWellFormed(text: string): boolean;
/**
 * A JSON value with every string (values and keys) well-formed (wellFormed); the value itself when it holds no lone
 * surrogate, so the common case allocates nothing. Recursive: callers walk only a value whose text showed a lone
 * surrogate, and a value nested past the stack throws RangeError as JSON.stringify would.
 */
export declare function wellFormedDeep<T>(value: T): T;
