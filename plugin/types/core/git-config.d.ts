/**
 * The URL of a remote in a git config file's text (`.git/config`), read as git reads it: sections `[remote "origin"]`
 * (the subsection case-sensitive) or the older `[remote.origin]`, keys case-insensitive, values quoted or not, with
 * git's escapes, comments after `#` or `;` and lines continued by a final backslash. The first `url` wins, as
 * `git remote get-url` answers. Includes (`[include]`) and `url.<base>.insteadOf` rewrites are not followed: the URL
 * is as written. Pure: the caller reads the file (platform/git.ts). Written with string scans, not regular
 * expressions: it runs on every hook call, where compiling each expression costs more than the scan.
 * @returns the URL, or null when the remote has none
 */
export declare function remoteUrlOf(configText: string, remote?: string): string | null;
