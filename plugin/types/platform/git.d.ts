/** A git repository as found from a folder inside it: its top (the folder holding `.git`) and its config's text. */
export interface GitRepository {
    /** The folder holding `.git` (a real path). */
    readonly top: string;
    /** The text of the repository's config file, or null when it has none. */
    readonly config: string | null;
}
/**
 * The folder's real path (links resolved), or the path itself made absolute when it does not exist.
 * @throws SessionError E_IO when it cannot be resolved for another reason
 */
export declare function realFolder(folder: string): string;
/**
 * The git repository holding `folder` (a real path): the nearest ancestor (itself included) with a `.git` folder or
 * `.git` file (a worktree or submodule: `gitdir: <path>`, whose `commondir` names the folder holding the shared
 * config), and its config's text. Read directly, without running git: a hook pays a few system calls, not a process.
 * @returns null when no ancestor holds a `.git`
 * @throws SessionError E_IO when a `.git` or its config exists but cannot be read
 */
export declare function gitRepositoryOf(folder: string): GitRepository | null;
