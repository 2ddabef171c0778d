import {
  agentFileNames,
  chooseContinuation,
  isPlainAgentId,
  sessionFolders,
  transcriptHead,
  type ContinuationChoice,
  type ContinuationFacts,
  type ContinuationSettings,
  type FoundTranscript,
  type SessionFolders,
} from '../core/claude-transcript';
import { isSessionError } from '../core/errors';
import { copyNewFile, entryAt, firstLine, folderNames, type CopyOutcome } from '../platform/file-copy';
import { joinPath } from '../platform/paths';
import { ensurePrivateDir } from '../platform/private-fs';

// Issue 34, the I/O around core/claude-transcript.ts: gather the facts about one Claude agent's transcript in the
// current Claude project (`~/.claude/projects/<slug>/*/subagents/`), and bring its two files into the current
// session's folder when the core's choice says so. Nothing is read or written outside `<projects>/<slug>/`.

/**
 * The most of a transcript's first row that is read to learn its agent and folder: the row holds the agent's prompt,
 * a few KB as a rule (745 bytes in the host plays); a longer one leaves the transcript's layout unknown.
 */
const HEAD_BYTES = 256 * 1024;

/** A session folder's name as Claude Code makes them (UUIDs), or any plain name: never `.`/`..` or a path. */
const SESSION_FOLDER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** What the hook knows when it asks: the payload's session fields, the agent id, and our record of that agent. */
export interface ContinuationAsk {
  readonly payload: { readonly transcript_path?: unknown; readonly session_id?: unknown; readonly cwd?: unknown };
  /** SendMessage's `tool_input.to`, or the Claude agent a parked session records. */
  readonly agentId: unknown;
  /** See ContinuationFacts `recorded`. */
  readonly recorded: ContinuationFacts['recorded'];
  /**
   * The Claude session the agent last ran in, as our link records it (`claude.session_id`, updated by every
   * SubagentStart of the agent): looked at first, and when the transcript is there no other session folder is read
   * (a project keeps every session it ever had; the hook then costs a few system calls, not one per session).
   */
  readonly sessionHint?: string;
}

/** The agent's files in one session folder, or null when its transcript is not there. */
function foundIn(subagentsDir: string, sessionId: string, agentId: string): FoundTranscript | null {
  const names = agentFileNames(agentId);
  const transcriptPath = joinPath(subagentsDir, names.transcript);
  const transcript = entryAt(transcriptPath);
  if (transcript === null) return null;
  const line = transcript.kind === 'file' ? firstLine(transcriptPath, HEAD_BYTES) : null;
  return {
    sessionId,
    transcript,
    meta: entryAt(joinPath(subagentsDir, names.meta)),
    head: line === null ? null : transcriptHead(line),
  };
}

/**
 * The facts chooseContinuation needs, read from the disk: the agent's transcript in the current session's folder, or
 * else in the hinted session's folder, or else in every other session folder of the project (real folders only: a
 * symbolic link in their place is not followed).
 * @throws SessionError E_IO when a folder or file cannot be read (not when it is absent)
 */
export function gatherContinuationFacts(ask: ContinuationAsk): ContinuationFacts {
  const folders = sessionFolders(ask.payload);
  const { agentId, recorded } = ask;
  const nothing: ContinuationFacts = { agentId, folders, here: null, earlier: [], recorded };
  if (folders === null || !isPlainAgentId(agentId)) return nothing;
  const here =
    entryAt(folders.subagentsDir)?.kind === 'folder' ? foundIn(folders.subagentsDir, folders.sessionId, agentId) : null;
  // In this session's folder already: that copy is the one Claude Code continues; the other folders are not read.
  if (here !== null) return { ...nothing, here };
  const hint = ask.sessionHint;
  if (hint !== undefined && hint !== folders.sessionId && SESSION_FOLDER.test(hint)) {
    const subagents = joinPath(folders.projectDir, hint, 'subagents');
    const found = entryAt(subagents)?.kind === 'folder' ? foundIn(subagents, hint, agentId) : null;
    if (found !== null) return { agentId, folders, here, earlier: [found], recorded };
  }
  const earlier: FoundTranscript[] = [];
  for (const name of folderNames(folders.projectDir) ?? []) {
    if (name === folders.sessionId || !SESSION_FOLDER.test(name)) continue;
    const subagents = joinPath(folders.projectDir, name, 'subagents');
    if (entryAt(subagents)?.kind !== 'folder') continue;
    const found = foundIn(subagents, name, agentId);
    if (found !== null) earlier.push(found);
  }
  return { agentId, folders, here, earlier, recorded };
}

