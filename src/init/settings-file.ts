import { chmodSync, copyFileSync, constants, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SessionError, show } from '../core/errors';
import { errnoCode, ioError, writeFileAtomic } from '../store/fs-safe';
import type { Settings } from './settings';

/** A project's `.claude/settings.json`, as read. */
export interface SettingsFile {
  readonly path: string;
  /** null when the file does not exist yet. */
  readonly settings: Settings | null;
}

/** `<project>/.claude/settings.json`. */
export function settingsPath(project: string): string {
  return join(project, '.claude', 'settings.json');
}

/**
 * Reads and parses the settings file. Absent is fine (null); anything but a JSON object is refused.
 * @throws SessionError E_CORRUPT when it is not valid JSON or not an object, E_IO on other read failures
 */
export function readSettings(path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { path, settings: null };
    throw ioError(error, 'read', path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SessionError('E_CORRUPT', `Expected \`${path}\` to be valid JSON, got ${show(text)} (${(error as Error).message}); nothing was changed`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SessionError('E_CORRUPT', `Expected \`${path}\` to hold a JSON object, got ${show(value)}; nothing was changed`);
  }
  return { path, settings: value as Settings };
}

/**
 * Writes the settings atomically, keeping the file's permissions and writing through a symbolic link (dotfile
 * managers link settings files). An existing file is first copied to `settings.json.bak-<UTC time>`, never over an earlier backup.
 * @returns the backup's path, or null when there was no file to back up
 * @throws SessionError E_IO
 */
export function writeSettings(file: SettingsFile, settings: Settings, now: Date): string | null {
  const target = file.settings === null ? file.path : realTarget(file.path);
  let backup: string | null = null;
  let mode = 0o644;
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw ioError(error, 'create the folder', dirname(target));
  }
  if (file.settings !== null) {
    try {
      mode = statSync(target).mode & 0o777;
    } catch (error) {
      throw ioError(error, 'inspect', target);
    }
    backup = backUp(target, `${file.path}.bak-${now.toISOString().replace(/[-:.]/g, '')}`);
  }
  writeFileAtomic(target, `${JSON.stringify(settings, null, 2)}\n`);
  try {
    chmodSync(target, mode);
  } catch (error) {
    throw ioError(error, 'set the permissions of', target);
  }
  return backup;
}

// --- internal ---

function backUp(source: string, base: string): string {
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

function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    throw ioError(error, 'resolve', path);
  }
}
