import type { AgentLaunchFacts } from '../core/permission';
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
