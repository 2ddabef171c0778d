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
export declare const CUT_AGENTS_LIMIT = 500;
/**
 * The sub-agents of the payload's main session that have not finished (their meta file has no `finished: true`): with
 * `turn`, the foreground ones (`requestShape`), minus those whose transcript says they started in another turn than
 * the payload's `prompt_id`; with `resume`, all. Empty when the payload names no usable session folder or it has no
 * sub-agents.
 * @throws the file system's error other than an absent file (the hook's fail-open answer logs it)
 */
export declare function cutOffAgents(payload: {
    readonly transcript_path?: unknown;
    readonly session_id?: unknown;
    readonly cwd?: unknown;
    readonly prompt_id?: unknown;
}, scope?: CutScope): CutAgent[];
