/**
 * A Claude Code agent id as this module takes it: one plain name (Claude Code's are `a` and 16 hex digits), never a
 * path: no `/`, no `.` (so no `..`), no NUL or other control character, at most 128 characters.
 */
export declare const CLAUDE_AGENT_ID_PATTERN: RegExp;
/**
 * The default size above which a transcript is not continued but a primed fresh agent is offered: 512 KiB of
 * transcript, about 100,000 tokens re-sent by the continuation's first request (half of a 200k context window).
 * Measured with 2.1.330 and 2.1.332 (tests/fixtures/claude-code/README.md "Continuing a sub-agent"): a transcript is
 * ~30 KB of fixed rows plus ~1.26 bytes per byte its continuation re-sends; above half the window the continued agent
 * soon meets the host's compaction, which costs a pass over the whole transcript and keeps only a summary: what the
 * primed fresh agent starts from, for far less.
 */
export declare const DEFAULT_MAX_TRANSCRIPT_BYTES: number;
/** True when `id` is a string this module accepts as a Claude agent id (CLAUDE_AGENT_ID_PATTERN). */
export declare function isPlainAgentId(id: unknown): id is string;
/**
 * The two files of a sub-agent in a session's `subagents/` folder.
 * @throws SessionError E_USAGE when `agentId` is not a plain agent id (it would name a path)
 */
export declare function agentFileNames(agentId: string): {
    readonly transcript: string;
    readonly meta: string;
};
/**
 * Claude Code's name for a project's folder under `projects/`: the path with every character but ASCII letters and
 * digits replaced by `-` (so `/home/u/my_app.v2` → `-home-u-my-app-v2`). Paths whose name passes 200 characters get
 * the first 200 and a hash Claude Code does not document: slugMatches compares only what can be known.
 */
export declare function projectSlug(path: string): string;
/** True when `slug` is the folder Claude Code names for `path` (for a long path: its first 200 characters and a hash). */
export declare function slugMatches(path: string, slug: string): boolean;
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
/** True when `path` is `folder` or inside it. */
export declare function isWithin(path: string, folder: string): boolean;
/**
 * The session's folders, from a payload's `transcript_path`, `session_id` and `cwd`, when they have the layout of
 * Claude Code 2.1.330–2.1.332: `transcript_path` is `<…>/projects/<slug>/<session_id>.jsonl` (normal and absolute),
 * and `cwd` is the project's folder or lies inside it (a `cd` moves the payloads' `cwd`, never the slug). Null when
 * anything differs: the caller steps aside (the primed resume works as before).
 */
export declare function sessionFolders(payload: {
    readonly transcript_path?: unknown;
    readonly session_id?: unknown;
    readonly cwd?: unknown;
}): SessionFolders | null;
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
export declare function agentTranscriptLocation(path: unknown, expect?: {
    readonly agent_id?: unknown;
    readonly session_id?: unknown;
    readonly transcript_path?: unknown;
}): AgentTranscriptLocation | null;
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
export declare function transcriptHead(firstLine: string): TranscriptHead | null;
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
export declare const DEFAULT_CONTINUATION_SETTINGS: ContinuationSettings;
/** Why a primed fresh agent is offered instead of the agent itself. */
export type PrimeWhy = 'disabled' | 'not-an-agent-id' | 'layout-unknown' | 'not-ours' | 'running' | 'ended' | 'gone' | 'incomplete' | 'not-a-file' | 'another-agent' | 'another-project' | 'over-limit';
/**
 * The choice for one agent id, with its reason in words for `show`, `should-resume --explain` and the report:
 * continue it (its transcript is in this session's folder, or in an earlier one of this project and is to be brought
 * over), or prime a fresh agent, and why.
 */
export type ContinuationChoice = {
    readonly kind: 'continue';
    readonly where: 'here' | 'earlier';
    readonly agentId: string;
    readonly from: FoundTranscript;
    readonly reason: string;
} | {
    readonly kind: 'prime';
    readonly why: PrimeWhy;
    readonly reason: string;
};
/** A size in words: `812 bytes`, `41 KB`, `3.1 MB` (1 KB = 1024 bytes). */
export declare function sizeText(bytes: number): string;
/**
 * Whether the agent of `facts` can be continued with its context, and how: a pure function of the facts (the hook
 * gathers them, calls this, and copies when it says `earlier`). In order: the setting, the id, the layout, our
 * record of the agent (never one no session of this project records, never one still running), then its transcript:
 * in this session's folder, else the newest sound one of the project's other session folders (a sound transcript is a
 * regular file with its meta file, whose first row names this agent and a folder of this project); and its size at
 * most the limit. Every reason names what was found, for the user.
 */
export declare function chooseContinuation(facts: ContinuationFacts, settings: ContinuationSettings): ContinuationChoice;
