// What a Claude Code sub-agent's transcript says it spent (issue 43 item 1): pure rules over its rows (the reading is
// service/transcript-usage.ts), and the estimated cost of those tokens by a documented price table.

/** Tokens as the host counts them for one model. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_creation: number;
}

/** What some rows of a transcript add to a session's record. */
export interface WorkTally {
  /** Tokens per model (`message.model` of each assistant reply). */
  readonly tokens: Readonly<Record<string, TokenCounts>>;
  /** Tool calls (tool_use blocks). */
  readonly steps: number;
  /** The `file_path` of each Write, Edit, MultiEdit and NotebookEdit call, each once, in the order first seen. */
  readonly files_modified: readonly string[];
  /** The `message.id` of the last reply counted: its other rows (one per content block) add no tokens again. */
  readonly last_message_id?: string;
}

export const EMPTY_TALLY: WorkTally = { tokens: {}, steps: 0, files_modified: [] };

/** The tools whose `file_path` is a file the agent modified. */
const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Adds the complete JSONL rows of `text` (a transcript's lines, read from where the last read ended) to `tally`.
 * Claude Code writes one row per content block of a reply, each with the reply's `usage`: a reply's tokens count once
 * (its first row), its tool calls each. Rows that are not JSON objects, or not assistant replies, add nothing.
 */
export function tallyRows(tally: WorkTally, text: string): WorkTally {
  const tokens: Record<string, TokenCounts> = { ...tally.tokens };
  let steps = tally.steps;
  const files = [...tally.files_modified];
  const seen = new Set(files);
  let lastId = tally.last_message_id;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    const message = record(record(row)?.message);
    if (record(row)?.type !== 'assistant' || message === undefined) continue;
    const id = typeof message.id === 'string' ? message.id : undefined;
    const usage = record(message.usage);
    if (usage !== undefined && (id === undefined || id !== lastId)) {
      const model = typeof message.model === 'string' && message.model !== '' ? message.model : 'unknown';
      const before = tokens[model] ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
      tokens[model] = {
        input: before.input + count(usage.input_tokens),
        output: before.output + count(usage.output_tokens),
        cache_read: before.cache_read + count(usage.cache_read_input_tokens),
        cache_creation: before.cache_creation + count(usage.cache_creation_input_tokens),
      };
    }
    if (id !== undefined) lastId = id;
    const content = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    for (const block of content) {
      const call = record(block);
      if (call?.type !== 'tool_use') continue;
      steps += 1;
      const input = record(call.input);
      const path = input?.file_path ?? input?.notebook_path;
      if (EDIT_TOOLS.has(String(call.name)) && typeof path === 'string' && !seen.has(path)) {
        seen.add(path);
        files.push(path);
      }
    }
  }
  return { tokens, steps, files_modified: files, ...(lastId === undefined ? {} : { last_message_id: lastId }) };
}

/** Prices in US dollars per million tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_creation: number;
}

/**
 * Anthropic's list prices per million tokens (anthropic.com/pricing, December 2026), by model family: the first pattern a model name
 * contains wins. Cache creation at the 5-minute rate (1.25 × input), cache reads at 0.1 × input. The user overrides
 * any family, or adds one, by the same name.
 */
export const PRICE_TABLE: readonly { readonly family: string; readonly match: string; readonly price: Price }[] = [
  { family: 'opus-4.5', match: 'opus-4-5', price: { input: 5, output: 25, cache_read: 0.5, cache_creation: 6.25 } },
  { family: 'opus-4.6', match: 'opus-4-6', price: { input: 5, output: 25, cache_read: 0.5, cache_creation: 6.25 } },
  { family: 'opus', match: 'opus', price: { input: 15, output: 75, cache_read: 1.5, cache_creation: 18.75 } },
  { family: 'sonnet', match: 'sonnet', price: { input: 3, output: 15, cache_read: 0.3, cache_creation: 3.75 } },
  { family: 'haiku-4.5', match: 'haiku-4', price: { input: 1, output: 5, cache_read: 0.1, cache_creation: 1.25 } },
  { family: 'haiku', match: 'haiku', price: { input: 0.8, output: 4, cache_read: 0.08, cache_creation: 1 } },
];

/** The price of `model`: an override of its family (or of the model's exact name) first, else the table's; or null. */
export function priceOf(model: string, overrides: Readonly<Record<string, Price>> = {}): Price | null {
  if (Object.hasOwn(overrides, model)) return overrides[model]!;
  for (const row of PRICE_TABLE) {
    if (!model.includes(row.match)) continue;
    return Object.hasOwn(overrides, row.family) ? overrides[row.family]! : row.price;
  }
  return null;
}

/**
 * The estimated cost in US dollars of `tokens` (per model) at the table's prices (with `overrides`), and the models
 * it has no price for (their tokens count nothing: the figure is then a floor).
 */
export function estimateCost(
  tokens: Readonly<Record<string, TokenCounts>>,
  overrides: Readonly<Record<string, Price>> = {},
): { readonly usd: number; readonly estimated: true; readonly unpriced: readonly string[] } {
  let usd = 0;
  const unpriced: string[] = [];
  for (const [model, counts] of Object.entries(tokens)) {
    const price = priceOf(model, overrides);
    if (price === null) {
      unpriced.push(model);
      continue;
    }
    usd +=
      (counts.input * price.input +
        counts.output * price.output +
        counts.cache_read * price.cache_read +
        counts.cache_creation * price.cache_creation) /
      1_000_000;
  }
  return { usd, estimated: true, unpriced };
}

// --- internal ---

function record(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}
