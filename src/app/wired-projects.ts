import { mkdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Host } from '../core/host';
import { writeFileAtomic } from '../platform/atomic-file';
import { errnoCode, ioError } from '../platform/errno';
import { isDirectory, textOrNull } from '../platform/files';
import { PRIVATE_DIR } from '../platform/private-fs';
import { userDataFolder } from '../platform/user-folders';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The projects this user's `init` wired, kept in the user's data folder (`~/.local/share/agent-session/wired.json`,
 * never in a project): `init --uninstall --purge` removes agent-session from the machine only once no other project
 * still runs its hooks, so the package is never removed under hooks that would then fail silently.
 */

/** One project init wired, and for which host (`claude-code` also when init --plugin enabled the plugin there). */
export interface WiredProject {
  readonly folder: string;
  readonly host: Host;
}

const FILE = 'wired.json';

interface WiredRecord {
  readonly projects: readonly WiredProject[];
  /** The folders above the data folder that recording made (absent before): removed with it when left empty. */
  readonly made: readonly string[];
}

/** The projects recorded (none when there is no data folder or no record). @throws SessionError E_IO */
export function wiredProjects(env: Env): WiredProject[] {
  return [...readRecord(env).projects];
}

/** The folders above the data folder that recording made, deepest first (purge removes them when left empty). */
export function madeFolders(env: Env): string[] {
  return [...readRecord(env).made];
}

/** Removes each folder that is empty, in order (deepest first); a folder that is not empty or absent is left. */
export function removeEmptyFolders(folders: readonly string[]): void {
  for (const folder of folders) {
    try {
      rmdirSync(folder);
    } catch (error) {
      const code = errnoCode(error);
      // ENOTDIR: a link in its place, not a folder of ours: left.
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR')
        throw ioError(error, 'remove', folder);
    }
  }
}

function readRecord(env: Env): WiredRecord {
  const path = recordPath(env);
  if (path === null) return { projects: [], made: [] };
  const text = textOrNull(path);
  if (text === null) return { projects: [], made: [] };
  try {
    const value = JSON.parse(text) as { projects?: unknown; made?: unknown };
    const made = Array.isArray(value.made) ? value.made.filter((f): f is string => typeof f === 'string') : [];
    if (!Array.isArray(value.projects)) return { projects: [], made };
    const projects = value.projects.filter(
      (p): p is WiredProject =>
        typeof p === 'object' &&
        p !== null &&
        typeof (p as WiredProject).folder === 'string' &&
        typeof (p as WiredProject).host === 'string',
    );
    return { projects, made };
  } catch {
    // Unreadable: nothing recorded (the guard it serves then has nothing to say).
    return { projects: [], made: [] };
  }
}

/** Records that init wired `folder` for `host` (once). @throws SessionError E_IO */
export function recordWired(env: Env, folder: string, host: Host): void {
  const { projects, made } = readRecord(env);
  const entry = { folder: resolve(folder), host };
  if (projects.some((p) => p.folder === entry.folder && p.host === host)) return;
  write(env, { projects: [...projects, entry], made });
}

/** Forgets `folder` for `host` (every host when undefined); the file goes when nothing is left. */
export function forgetWired(env: Env, folder: string, host?: Host): void {
  const { projects, made } = readRecord(env);
  const at = resolve(folder);
  const left = projects.filter((p) => !(p.folder === at && (host === undefined || p.host === host)));
  if (left.length !== projects.length) write(env, { projects: left, made });
}

// --- internal ---

function recordPath(env: Env): string | null {
  const folder = userDataFolder(env);
  return folder === null ? null : join(folder, FILE);
}

/**
 * Writes the record, or removes it when no project is left; the data folder is made (0700) with the folders above it
 * that are missing, which the record keeps (`made`) for purge.
 */
function write(env: Env, record: WiredRecord): void {
  const folder = userDataFolder(env);
  if (folder === null) return;
  const path = join(folder, FILE);
  if (record.projects.length === 0) {
    try {
      unlinkSync(path);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', path);
    }
    // Nothing else of ours there (the trust records keep it otherwise): the folder and the ones made for it go too.
    removeEmptyFolders([folder, ...record.made]);
    return;
  }
  const made = [...record.made];
  for (let above = dirname(folder); !isDirectory(above) && dirname(above) !== above; above = dirname(above))
    if (!made.includes(above)) made.push(above);
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    throw ioError(error, 'create the folder', folder);
  }
  writeFileAtomic(path, `${JSON.stringify({ projects: record.projects, made }, null, 2)}\n`);
}
