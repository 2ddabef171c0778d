import { type Config } from '../core/config';
import { type Limits } from '../core/limits';
import { type ResumeReason } from '../core/rules';
import { type SessionState } from '../core/state';
import type { Sessions } from '../service/sessions';
/** Where `openStore` looks, and what it overrides. Every field is optional. */
export interface OpenStoreOptions {
    /** The store folder; default as the CLI: AGENT_SESSION_DIR, else `<project>/.claude/session`. */
    readonly dir?: string;
    /**
     * The folder the project is searched from; default the working directory (when it was removed, only an absolute
     * `dir`, AGENT_SESSION_DIR or CLAUDE_PROJECT_DIR names the store).
     */
    readonly cwd?: string;
    /** The environment read for AGENT_SESSION_* settings; default `process.env`. */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** Settings that win over the config file and the environment. */
    readonly config?: Partial<Config>;
    /** The clock (tests). */
    readonly now?: () => Date;
}
/**
 * Opens the session store a CLI run in the same place would use, with the same settings
 * (defaults ← `.claude/agent-session.json` ← environment ← `options.config`).
 * Asynchronous (a breaking change of 0.x): every operation of the returned service answers a Promise, and the caller closes it
 * (`await sessions.close()`) when done, so a store holding a connection lets the process exit.
 * @throws SessionError E_USAGE for an invalid config file, variable or `options.config`, or a `dir`/`cwd` that is not
 *   text; E_IO when it cannot be read (as a rejected Promise)
 */
export declare function openStore(options?: OpenStoreOptions): Promise<Sessions>;
/** A resume decision on a state, without a store. */
export interface ResumeAnswer {
    readonly should_resume: boolean;
    readonly reason: ResumeReason;
}
/**
 * The resume rules applied to a session state (pure: no disk access). Limits default to 30 minutes idle and
 * 3 errors; `now` to the current time. Asynchronous (a breaking change of 0.x), as every library call.
 * @throws SessionError E_USAGE when `state` is not a session state (the store's schema)
 */
export declare function shouldResume(state: SessionState, options?: {
    now?: Date;
    limits?: Partial<Limits>;
}): Promise<ResumeAnswer>;
