import { agentFileNames, isPlainAgentId, sessionFolders } from '../core/claude-transcript';
import type { AgentLaunchFacts } from '../core/permission';
import { errnoCode } from '../platform/errno';
import { joinPath } from '../platform/paths';
import { readCapped } from '../platform/read-capped';

// Issue 33: how a Claude Code sub-agent was launched, read from its meta file
// (`<projects>/<slug>/<session_id>/subagents/agent-<agent_id>.meta.json`, ~300 bytes): whether anybody can answer its
// permission request (core/permission.ts goesToInbox).

/** A meta file is ~300 bytes; anything much larger is not one. */
const META_BYTES = 64 * 1024;

/**
 * The launch facts of the sub-agent `agentId` of the payload's session, or null when they cannot be known (no usable
 * `transcript_path`/`session_id`/`cwd`, an id that is not a plain name, no meta file, one that is not JSON).
 * @throws the file system's error other than an absent file (the caller's fail-open answer then leaves the request
 *   to the host)
 */
export function agentLaunchFacts(
  payload: { readonly transcript_path?: unknown; readonly session_id?: unknown; readonly cwd?: unknown },
  agentId: unknown,
): AgentLaunchFacts | null {
  const folders = sessionFolders(payload);
  if (folders === null || !isPlainAgentId(agentId)) return null;
  let bytes: Buffer | 'too-large';
  try {
    bytes = readCapped(joinPath(folders.subagentsDir, agentFileNames(agentId).meta), META_BYTES);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw error;
  }
  if (bytes === 'too-large') return null;
  try {
    const meta: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof meta !== 'object' || meta === null) return null;
    const { requestShape, requestNonInteractive } = meta as Record<string, unknown>;
    return { requestShape, requestNonInteractive };
  } catch {
    return null;
  }
}
