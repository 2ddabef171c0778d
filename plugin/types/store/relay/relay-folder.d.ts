/**
 * Where a user's relays listen: one private folder per OS user, one socket per database URL + schema + build in it.
 *
 * The folder is the trust boundary. Node cannot ask a unix socket who is at its other end (SO_PEERCRED needs a native
 * module), so a relay cannot check its clients and a client cannot check its relay's process: both rely on a folder
 * that only their user can enter (0700, owned by them, a real folder, never a link). A client checks the folder and
 * then the socket (a socket, owned by the user) before connecting; anything else there, or a folder another user made
 * first (a squatted `/tmp/agent-session-<uid>`), means no relay for this process: it connects directly.
 */
/** A relay's files: the private folder, the socket, and the relay's lock and start marker beside it. */
export interface RelayPlace {
    readonly dir: string;
    /** `relay-<key>.sock`. */
    readonly socket: string;
    /** `relay-<key>.lock`: held by a starting relay while it claims the socket. */
    readonly lock: string;
    /** `relay-<key>.starting`: made by the hook that starts a relay, so that hooks right after it do not start more. */
    readonly starting: string;
    /** The hash in the names (of the URL, schema and build: the password never appears in a name). */
    readonly key: string;
}
/** The relay folder's state: usable (`ok`), absent (a hook may make it), or refused with the reason. */
export type FolderVerdict = {
    readonly kind: 'ok';
} | {
    readonly kind: 'absent';
} | {
    readonly kind: 'refused';
    why: string;
};
/**
 * The folder of this user's relays: `$XDG_RUNTIME_DIR/agent-session` when XDG_RUNTIME_DIR names a folder that is this
 * user's alone (the XDG rule: owned by the user, 0700), else `<TMPDIR or /tmp>/agent-session-<uid>`.
 */
export declare function relayFolder(env: Readonly<Record<string, string | undefined>>, uid?: number): string;
/** The files of the relay for `url` + `schema` of build `build`, in `dir`. */
export declare function relayPlace(dir: string, url: string, schema: string, build: string): RelayPlace;
/**
 * The longest unix socket path Linux takes (sun_path is 108 bytes with its NUL); a longer one cannot be listened on,
 * so a folder that deep (a long TMPDIR) has no relay.
 */
export declare const MAX_SOCKET_PATH = 107;
/** Whether `dir` may hold this user's relays: a real folder, owned by `uid`, that no one else may enter. */
export declare function checkFolder(dir: string, uid?: number): FolderVerdict;
/**
 * Makes the relay folder (0700) when absent, and checks it as checkFolder does (made by another user at the same
 * moment, it is refused all the same).
 */
export declare function ensureFolder(dir: string, uid?: number): FolderVerdict;
/** The socket's state: a socket of this user (`ok`), absent, or something else there (refused). */
export declare function checkSocket(path: string, uid?: number): FolderVerdict;
/**
 * Marks a relay as starting, unless a marker younger than STARTING_MS says one already is (hooks that find no relay
 * right after one was started do not start more).
 * @returns true when this process is to start it
 */
export declare function markStarting(marker: string, nowMs?: number): boolean;
/** This process's user id (the relay folder is per user). */
export declare function ownUid(): number;
