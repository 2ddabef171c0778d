// Every cut of a text a user or a host gave goes through cutText: a cut by UTF-16 code units may split a surrogate pair
// (an emoji at the limit), and a lone surrogate is a text PostgreSQL's jsonb refuses (the write fails, the stop or
// interruption it carried is lost). wellFormed/wellFormedDeep repair what already holds one (a state written before
// this rule, a host's payload), so the stores never hand one on.

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` cut to at most `limit` UTF-16 code units, ending with `mark` when cut; the cut never splits a surrogate pair
 * (the pair is left out whole, so the result may be one unit shorter than the limit).
 */
export function cutText(text: string, limit: number, mark = '…'): string {
  if (text.length <= limit) return text;
  let end = Math.max(0, limit - mark.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${mark}`;
}

/** Cuts `text` to at most `limit` characters, marking the cut with `…` (cutText). */
export function excerpt(text: string, limit: number): string {
  return cutText(text, limit);
}

/** `text` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which ES2022 lacks). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** True when `text` holds no lone surrogate. */
export function isWellFormed(text: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(text);
}

/**
 * A JSON value with every string (values and keys) well-formed (wellFormed); the value itself when it holds no lone
 * surrogate, so the common case allocates nothing. Recursive: callers walk only a value whose text showed a lone
 * surrogate, and a value nested past the stack throws RangeError as JSON.stringify would.
 */
export function wellFormedDeep<T>(value: T): T {
  return repair(value) as T;
}

// --- internal ---

function repair(value: unknown): unknown {
  if (typeof value === 'string') return isWellFormed(value) ? value : wellFormed(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, index) => {
      const fixed = repair(item);
      if (fixed !== item) (out ??= [...value])[index] = fixed;
    });
    return out ?? value;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const fixedKey = isWellFormed(key) ? key : wellFormed(key);
    const fixed = repair(item);
    if (fixedKey !== key || fixed !== item) changed = true;
    return [fixedKey, fixed] as const;
  });
  if (!changed) return value;
  // defineProperty, not assignment: a key `__proto__` stays a plain key, as JSON.parse makes it.
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries)
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  return out;
}