/** What bringing the two files did: the transcript's copy outcome, or `refused` (a folder on the way is a link). */
export type BringOutcome = CopyOutcome | 'refused';

/**
 * Copies the chosen agent's `.meta.json` and then its `.jsonl` from an earlier session folder into the current one's
 * `subagents/` (made 0700 when absent; a symbolic link in the place of either folder is refused), never over an
 * existing file: the meta file first, so that Claude Code, which looks for the `.jsonl`, never finds it without the
 * agent's type. A meta file that cannot be copied leaves the transcript where it is.
 * @param maxBytes the most the transcript may hold now (it may have grown since it was looked at)
 * @throws SessionError E_IO for a failure to read or write that is not one of the outcomes
 */
export function bringTranscript(
  folders: SessionFolders,
  from: FoundTranscript,
  agentId: string,
  maxBytes: number,
): BringOutcome {
  const names = agentFileNames(agentId);
  if (!SESSION_FOLDER.test(from.sessionId) || from.sessionId === folders.sessionId) return 'refused';
  if (entryAt(folders.projectDir)?.kind !== 'folder') return 'refused';
  try {
    ensurePrivateDir(folders.sessionDir);
    ensurePrivateDir(folders.subagentsDir);
  } catch (error) {
    if (isSessionError(error, 'E_REFUSED') || isSessionError(error, 'E_NOT_FOUND')) return 'refused';
    throw error;
  }
  const source = joinPath(folders.projectDir, from.sessionId, 'subagents');
  // The meta file is small (~300 bytes); its limit is the transcript's.
  const meta = copyNewFile(joinPath(source, names.meta), joinPath(folders.subagentsDir, names.meta), maxBytes);
  if (meta !== 'copied' && meta !== 'exists') return meta;
  return copyNewFile(joinPath(source, names.transcript), joinPath(folders.subagentsDir, names.transcript), maxBytes, {
    wholeLines: true,
  });
}

/** The choice for one agent id, and, when its transcript was brought from an earlier session, how that went. */
export interface Continuation {
  readonly choice: ContinuationChoice;
  readonly brought?: BringOutcome;
}

/**
 * PreToolUse(SendMessage)'s use case: gathers the facts, chooses, and brings the transcript over when the choice is
 * to continue it from an earlier session of the project.
 * @throws SessionError E_IO (the hook logs it and answers nothing: SendMessage then goes on as without us)
 */
export function continueWithContext(ask: ContinuationAsk, settings: ContinuationSettings): Continuation {
  const facts = gatherContinuationFacts(ask);
  const choice = chooseContinuation(facts, settings);
  if (choice.kind !== 'continue' || choice.where !== 'earlier' || facts.folders === null) return { choice };
  return { choice, brought: bringTranscript(facts.folders, choice.from, choice.agentId, settings.maxTranscriptBytes) };
}

/**
 * Whether a recorded agent can be continued from the current session, without changing anything: what the context
 * before a delegation (the parked list, the PreToolUse(Agent) answer) and `show` say about it.
 * @throws SessionError E_IO
 */
export function continuationOf(ask: ContinuationAsk, settings: ContinuationSettings): ContinuationChoice {
  return chooseContinuation(gatherContinuationFacts(ask), settings);
}
