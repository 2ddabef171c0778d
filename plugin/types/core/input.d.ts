import type { Metadata } from './state';
/** Far beyond any real agent type (`terraform-architect`, `my-plugin:reviewer`); every display and log line shows it. */
export declare const MAX_AGENT_NAME_LENGTH = 256;
/** Far beyond any real metadata, far below what JSON.stringify can write. */
export declare const MAX_METADATA_DEPTH = 100;
/**
 * The most a session's metadata may hold, as compact JSON in UTF-8 bytes: what one `--metadata` may bring, and what
 * the merge of every update may grow to, so no session grows without bound (each read and hook answer carries it).
 */
export declare const MAX_METADATA_BYTES: number;
/**
 * Why `name` cannot be an agent name (blank, longer than 256 characters, control characters, bidirectional overrides,
 * not text), or null when
 * it can. The one naming rule: `create`, `import`, the hooks of both protocols, the library and `--by` apply it.
 */
export declare function agentNameProblem(name: unknown): string | null;
/** Why `value` cannot be a required text (`--purpose` and the like: blank or not text), or null when it can. */
export declare function requiredTextProblem(value: unknown): string | null;
/**
 * Checks an agent name as `create` takes it.
 * @throws SessionError E_USAGE naming the value and the rule
 */
export declare function assertAgentName(name: unknown, label?: string): string;
/**
 * Checks a required text value (purpose, summary, error message).
 * @throws SessionError E_USAGE when it is not a string
 */
export declare function assertText(value: unknown, label: string): string;
/**
 * Checks metadata: a plain object holding only what JSON writes back as it was (text, finite numbers, booleans,
 * null, arrays and plain objects), nested at most MAX_METADATA_DEPTH levels, at most MAX_METADATA_BYTES as JSON. A
 * loop, not recursion: any depth (or a cycle, which is too deep) is refused without running out of stack.
 * @throws SessionError E_USAGE naming the first value that is not JSON, the depth, or the size and the limit
 */
export declare function assertMetadata(value: unknown, label?: string): Metadata;
/**
 * Why the metadata of a session held elsewhere (an import) breaks the rules of assertMetadata, or null: the same
 * rules `create` and `update` apply.
 */
export declare function metadataProblem(value: unknown): string | null;
/**
 * Checks the metadata an update leaves: at most MAX_METADATA_BYTES as JSON. An update that shrinks metadata an older
 * version let grow past the limit is let through, so such a session can still be trimmed (`{"big": null}`).
 * @throws SessionError E_USAGE naming the size and the limit
 */
export declare function assertMergedMetadata(merged: Metadata, before: Metadata, id: string): void;
/** The size of `value` as compact JSON, in UTF-8 bytes (without Buffer: the core runs anywhere). */
export declare function jsonBytes(value: unknown): number;
/**
 * Checks a number of hours, 0 or more, fractions allowed (cleanup's `hours`).
 * @throws SessionError E_USAGE naming the value: not a number (a text too), negative, NaN or infinite
 */
export declare function assertHours(value: unknown, label?: string): number;
/**
 * Parses `--hours` from the command line: a decimal text (or a number), then the rule of assertHours.
 * @throws SessionError E_USAGE
 */
export declare function parseHours(raw: unknown, flag?: string): number;
