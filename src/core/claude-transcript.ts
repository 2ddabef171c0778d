// Where Claude Code keeps a sub-agent's transcript, and whether a parked agent can be continued with its context
// (issue 34): pure rules over facts that the service gathers from the disk. Claude Code 2.1.330 and 2.1.332 (verified
// against the real binaries, tests/fixtures/claude-code/README.md) keep a session's main transcript at
// `<projects>/<slug>/<session_id>.jsonl` (the hook payloads' `transcript_path`) and each of its sub-agents at
// `<projects>/<slug>/<session_id>/subagents/agent-<agent_id>.jsonl` beside `agent-<agent_id>.meta.json`. SendMessage
// to an agent id continues that agent only when both files are in the CURRENT session's folder; a copy made by a
// PreToolUse(SendMessage) hook is early enough. Paths here are POSIX strings: the core imports no node: module.

import { SessionError, show } from './errors';
import { cutText } from './text';

/**
 * A Claude Code agent id as this module takes it: one plain name (Claude Code's are `a` and 16 hex digits), never a
 * path: no `/`, no `.` (so no `..`), no NUL or other control character, at most 128 characters.
 */
export const CLAUDE_AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A session id as a folder name: Claude Code's are UUIDs; anything else that is one plain name is accepted too. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The default size above which a transcript is not continued but a primed fresh agent is offered: 512 KiB of
 * transcript, about 100,000 tokens re-sent by the continuation's first request (half of a 200k context window).
 * Measured with 2.1.330 and 2.1.332 (tests/fixtures/claude-code/README.md "Continuing a sub-agent"): a transcript is
 * ~30 KB of fixed rows plus ~1.26 bytes per byte its continuation re-sends; above half the window the continued agent
 * soon meets the host's compaction, which costs a pass over the whole transcript and keeps only a summary: what the
 * primed fresh agent starts from, for far less.
 */
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 512 * 1024;

/** Claude Code cuts a project folder's name to this many characters (and adds a hash of the path). */
const SLUG_CUT = 200;

/** True when `id` is a string this module accepts as a Claude agent id (CLAUDE_AGENT_ID_PATTERN). */
export function isPlainAgentId(id: unknown): id is string {
  return typeof id === 'string' && CLAUDE_AGENT_ID_PATTERN.test(id);
}

/**
 * The two files of a sub-agent in a session's `subagents/` folder.
 * @throws SessionError E_USAGE when `agentId` is not a plain agent id (it would name a path)
 */
export function agentFileNames(agentId: string): { readonly transcript: string; readonly meta: string } {
  if (!isPlainAgentId(agentId))
    throw new SessionError(
      'E_USAGE',
      `Expected a Claude agent id to match ${CLAUDE_AGENT_ID_PATTERN.source}, got ${show(agentId)}`,
    );
  return { transcript: `agent-${agentId}.jsonl`, meta: `agent-${agentId}.meta.json` };
}

/**
 * Claude Code's name for a project's folder under `projects/`: the path with every character but ASCII letters and
 * digits replaced by `-` (so `/home/u/my_app.v2` → `-home-u-my-app-v2`). Paths whose name passes 200 characters get
 * the first 200 and a hash Claude Code does not document: slugMatches compares only what can be known.
 */
export function projectSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

/** True when `slug` is the folder Claude Code names for `path` (for a long path: its first 200 characters and a hash). */
export function slugMatches(path: string, slug: string): boolean {
  const own = projectSlug(path);
  if (own.length <= SLUG_CUT) return own === slug;
  return slug.length > SLUG_CUT + 1 && slug.startsWith(`${own.slice(0, SLUG_CUT)}-`);
}

/** Where the current Claude Code session keeps its sub-agents, read from a hook payload. */
export interface SessionFolders {
  /** `<config>/projects`. */
  readonly projectsDir: string;
  /** `<config>/projects/<slug>`: every session of this Claude project. Nothing is read or written outside it. */
  readonly projectDir: string;
  readonly slug: string;
  readonly sessionId: string;
  /** `<projectDir>/<sessionId>`: may not exist yet (a session makes it with its first sub-agent). */
  readonly sessionDir: string;
  /** `<sessionDir>/subagents`. */
  readonly subagentsDir: string;
  /** The project's own folder: the payload's `cwd` or the nearest folder above it whose slug names `projectDir`. */
  readonly projectRoot: string;
}

