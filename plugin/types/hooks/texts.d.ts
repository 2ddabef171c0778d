import type { PermissionRequest, SessionState } from '../core/state';
import type { ContinuationChoice } from '../core/claude-transcript';
import { type DelegatedTask } from '../core/task';
/** A host's own words in the texts (its adapter's, src/hooks/hosts/). */
export interface HostWords {
    /** Whose agent ids the links hold: `Claude`, `Codex`. */
    readonly agent: string;
    /** Who reports a sub-agent's failure: `Claude Code`, `Codex`. */
    readonly host: string;
    /** The overview's sentence on how the main agent resumes a parked session. */
    readonly resuming: string;
    /**
     * How the main agent continues a stopped sub-agent itself, with its context (Claude Code's SendMessage, issue 34);
     * absent for a host that cannot: its texts then never offer it.
     */
    readonly continuing?: string;
}
/** What the texts say besides the session: the host's words, the CLI, the clock. */
export interface TextContext {
    readonly words: HostWords;
    /**
     * The words that run the CLI on this store, e.g. `['/usr/bin/node', '/p/dist/agent-session.cjs', '--dir',
     * '/p/.claude/session']`: the contexts show them quoted for the shell, and a PermissionRequest is allowed only for
     * a command that starts with exactly these words.
     */
    readonly cli: readonly string[];
    /**
     * The words before a session id in its recording command, when they are not `cli` and `update`: Codex's `record`
     * entry with its store's pin (src/hooks/hosts/codex.ts). A function: worded only when a text names it.
     */
    readonly record?: () => readonly string[];
    readonly now: Date;
    /** The clock-skew bound (the store's limits): a time ahead within it is "just now". */
    readonly clockSkewMinutes?: number;
    /**
     * The name of a tool the sub-agents record with instead of a shell command (the Agent SDK's in-process MCP tool,
     * src/hooks/hosts/agent-sdk.ts): the contexts then name it, with its input, in place of the CLI's `update` command.
     */
    readonly recordingTool?: string;
}
/** The words before a session id in its recording command: the host's own (Codex's `record`), else `cli` `update`. */
export declare function recordPrefix(context: Pick<TextContext, 'cli' | 'record'>): readonly string[];
/** Claude Code keeps at most 10,000 characters of a context string; ours stay well below. */
export declare const CONTEXT_LIMIT = 9000;
/** The parked-sessions overview of SessionStart and UserPromptSubmit stays short: it rides along every prompt. */
export declare const OVERVIEW_LIMIT = 1500;
/**
 * The parked sessions as the main agent is told them before it delegates, within OVERVIEW_LIMIT (the rest counted,
 * with the CLI's listing command). @returns the text and how many sessions it shows
 */
export declare function overviewText(parked: readonly SessionState[], context: TextContext, choices?: ReadonlyMap<string, ContinuationChoice>): {
    readonly text: string;
    readonly shown: number;
};
/** The resume offer of a delegation (PreToolUse): the session the delegated agent is linked to, and what it holds. */
export declare function resumeContext(state: SessionState, context: TextContext, choice?: ContinuationChoice): string;
/**
 * What a continued agent is told (issue 34): appended to the SendMessage that continues it (PreToolUse `updatedInput`),
 * since a SubagentStart context does not reach an agent whose first start got one (Claude Code 2.1.330–2.1.332). Its
 * first start's context, with the commands that record, is in its transcript: this says the session goes on, where it
 * stopped, and what happened meanwhile (an interruption, the user's decision).
 */
export declare function continueNote(state: SessionState, context: TextContext): string;
/**
 * What the main agent is told when a SendMessage to a session's stopped agent will not continue it with its context
 * (issue 34: over the size limit, transcript gone, another version's layout…): why, and that a delegation resumes the
 * session with a new agent primed with what it holds.
 */
export declare function primeContext(state: SessionState, claudeAgent: string, reason: string, context: TextContext): string;
/**
 * What the main agent is told when its delegation did not take the type's parked session because that one holds a
 * decision or a grant for another task (core/task.ts `takeover`, issue 44 item 7): both tasks, that the delegated agent
 * works in a new session, and how to carry the parked one on.
 */
export declare function passedOverContext(parked: SessionState, incoming: DelegatedTask, context: TextContext): string;
/**
 * What the main agent is told after a delegation whose agent got a new session beside `kept` (id `keptId`), a parked
 * session holding a decision or a grant for another task (PostToolUse: Claude Code places it after the tool's result).
 */
export declare function besideContext(state: SessionState, kept: SessionState | null, keptId: string, context: TextContext): string;
/**
 * A started sub-agent's session (SubagentStart): new, resumed or carried on after an interruption, what it holds, and
 * how the agent records its state.
 */
export declare function startContext(state: SessionState, context: TextContext, maxErrors: number): string;
/**
 * The deny message a sub-agent's model gets for a permission request parked as an inbox item (issue 33): Claude Code
 * would deny the call anyway (nobody can answer it); this says where it waits, what the agent does now, and what
 * happens next. The call itself is the agent's own, shown as JSON.
 */
export declare function permissionParkedText(state: SessionState, request: PermissionRequest, context: TextContext): string;
