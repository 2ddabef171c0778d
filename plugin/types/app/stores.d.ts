import { type CopyResult } from '../service/copy';
import { Sessions, type SessionsOptions } from '../service/sessions';
import { type Call, type RootInputs } from './call';
/**
 * The one place that opens a concrete store, from a resolved Call (call.ts): the CLI, the hooks and the library come
 * here for the service, so no adapter imports src/store.
 */
/**
 * The service on the store the call's settings select (storeOf), with their limits and history cap. The caller closes
 * it (`Sessions.close`). `options.decisionOrigin`: where its decisions are recorded from (`serve`: the browser).
 * @throws SessionError the verdict's error for a hook's call that fails open (no store is right then); E_USAGE for a
 *   malformed test clock; E_IO when a `.git` cannot be read to name the project
 */
export declare function openSessions(call: Call, options?: Pick<SessionsOptions, 'decisionOrigin'>): Sessions;
/**
 * The service of a call, opened on first use and closed once: a hook's (app/hook-call.ts, for every event of the
 * call) and a command's (cli/context.ts withSessions).
 */
export declare class CallSessions {
    #private;
    private readonly call;
    constructor(call: Call);
    /** The service, opened on first use (see openSessions). */
    get(): Sessions;
    /** Closes the store when it was opened (a connection, for PostgreSQL). */
    close(): Promise<void>;
}
/**
 * The ids of the file store at the root, without reading a session or the settings (shell completion).
 * @throws SessionError E_IO when the store cannot be listed
 */
export declare function sessionIdsOf(inputs: RootInputs): string[];
/**
 * Copies every session between two stores (`agent-session copy`): each of `fromSpec` and `toSpec` is a folder (the
 * file store, relative to the call's cwd) or a `postgres://` URL (the PostgreSQL store, in the configured schema). The
 * stores are closed afterwards.
 * @throws SessionError E_USAGE for the same store twice, a bad URL or a source folder that does not exist; E_DUPLICATE (see copySessions); E_IO
 */
export declare function copyStores(fromSpec: string, toSpec: string, call: Call): Promise<CopyResult & {
    readonly from: string;
    readonly to: string;
}>;