/** A normal absolute POSIX path: no empty, `.` or `..` segment, no trailing `/`, no NUL. */
function isNormalAbsolute(path: string): boolean {
  if (!path.startsWith('/') || path.length < 2 || path.endsWith('/') || path.includes('\0')) return false;
  return path
    .slice(1)
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..');
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** True when `path` is `folder` or inside it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder === '/' ? '/' : `${folder}/`);
}

/**
 * The session's folders, from a payload's `transcript_path`, `session_id` and `cwd`, when they have the layout of
 * Claude Code 2.1.330–2.1.332: `transcript_path` is `<…>/projects/<slug>/<session_id>.jsonl` (normal and absolute),
 * and `cwd` is the project's folder or lies inside it (a `cd` moves the payloads' `cwd`, never the slug). Null when
 * anything differs: the caller steps aside (the primed resume works as before).
 */
export function sessionFolders(payload: {
  readonly transcript_path?: unknown;
  readonly session_id?: unknown;
  readonly cwd?: unknown;
}): SessionFolders | null {
  const { transcript_path: transcript, session_id: sessionId, cwd } = payload;
  if (typeof transcript !== 'string' || typeof sessionId !== 'string' || typeof cwd !== 'string') return null;
  if (!SESSION_ID_PATTERN.test(sessionId) || !isNormalAbsolute(transcript) || !isNormalAbsolute(cwd)) return null;
  if (baseOf(transcript) !== `${sessionId}.jsonl`) return null;
  const projectDir = parentOf(transcript);
  const projectsDir = parentOf(projectDir);
  const slug = baseOf(projectDir);
  if (baseOf(projectsDir) !== 'projects' || slug === '' || projectsDir === '/') return null;
  let projectRoot: string | null = null;
  for (let folder = cwd; ; folder = parentOf(folder)) {
    if (slugMatches(folder, slug)) {
      projectRoot = folder;
      break;
    }
    if (folder === '/') break;
  }
  if (projectRoot === null) return null;
  const sessionDir = `${projectDir}/${sessionId}`;
  return { projectsDir, projectDir, slug, sessionId, sessionDir, subagentsDir: `${sessionDir}/subagents`, projectRoot };
}

/** Where a sub-agent's transcript is, read from its path. */
export interface AgentTranscriptLocation {
  readonly projectDir: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agentId: string;
}

/**
 * Reads a sub-agent transcript's path (SubagentStop's `agent_transcript_path`) with the layout of Claude Code
 * 2.1.330–2.1.332, `<…>/projects/<slug>/<session_id>/subagents/agent-<agent_id>.jsonl`; null when it has another
 * layout. With `expect` (the payload's `agent_id`, `session_id` and `transcript_path`), null too unless the path names
 * that agent, in that session's folder of the same project: the check a SubagentStop makes before the feature relies
 * on the layout for that agent (elsewhere it steps aside: the primed resume works as before).
 */
export function agentTranscriptLocation(
  path: unknown,
  expect?: { readonly agent_id?: unknown; readonly session_id?: unknown; readonly transcript_path?: unknown },
): AgentTranscriptLocation | null {
  if (typeof path !== 'string' || !isNormalAbsolute(path)) return null;
  const match = /^agent-([^/]+)\.jsonl$/.exec(baseOf(path));
  const subagentsDir = parentOf(path);
  const sessionDir = parentOf(subagentsDir);
  const projectDir = parentOf(sessionDir);
  const sessionId = baseOf(sessionDir);
  const slug = baseOf(projectDir);
  if (match === null || !isPlainAgentId(match[1]) || baseOf(subagentsDir) !== 'subagents') return null;
  if (!SESSION_ID_PATTERN.test(sessionId) || baseOf(parentOf(projectDir)) !== 'projects' || slug === '') return null;
  const location = { projectDir, slug, sessionId, agentId: match[1] };
  if (expect === undefined) return location;
  const sameProject = typeof expect.transcript_path === 'string' && parentOf(expect.transcript_path) === projectDir;
  return expect.agent_id === location.agentId && expect.session_id === sessionId && sameProject ? location : null;
}

