import {
  chmodSync,
  copyFileSync,
  constants,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SessionError, isSessionError } from '../../core/errors';
import { describeJsonError } from '../../core/json-error';
import type { Settings } from './settings';
import { errnoCode, ioError } from '../../platform/errno';
import { writeFileAtomic } from '../../platform/atomic-file';
import { PRIVATE_DIR, ensurePrivateDir, markIgnored } from '../../platform/private-fs';

/** A project's `.claude/settings.json`, as read. */
export interface SettingsFile {
  readonly path: string;
  /** null when the file does not exist yet. */
  readonly settings: Settings | null;
  /** The file began with a UTF-8 byte order mark (some Windows editors write one); it is kept when written back. */
  readonly bom?: boolean;
}

const BOM = '\uFEFF';

/**
 * `<project>/.claude/settings.local.json`: Claude Code's per-machine project settings, which it merges over
 * settings.json; where init's hooks go (they name this machine's node and bins).
 */
export function localSettingsPath(project: string): string {
  return join(project, '.claude', 'settings.local.json');
}

/** `<project>/.claude/settings.json`. */
export function settingsPath(project: string): string {
  return join(project, '.claude', 'settings.json');
}

/**
 * Reads and parses the settings file. Absent is fine (null); anything but a JSON object is refused, and so is a
 * symbolic link whose target does not exist (writing would replace the link with a file). A leading byte order mark
 * is accepted. Errors name the place (line and column), never the content: settings hold secrets.
 * @throws SessionError E_CORRUPT when it is not valid JSON or not an object, E_IO for a dangling link or other read failures
 */
export function readSettings(path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') {
      const target = danglingTarget(path);
      if (target !== null) {
        const got = `a link to \`${target}\`, which does not exist; create it or remove the link (nothing was changed)`;
        throw new SessionError('E_IO', `Expected \`${path}\` to be a file or a link to one, got ${got}`);
      }
      return { path, settings: null };
    }
    throw ioError(error, 'read', path);
  }
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const place = describeJsonError(text);
    throw new SessionError(
      'E_CORRUPT',
      `Expected \`${path}\` to be valid JSON, got an error at ${place}; nothing was changed`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new SessionError('E_CORRUPT', `Expected \`${path}\` to hold a JSON object, got ${kind}; nothing was changed`);
  }
  return { path, settings: value as Settings, bom };
}

/**
 * Writes the settings atomically, keeping the file's permissions and writing through a symbolic link (dotfile
 * managers link settings files). An existing file is first copied to `agent-session-backups/settings.json.bak-<UTC
 * time>` beside it (a folder git ignores: backupsDir), never over an earlier backup.
 * @returns the backup's path, or null when there was no file to back up
 * @throws SessionError E_IO
 */
export function writeSettings(file: SettingsFile, settings: Settings, now: Date): string | null {
  const target = file.settings === null ? file.path : realTarget(file.path);
  let backup: string | null = null;
  let mode = 0o644;
  try {
    // Private whatever the umask, as the rest of the tree (another local user must not plant links in it).
    mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    throw ioError(error, 'create the folder', dirname(target));
  }
  if (file.settings !== null) {
    try {
      mode = statSync(target).mode & 0o777;
    } catch (error) {
      throw ioError(error, 'inspect', target);
    }
    // A rename replaces even a read-only file (and root may write anything): the mode is the owner's word, respected.
    if ((mode & 0o222) === 0) {
      const got = `mode ${mode.toString(8).padStart(4, '0')} (read-only); make it writable (chmod u+w) to let init change it`;
      throw new SessionError('E_IO', `Expected \`${target}\` to be writable, got ${got} (nothing was changed)`);
    }
    backup = backUp(target, join(backupsDir(file.path), `${basename(file.path)}.bak-${stamp(now)}`));
  }
  writeFileAtomic(target, `${file.bom === true ? BOM : ''}${JSON.stringify(settings, null, 2)}\n`);
  try {
    chmodSync(target, mode);
  } catch (error) {
    throw ioError(error, 'set the permissions of', target);
  }
  return backup;
}

/** The folder of init's backups beside a settings file: `<folder>/agent-session-backups/`, ignored by git. */
export function backupsDir(settingsFile: string): string {
  return join(dirname(settingsFile), BACKUPS_DIR);
}

// --- internal ---

/** Backups live in a folder of their own, whose `.gitignore` keeps them out of git (the settings' folder is shared). */
const BACKUPS_DIR = 'agent-session-backups';

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, '');
}

/**
 * Copies `source` to `base` (or the next free `base-N`), never over an earlier backup; its folder made private and
 * ignored by git first. @throws SessionError E_IO
 */
export function backUp(source: string, base: string): string {
  try {
    if (ensurePrivateDir(dirname(base))) markIgnored(dirname(base));
  } catch (error) {
    if (isSessionError(error)) throw new SessionError('E_IO', `Cannot back up to ${base}: ${error.message}`);
    throw error;
  }
  // COPYFILE_EXCL never overwrites an earlier backup; a clash (same millisecond) takes the next free name.
  for (let n = 0; ; n++) {
    const backup = n === 0 ? base : `${base}-${n}`;
    try {
      copyFileSync(source, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || n >= 99) throw ioError(error, 'back up to', backup);
    }
  }
}

/** The target of `path` when it is a symbolic link (to something absent, as the caller found); else null. */
function danglingTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw ioError(error, 'inspect', path);
  }
}

function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    throw ioError(error, 'resolve', path);
  }
}
