import { agentFileNames, isPlainAgentId, sessionFolders } from '../core/claude-transcript';
import { agentNameProblem } from '../core/input';
import { firstLine } from '../platform/file-copy';
import { namesOrNull } from '../platform/files';
import { joinPath } from '../platform/paths';
import { HEAD_BYTES, jsonObject, readMeta } from './agent-launch';

// Claude Code's Interrupt (2.1.335+) names no sub-agent: the ones it cut off are read from the main session's
// `subagents/` folder. Measured on 2.1.337 (tests/fixtures/claude-code/README.md): Esc during a foreground sub-agent
// aborts it (no SubagentStop, no StopFailure, its meta file never gets `finished: true`) and Interrupt follows; a
// background sub-agent goes on working (it is no one's to interrupt).

/** A sub-agent the main turn's interrupt cut off. */
export interface CutAgent {
  readonly agent_id: string;
  /**
   * Its agent type, when its transcript says it started in the interrupted turn (so its session may be made or relinked
   * if its own start has not been handled yet); absent: only a session already attached to it is found.
   */
  readonly agent_type?: string;
}

/**
 * Which agents: `turn`, the foreground ones the main turn's interrupt cut off (Interrupt); `resume`, every one of the
 * resumed session that has not finished, foreground or background: its process ended without them, and Claude Code
 * closes each as `unfinished_at_resume` (SessionStart `source: "resume"`; the session keeps its id). Those are only
 * found where attached already (no `agent_type`).
 */
export type CutScope = 'turn' | 'resume';

/** Agents looked at, at most: a main session of more sub-agents is not one a person interrupts by hand. */
export const CUT_AGENTS_LIMIT = 500;

/**
 * The sub-agents of the payload's main session that have not finished (their meta file has no `finished: true`): with
 * `turn`, the foreground ones (`requestShape`), minus those whose transcript says they started in another turn than
 * the payload's `prompt_id`; with `resume`, all. Empty when the payload names no usable session folder or it has no
 * sub-agents.
 * @throws the file system's error other than an absent file (the hook's fail-open answer logs it)
 */
export function cutOffAgents(
  payload: {
    readonly transcript_path?: unknown;
    readonly session_id?: unknown;
    readonly cwd?: unknown;
    readonly prompt_id?: unknown;
  },
  scope: CutScope = 'turn',
): CutAgent[] {
  const folders = sessionFolders(payload);
  if (folders === null) return [];
  const names = namesOrNull(folders.subagentsDir) ?? [];
  const ids = names
    .map((name) => /^agent-(.+)\.meta\.json$/.exec(name)?.[1])
    .filter(isPlainAgentId)
    .slice(0, CUT_AGENTS_LIMIT);
  const cut: CutAgent[] = [];
  for (const agentId of ids) {
    const files = agentFileNames(agentId);
    const meta = jsonObject(readMeta(joinPath(folders.subagentsDir, files.meta)));
    if (meta === null || meta.finished === true) continue;
    if (scope === 'resume') {
      cut.push({ agent_id: agentId });
      continue;
    }
    if (meta.requestShape !== 'foreground') continue;
    const head = jsonObject(firstLine(joinPath(folders.subagentsDir, files.transcript), HEAD_BYTES));
    const turn = head?.promptId;
    const thisTurn =
      typeof turn === 'string' && typeof payload.prompt_id === 'string' ? turn === payload.prompt_id : null;
    if (thisTurn === false) continue;
    const type = meta.agentType;
    const named = thisTurn === true && typeof type === 'string' && type !== '' && agentNameProblem(type) === null;
    cut.push({ agent_id: agentId, ...(named ? { agent_type: type } : {}) });
  }
  return cut;
}
