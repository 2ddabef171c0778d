/**
 * One sign of an AI agent's shell: a variable its host puts in the environment of every command its agents run (set to
 * anything but empty, or to `value`), or a program whose descendants are such commands (an ancestor named so marks a
 * command even with the variables removed: `env -u CLAUDECODE …`).
 */
export type AgentShellRule = {
    readonly host: string;
    readonly variable: string;
    readonly value?: string;
} | {
    readonly host: string;
    readonly program: string;
};
/**
 * Every sign, by host. Claude Code: `CLAUDECODE=1` in every Bash command. Codex: `CODEX_THREAD_ID`, and
 * `CODEX_SANDBOX` / `CODEX_SANDBOX_NETWORK_DISABLED` inside its sandbox. opencode: `OPENCODE=1`, `OPENCODE_PID` and
 * `AGENT=1` (a convention other agents follow too; only the value 1, so a variable a user named `AGENT` is left alone).
 * Programs are compared without folder, case and a `.exe`/`.js` ending (`claude.exe` is the npm package's native binary,
 * `codex.js` its Node launcher, `opencode` the bundled binary).
 */
export declare const AGENT_SHELL_RULES: readonly AgentShellRule[];
/** The variables of AGENT_SHELL_RULES (a user's own shell, as tests build it, has none of them). */
export declare const AGENT_SHELL_VARIABLES: readonly string[];
/** The programs of AGENT_SHELL_RULES. */
export declare const AGENT_PROGRAMS: readonly string[];
/** One process above the caller: its id and the names it goes by (`comm`, argv[0], a script's name after node). */
export interface AncestorProcess {
    readonly pid: number;
    readonly names: readonly string[];
}
/** What a process knows about itself when it records a decision (gathered by platform/process-facts.ts). */
export interface ProcessFacts {
    /** The OS account's name from the password database (never $USER, which the caller sets), else `uid N`. */
    readonly osUser: string;
    /** Whether stdin is a terminal. */
    readonly terminal: boolean;
    readonly env: Readonly<Record<string, string | undefined>>;
    /** Parent first, up to the first process that cannot be read. */
    readonly ancestors: readonly AncestorProcess[];
}
/** Where a decision is recorded from: facts of the recording process, never what its user typed. */
export interface DecisionOrigin {
    readonly os_user: string;
    readonly terminal: boolean;
    /** Why the process is taken for a command of an AI agent's shell, or null when nothing says so. */
    readonly agent_shell: string | null;
    /** `browser`: decided on the page of `agent-session serve`, run by `os_user`; absent: at the CLI. */
    readonly via?: 'browser';
}
/** The origin of a decision recorded by a process with these facts. */
export declare function decisionOriginOf(facts: ProcessFacts): DecisionOrigin;
/**
 * Why these facts mark a command run from an AI agent's shell (a variable set, or an agent program among the
 * ancestors), or null.
 */
export declare function agentShellOf(env: Readonly<Record<string, string | undefined>>, ancestors: readonly AncestorProcess[]): string | null;
/**
 * Refuses a decision from a detected agent shell (and `serve`, whose page decides): an agent must not approve its own
 * work, nor pass for the user (nor bring in, by `import` or `copy`, a decision that would).
 * @throws SessionError E_AGENT_SHELL naming what gave the shell away
 */
export declare function assertNotAgentShell(origin: DecisionOrigin, verb: 'approve' | 'reject' | 'serve' | 'import' | 'copy' | 'trust', what?: string): void;
