import type { AgentLaunchFacts } from '../core/permission';
/** A transcript's first row holds the agent's prompt: a few KB as a rule; a longer one leaves the entrypoint unknown. */
export declare const HEAD_BYTES: number;
/**
 * The launch facts of the sub-agent `agentId` of the payload's session (its meta file's `requestShape`, its
 * transcript's first row's `entrypoint`), or null when neither can be known (no usable `transcript_path`/`session_id`/
 * `cwd`, an id that is not a plain name, no files, no JSON).
 * @throws the file system's error other than an absent file (the caller's fail-open answer then leaves the request
 *   to the host)
 */
export declare function agentLaunchFacts(payload: {
    readonly transcript_path?: unknown;
    readonly session_id?: unknown;
    readonly cwd?: unknown;
}, agentId: unknown): AgentLaunchFacts | null;
/** A meta file's text, or null when absent or too large to be one. */
export declare function readMeta(path: string): string | null;
/** The JSON object a text holds, or null (no text, no JSON, not an object). */
export declare function jsonObject(text: string | null): Record<string, unknown> | null;
