import type { Host } from '../core/host';
import { type Config } from '../core/config';
import type { Sessions } from '../service/sessions';
import { type Call } from './call';
/**
 * Everything one hook call runs with: the call resolved once (call.ts: the store root, the settings and the verdict on
 * them, the log folder) and, on first use, the service on the store the settings select. Both protocols' answers get
 * it from the one hook runner (src/hooks/run.ts), which closes it.
 */
export interface HookCall {
    /** The call itself (call.ts), for what the fields below do not say. */
    readonly call: Call;
    readonly root: string;
    /** The working folder the call resolved from (a Claude Code payload's `cwd`, else the process's). */
    readonly cwd: string | undefined;
    /** The settings in force: the defaults when the configuration is invalid (see `warning`). */
    readonly config: Config;
    /**
     * For the log: why the defaults are in force (an invalid configuration naming no database), or what of the workspace
     * file was ignored for want of the user's trust (docs/security.md); else null.
     */
    readonly warning: string | null;
    readonly logDir: string;
    /**
     * The service on the selected store, opened on first use. @throws SessionError the configuration's problem when it
     * is invalid and names a database (fail open: no store is right then)
     */
    sessions(): Sessions;
    /** Closes the store when it was opened (a connection, for PostgreSQL). */
    close(): Promise<void>;
}
/**
 * The hook call of an environment (see HookCall).
 * @param options `dir`: the store folder given by the caller (the Agent SDK's hooks object), as `--dir`;
 *   `inProcess`: the hooks live in a long-running process (the Agent SDK's app), which holds its own PostgreSQL
 *   connection (no relay: that serves short hook processes) for as long as the call is open; `host`: the host whose
 *   hooks the call answers (core/host.ts; default Claude Code)
 * @throws SessionError E_IO when the store root cannot be resolved (no working folder and nothing absolute to start
 *   from, a folder that cannot be inspected): there is then nowhere to log either
 */
export declare function openHookCall(env: Readonly<Record<string, string | undefined>>, cwd: string | undefined, options?: {
    readonly dir?: string;
    readonly inProcess?: boolean;
    readonly host?: Host;
}): HookCall;