/** What an entry is, as lstat sees it (a symbolic link is not followed). */
export interface EntryFacts {
  readonly kind: 'file' | 'symlink' | 'folder' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
}

/** What the first row of a sub-agent transcript says of it (each field absent when the row does not say). */
export interface TranscriptHead {
  readonly agentId?: string;
  /** The folder the agent worked in: the project's own folder, or one inside it. */
  readonly cwd?: string;
  readonly sidechain?: boolean;
}

/**
 * The facts of a transcript's first row (a JSON object per line: `{"type":"user","agentId":…,"cwd":…,
 * "isSidechain":true,…}` in 2.1.330 and 2.1.332); null when the line is not a JSON object.
 */
export function transcriptHead(firstLine: string): TranscriptHead | null {
  let row: unknown;
  try {
    row = JSON.parse(firstLine);
  } catch {
    return null;
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
  const { agentId, cwd, isSidechain } = row as Record<string, unknown>;
  return {
    ...(typeof agentId === 'string' ? { agentId } : {}),
    ...(typeof cwd === 'string' ? { cwd } : {}),
    ...(typeof isSidechain === 'boolean' ? { sidechain: isSidechain } : {}),
  };
}

/** An agent's transcript found in one session folder of the project. */
export interface FoundTranscript {
  /** The session folder it is in. */
  readonly sessionId: string;
  readonly transcript: EntryFacts;
  /** Its `.meta.json` (the agent's type: without it Claude Code brings the agent back as `general-purpose`). */
  readonly meta: EntryFacts | null;
  /** Its first row; null when it could not be read as one. */
  readonly head: TranscriptHead | null;
}

/** What the service gathered about one agent id, for chooseContinuation. */
export interface ContinuationFacts {
  /** The id asked for (SendMessage's `to`, or a session's recorded Claude agent): not yet checked. */
  readonly agentId: unknown;
  /** The current session's folders; null when the payload does not have the known layout. */
  readonly folders: SessionFolders | null;
  /** The agent's transcript in the current session's folder, if there is one. */
  readonly here: FoundTranscript | null;
  /** The agent's transcripts in the project's other session folders. */
  readonly earlier: readonly FoundTranscript[];
  /**
   * How agent-session knows this agent: `stopped` when a session of this project records it and it stopped (parked,
   * interrupted), `running` when that session's agent still runs, `ended` when that session is final (completed,
   * failed, abandoned: nothing is left to carry on), null when no session of this project records it.
   */
  readonly recorded: 'stopped' | 'running' | 'ended' | null;
}

/** The settings of the feature (issue 34: default on, with a limit). */
export interface ContinuationSettings {
  readonly enabled: boolean;
  readonly maxTranscriptBytes: number;
}

export const DEFAULT_CONTINUATION_SETTINGS: ContinuationSettings = {
  enabled: true,
  maxTranscriptBytes: DEFAULT_MAX_TRANSCRIPT_BYTES,
};

/** Why a primed fresh agent is offered instead of the agent itself. */
export type PrimeWhy =
  | 'disabled'
  | 'not-an-agent-id'
  | 'layout-unknown'
  | 'not-ours'
  | 'running'
  | 'ended'
  | 'gone'
  | 'incomplete'
  | 'not-a-file'
  | 'another-agent'
  | 'another-project'
  | 'over-limit';

/**
 * The choice for one agent id, with its reason in words for `show`, `should-resume --explain` and the report:
 * continue it (its transcript is in this session's folder, or in an earlier one of this project and is to be brought
 * over), or prime a fresh agent, and why.
 */
export type ContinuationChoice =
  | {
      readonly kind: 'continue';
      readonly where: 'here' | 'earlier';
      readonly agentId: string;
      readonly from: FoundTranscript;
      readonly reason: string;
    }
  | { readonly kind: 'prime'; readonly why: PrimeWhy; readonly reason: string };

/** A size in words: `812 bytes`, `41 KB`, `3.1 MB` (1 KB = 1024 bytes). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

/** Why one found transcript cannot be continued, or null when it can (the size is judged apart). */
function flaw(
  found: FoundTranscript,
  agentId: string,
  folders: SessionFolders,
): { why: PrimeWhy; reason: string } | null {
  const names = agentFileNames(agentId);
  if (found.transcript.kind !== 'file')
    return { why: 'not-a-file', reason: `${names.transcript} is a ${kindWords(found.transcript.kind)}, not a file` };
  if (found.meta === null)
    return {
      why: 'incomplete',
      reason: `${names.meta} is gone (without it Claude Code brings the agent back as general-purpose)`,
    };
  if (found.meta.kind !== 'file')
    return { why: 'not-a-file', reason: `${names.meta} is a ${kindWords(found.meta.kind)}, not a file` };
  const head = found.head;
  if (head === null || head.agentId === undefined || head.cwd === undefined)
    return {
      why: 'layout-unknown',
      reason: "this Claude Code version's layout is unknown (the transcript's first row)",
    };
  if (head.agentId !== agentId)
    return { why: 'another-agent', reason: `the transcript belongs to another agent (${head.agentId})` };
  if (!isWithin(head.cwd, folders.projectRoot))
    return { why: 'another-project', reason: `another project's (it ran in ${head.cwd})` };
  return null;
}

function kindWords(kind: EntryFacts['kind']): string {
  return kind === 'symlink' ? 'symbolic link' : kind;
}

function within(found: FoundTranscript, limit: number): string {
  return `transcript ${sizeText(found.transcript.size)}, under the ${sizeText(limit)} limit`;
}

/**
 * Whether the agent of `facts` can be continued with its context, and how: a pure function of the facts (the hook
 * gathers them, calls this, and copies when it says `earlier`). In order: the setting, the id, the layout, our
 * record of the agent (never one no session of this project records, never one still running), then its transcript:
 * in this session's folder, else the newest sound one of the project's other session folders (a sound transcript is a
 * regular file with its meta file, whose first row names this agent and a folder of this project); and its size at
 * most the limit. Every reason names what was found, for the user.
 */
export function chooseContinuation(facts: ContinuationFacts, settings: ContinuationSettings): ContinuationChoice {
  const prime = (why: PrimeWhy, reason: string): ContinuationChoice => ({ kind: 'prime', why, reason });
  if (!settings.enabled) return prime('disabled', 'continuing agents with their context is turned off');
  const { agentId, folders } = facts;
  if (!isPlainAgentId(agentId))
    return prime('not-an-agent-id', `${cutText(JSON.stringify(String(agentId)), 80, '')} is not a Claude agent id`);
  if (folders === null)
    return prime('layout-unknown', "this Claude Code version's layout is unknown (the session's transcript_path)");
  if (facts.recorded === null) return prime('not-ours', `no session of this project records Claude agent ${agentId}`);
  if (facts.recorded === 'running') return prime('running', `Claude agent ${agentId} still runs`);
  if (facts.recorded === 'ended') return prime('ended', `the session of Claude agent ${agentId} has ended`);
  const limit = settings.maxTranscriptBytes;
  const judge = (found: FoundTranscript, where: 'here' | 'earlier'): ContinuationChoice => {
    if (found.transcript.size > limit)
      return prime('over-limit', `transcript ${sizeText(found.transcript.size)}, over the ${sizeText(limit)} limit`);
    const place = where === 'here' ? 'in this session' : `in session ${found.sessionId}`;
    return { kind: 'continue', where, agentId, from: found, reason: `${within(found, limit)}, ${place}` };
  };
  if (facts.here !== null) {
    const problem = flaw(facts.here, agentId, folders);
    return problem === null ? judge(facts.here, 'here') : prime(problem.why, problem.reason);
  }
  // The newest copy: a continuation in a later session appended to its own copy, which then holds the most. An older
  // copy is never taken instead of a newer sound one (it would lose that later work), only instead of a flawed one.
  const candidates = facts.earlier
    .filter((found) => found.sessionId !== folders.sessionId)
    .sort((a, b) => b.transcript.mtimeMs - a.transcript.mtimeMs || a.sessionId.localeCompare(b.sessionId));
  if (candidates.length === 0)
    return prime('gone', `transcript gone (no ${agentFileNames(agentId).transcript} in this project's sessions)`);
  const sound = candidates.find((found) => flaw(found, agentId, folders) === null);
  if (sound !== undefined) return judge(sound, 'earlier');
  const problem = flaw(candidates[0]!, agentId, folders)!;
  return prime(problem.why, problem.reason);
}
