import { agentFileNames, isPlainAgentId, sessionFolders } from '../core/claude-transcript';
import type { AgentLaunchFacts } from '../core/permission';
import { errnoCode } from '../platform/errno';
import { firstLine } from '../platform/file-copy';
import { joinPath } from '../platform/paths';
import { readCapped } from '../platform/read-capped';

// Issue 33: how a Claude Code sub-agent was launched, read from its two files
// (`<projects>/<slug>/<session_id>/subagents/agent-<agent_id>.meta.json` and `.jsonl`): whether anybody can answer its
// permission request (core/permission.ts goesToInbox).

/** A meta file is ~300 bytes; anything much larger is not one. */
const META_BYTES = 64 * 1024;
/** A transcript's first row holds the agent's prompt: a few KB as a rule; a longer one leaves the entrypoint unknown. */
export const HEAD_BYTES = 256 * 1024;

/**
 * The launch facts of the sub-agent `agentId` of the payload's session (its meta file's `requestShape`, its
 * transcript's first row's `entrypoint`), or null when neither can be known (no usable `transcript_path`/`session_id`/
 * `cwd`, an id that is not a plain name, no files, no JSON).
 * @throws the file system's error other than an absent file (the caller's fail-open answer then leaves the request
 *   to the host)
 */
export function agentLaunchFacts(
  payload: { readonly transcript_path?: unknown; readonly session_id?: unknown; readonly cwd?: unknown },
  agentId: unknown,
): AgentLaunchFacts | null {
  const folders = sessionFolders(payload);
  if (folders === null || !isPlainAgentId(agentId)) return null;
  const names = agentFileNames(agentId);
  const meta = jsonObject(readMeta(joinPath(folders.subagentsDir, names.meta)));
  const head = jsonObject(firstLine(joinPath(folders.subagentsDir, names.transcript), HEAD_BYTES));
  if (meta === null && head === null) return null;
  return { requestShape: meta?.requestShape, entrypoint: head?.entrypoint };
}

/** A meta file's text, or null when absent or too large to be one. */
export function readMeta(path: string): string | null {
  try {
    const bytes = readCapped(path, META_BYTES);
    return bytes === 'too-large' ? null : bytes.toString('utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw error;
  }
}

/** The JSON object a text holds, or null (no text, no JSON, not an object). */
export function jsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
