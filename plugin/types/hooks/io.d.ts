import type { Host } from '../core/host';
import type { ByteSource, InputSource } from './stdin';
/** The process facts a hook runs with; injected so tests can drive `runHook` without a child process. */
export interface HookIo {
    /** Read synchronously (a file, pipe or socket), or as a stream (a terminal, tests). */
    readonly stdin: ByteSource | InputSource;
    readonly write: (text: string) => void;
    readonly env: Readonly<Record<string, string | undefined>>;
    /**
     * The working directory; undefined when it cannot be named (a removed worktree: see workingDirectory). The hook
     * still answers from a store given as an absolute path (AGENT_SESSION_DIR, CLAUDE_PROJECT_DIR, the payload's
     * `cwd`), else fails open.
     */
    readonly cwd: string | undefined;
    /** The folder of the running bin (its siblings are the other bins); absent when run from sources. */
    readonly binDir?: string;
    /** The node running the hook, by absolute path: the recording commands run the CLI with the same one. */
    readonly execPath?: string;
    /**
     * The host whose hook this is, as the wiring names it (`--host codex` after the bin: `init --host codex`); absent:
     * Claude Code.
     */
    readonly host?: Host;
}
