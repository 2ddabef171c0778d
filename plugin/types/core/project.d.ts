import { type SessionState } from './state';
/**
 * Which project a session belongs to. A project is the folder that holds `.claude/` (the one the file store lives in),
 * named so that two clones of one repository agree on every machine and two repositories never do:
 * 1. a configured name (`project` in the config file, or AGENT_SESSION_PROJECT), taken as it is;
 * 2. else the git remote `origin` of the repository holding the folder, as `host/owner/repo` (host lower-cased, no
 *    user, password, port, `.git` or scheme: an ssh and an https clone agree), followed by `//sub/folder` when the
 *    folder is not the repository's top (two projects of one repository stay two);
 * 3. else the folder's real path, `path:/home/me/proj`: scoped to that folder on that machine.
 * Pure: the caller reads the git config and the real path (service/project.ts).
 */
/** The project of a store or service given none (`new Sessions({ store })`, `new FileStore(dir)`): tests, embedding. */
export declare const DEFAULT_PROJECT = "default";
/** A configured project name is at most this many characters (it is stored on every session, and keys pointers). */
export declare const MAX_PROJECT_NAME_LENGTH = 200;
/** Where a project's name came from (`agent-session config` says which). */
export type ProjectSource = {
    readonly kind: 'configured';
} | {
    readonly kind: 'remote';
    readonly repository: string;
} | {
    readonly kind: 'path';
} | {
    readonly kind: 'default';
};
/** A project's name and where it came from. */
export interface ProjectIdentity {
    readonly name: string;
    readonly source: ProjectSource;
}
/**
 * Why `name` cannot be a configured project name, or null when it can: the agent naming rule (non-blank, no control
 * characters or bidirectional overrides), no blank at either end, at most MAX_PROJECT_NAME_LENGTH characters.
 */
export declare function projectNameProblem(name: unknown): string | null;
/**
 * Checks a configured project name.
 * @throws SessionError E_USAGE naming `label`, the rule and the value
 */
export declare function assertProjectName(name: unknown, label: string): string;
/**
 * A git remote URL as `host/path` (no scheme, user, password or port; host lower-cased; no trailing `/` or `.git`), so
 * the forms of one repository agree: `git@github.com:acme/api.git`, `ssh://git@github.com:22/acme/api`,
 * `https://user:token@GitHub.com/acme/api.git` are all `github.com/acme/api`. A local repository (`/srv/git/api.git`,
 * `file:///srv/git/api.git`) is `file:/srv/git/api`. Null for what names no repository portably: a relative folder,
 * an empty path, a URL it cannot read.
 */
export declare function normalizeRemoteUrl(url: string): string | null;
/**
 * The name of a project whose folder is in a git repository with a remote: the normalized remote, then `//` and the
 * folder's path inside the repository when it is not the repository's top.
 */
export declare function remoteProjectName(normalizedRemote: string, subfolder: string): string;
/** The name of a project known by its folder only: `path:` and the folder's real path. */
export declare function pathProjectName(realPath: string): string;
/** The project of a state: its own `project`, or `home` (a file store's folder) when it has none; undefined: none. */
export declare function projectOf(state: Pick<SessionState, 'project'>, home?: string | null): string | undefined;
/** True when `state` belongs to `project` (a state without one belongs to no project: unassigned). */
export declare function inProject(state: Pick<SessionState, 'project'>, project: string): boolean;
/**
 * `state` belonging to `project`, or to none (undefined), with the schema_version its content then needs: a pure
 * state change (adopting, and the file store leaving its own folder's project out of its files).
 */
export declare function withProject(state: SessionState, project: string | undefined): SessionState;
