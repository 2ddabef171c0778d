import { SessionError, show } from './errors';
import { agentNameProblem } from './input';
import { versionFor, type SessionState } from './state';

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
export const DEFAULT_PROJECT = 'default';

/** A configured project name is at most this many characters (it is stored on every session, and keys pointers). */
export const MAX_PROJECT_NAME_LENGTH = 200;

/** Where a project's name came from (`agent-session config` says which). */
export type ProjectSource =
  | { readonly kind: 'configured' }
  | { readonly kind: 'remote'; readonly repository: string }
  | { readonly kind: 'path' }
  | { readonly kind: 'default' };

/** A project's name and where it came from. */
export interface ProjectIdentity {
  readonly name: string;
  readonly source: ProjectSource;
}

/**
 * Why `name` cannot be a configured project name, or null when it can: the agent naming rule (non-blank, no control
 * characters or bidirectional overrides), no blank at either end, at most MAX_PROJECT_NAME_LENGTH characters.
 */
export function projectNameProblem(name: unknown): string | null {
  const problem = agentNameProblem(name);
  if (problem !== null) return problem;
  if ((name as string).trim() !== name) return `a name without blanks at its ends, got ${show(name)}`;
  const length = (name as string).length;
  return length > MAX_PROJECT_NAME_LENGTH
    ? `a name of at most ${MAX_PROJECT_NAME_LENGTH} characters, got ${length} characters`
    : null;
}

/**
 * Checks a configured project name.
 * @throws SessionError E_USAGE naming `label`, the rule and the value
 */
export function assertProjectName(name: unknown, label: string): string {
  const problem = projectNameProblem(name);
  if (problem !== null) throw new SessionError('E_USAGE', `Expected ${label} to be ${problem}`);
  return name as string;
}

/**
 * A git remote URL as `host/path` (no scheme, user, password or port; host lower-cased; no trailing `/` or `.git`), so
 * the forms of one repository agree: `git@github.com:acme/api.git`, `ssh://git@github.com:22/acme/api`,
 * `https://user:token@GitHub.com/acme/api.git` are all `github.com/acme/api`. A local repository (`/srv/git/api.git`,
 * `file:///srv/git/api.git`) is `file:/srv/git/api`. Null for what names no repository portably: a relative folder,
 * an empty path, a URL it cannot read.
 */
export function normalizeRemoteUrl(url: string): string | null {
  // String scans, not regular expressions: this runs on every hook call, where compiling each one costs more.
  let text = url.trim();
  // A remote helper (`transport::address`) names its repository by the address.
  const helper = text.indexOf('::');
  if (helper > 0 && isScheme(text.slice(0, helper))) text = text.slice(helper + 2);
  const separator = text.indexOf('://');
  if (separator > 0 && isScheme(text.slice(0, separator))) {
    const kind = text.slice(0, separator).toLowerCase();
    let rest = text.slice(separator + 3);
    const query = firstOf(rest, '?#');
    if (query !== -1) rest = rest.slice(0, query);
    const slash = rest.indexOf('/');
    if (kind === 'file') return localPath(slash === -1 ? '' : rest.slice(slash));
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    return hostAndPath(hostOf(authority), slash === -1 ? '' : rest.slice(slash));
  }
  if (text.startsWith('/')) return localPath(text);
  // scp-like `[user@]host:path`: a colon before any slash (a relative folder such as `../api` or `./x:y` has none).
  if (text.startsWith('.')) return null;
  const at = text.indexOf('@');
  const start = at !== -1 && at < firstOf(text, '/:') ? at + 1 : 0;
  if (text[start] === '[') {
    const close = text.indexOf(']:', start);
    return close === -1 ? null : hostAndPath(text.slice(start + 1, close), text.slice(close + 2));
  }
  const colon = text.indexOf(':', start);
  const slash = text.indexOf('/', start);
  if (colon <= start || (slash !== -1 && slash < colon)) return null;
  return hostAndPath(text.slice(start, colon), text.slice(colon + 1));
}

/**
 * The name of a project whose folder is in a git repository with a remote: the normalized remote, then `//` and the
 * folder's path inside the repository when it is not the repository's top.
 */
export function remoteProjectName(normalizedRemote: string, subfolder: string): string {
  const inside = subfolder.split('/').filter((part) => part !== '' && part !== '.');
  return inside.length === 0 ? normalizedRemote : `${normalizedRemote}//${inside.join('/')}`;
}

/** The name of a project known by its folder only: `path:` and the folder's real path. */
export function pathProjectName(realPath: string): string {
  return `path:${realPath}`;
}

/** The project of a state: its own `project`, or `home` (a file store's folder) when it has none; undefined: none. */
export function projectOf(state: Pick<SessionState, 'project'>, home?: string | null): string | undefined {
  return state.project ?? home ?? undefined;
}

/** True when `state` belongs to `project` (a state without one belongs to no project: unassigned). */
export function inProject(state: Pick<SessionState, 'project'>, project: string): boolean {
  return state.project === project;
}

/**
 * `state` belonging to `project`, or to none (undefined), with the schema_version its content then needs: a pure
 * state change (adopting, and the file store leaving its own folder's project out of its files).
 */
export function withProject(state: SessionState, project: string | undefined): SessionState {
  if (state.project === project) return state;
  const { project: _previous, ...rest } = state;
  const next: SessionState = project === undefined ? { ...rest } : { ...rest, project };
  return { ...next, schema_version: versionFor(next) };
}

// --- internal ---

/** The host of a URL's authority: without user, password and port, lower-cased (an IPv6 host without brackets). */
function hostOf(authority: string): string {
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close === -1 ? host.slice(1) : host.slice(1, close);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function hostAndPath(host: string, path: string): string | null {
  const cleaned = cleanPath(path);
  if (host === '' || cleaned === '') return null;
  return `${host.toLowerCase()}/${cleaned}`;
}

function localPath(path: string): string | null {
  const cleaned = cleanPath(path);
  return cleaned === '' ? null : `file:/${cleaned}`;
}

/** True for a URL scheme: a letter, then letters, digits, `+`, `-` or `.`. */
function isScheme(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!letter && (i === 0 || !((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46))) return false;
  }
  return true;
}

/** The index of the first of `characters` in `text`, or -1. */
function firstOf(text: string, characters: string): number {
  for (let i = 0; i < text.length; i++) if (characters.includes(text[i]!)) return i;
  return -1;
}

/** A repository path without leading or doubled slashes, a trailing slash or `.git`. */
function cleanPath(path: string): string {
  const joined = path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  const bare = joined.endsWith('.git') ? joined.slice(0, -4) : joined;
  return bare.endsWith('/') ? bare.slice(0, -1) : bare;
}
