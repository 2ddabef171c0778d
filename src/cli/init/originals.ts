import { chmodSync, mkdirSync, realpathSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SessionError, isSessionError } from '../../core/errors';
import type { Settings } from './settings';
import { backupsDir } from './settings-file';
import { writeFileAtomic } from '../../platform/atomic-file';
import { errnoCode, ioError } from '../../platform/errno';
import { namesOrNull, textOrNull } from '../../platform/files';
import { ensurePrivateDir, GITIGNORE, markIgnored, PRIVATE_DIR } from '../../platform/private-fs';

/**
 * What init found in a project's settings files before it first changed them, so that `init --uninstall` gives each
 * back byte for byte (a user's own layout, which a rewrite as JSON would lose; or no file at all) when what is left
 * after taking ours out is what was there: `.claude/agent-session-backups/originals.json`, beside the backups, out
 * of git. A file changed since by someone else keeps its changes: only our part is taken out then.
 */

/** A settings file as init first found it: its text, or absent. */
export type Original = { readonly text: string } | { readonly absent: true };

interface OriginalsFile {
  /** By file name (`settings.json`, `settings.local.json`). */
  readonly files: Readonly<Record<string, Original>>;
  /** init --plugin enabled the plugin in settings.json (it was not enabled before). */
  readonly plugin?: true;
}

/** The record's path for the settings files of a `.claude/` folder. */
function recordPath(settingsFile: string): string {
  return join(backupsDir(settingsFile), 'originals.json');
}

/**
 * Keeps what `settingsFile` holds now (or that it is absent) unless an earlier change kept it already: call before
 * init's first change to it. @throws SessionError E_IO
 */
export function rememberOriginal(settingsFile: string): void {
  const record = readRecord(settingsFile);
  const name = basename(settingsFile);
  if (name in record.files) return;
  const text = textOrNull(settingsFile);
  const original: Original = text === null ? { absent: true } : { text };
  writeRecord(settingsFile, { ...record, files: { ...record.files, [name]: original } });
}

/** Notes that init --plugin enabled the plugin (or, `enabled` false, that this is undone). @throws SessionError E_IO */
export function notePluginEnabled(settingsFile: string, enabled: boolean): void {
  const record = readRecord(settingsFile);
  const { plugin: _was, ...rest } = record;
  writeRecord(settingsFile, enabled ? { ...rest, plugin: true } : rest);
}

/** Whether init --plugin enabled the plugin in this `.claude/` folder's settings.json. */
export function pluginEnabledByInit(settingsFile: string): boolean {
  return readRecord(settingsFile).plugin === true;
}

/**
 * The original of `settingsFile` when `settings` (what is left after taking ours out) is what it held, else null: then
 * only our part goes. Compared as JSON values, key order aside, and without the empty `enabledPlugins` and
 * `extraKnownMarketplaces` objects Claude Code's own `plugin uninstall` and `marketplace remove` leave behind.
 */
export function originalMatching(settingsFile: string, settings: Settings): Original | null {
  const original = readRecord(settingsFile).files[basename(settingsFile)];
  if (original === undefined) return null;
  if ('absent' in original) return isEmpty(normalized(settings)) ? original : null;
  let value: unknown;
  try {
    value = JSON.parse(original.text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  return canonical(normalized(value)) === canonical(normalized(settings)) ? original : null;
}

/**
 * Puts the original back: its bytes, or no file. Then forgets it (the record goes when empty).
 * @throws SessionError E_IO
 */
export function restoreOriginal(settingsFile: string, original: Original): void {
  if ('absent' in original) removeFile(settingsFile);
  else {
    // Through a symbolic link (dotfile managers link settings files), with the file's permissions, as init writes.
    let target = settingsFile;
    let mode = 0o644;
    try {
      target = realpathSync(settingsFile);
      mode = statSync(target).mode & 0o777;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'inspect', settingsFile);
    }
    writeFileAtomic(target, original.text);
    try {
      chmodSync(target, mode);
    } catch (error) {
      throw ioError(error, 'set the permissions of', target);
    }
  }
  forgetOriginal(settingsFile);
}

/** Forgets the original of `settingsFile` (the record goes when nothing is left in it). @throws SessionError E_IO */
export function forgetOriginal(settingsFile: string): void {
  const record = readRecord(settingsFile);
  const name = basename(settingsFile);
  if (!(name in record.files)) return;
  const files = Object.fromEntries(Object.entries(record.files).filter(([file]) => file !== name));
  writeRecord(settingsFile, { ...record, files });
}

// --- internal ---

function readRecord(settingsFile: string): OriginalsFile {
  const path = recordPath(settingsFile);
  const text = textOrNull(path);
  if (text === null) return { files: {} };
  try {
    const value = JSON.parse(text) as Partial<OriginalsFile>;
    const files = typeof value.files === 'object' && value.files !== null ? value.files : {};
    const kept = Object.fromEntries(
      Object.entries(files).filter(
        ([, original]) =>
          typeof original === 'object' &&
          original !== null &&
          ((original as { absent?: unknown }).absent === true ||
            typeof (original as { text?: unknown }).text === 'string'),
      ),
    );
    return { files: kept, ...(value.plugin === true ? { plugin: true } : {}) };
  } catch {
    // A record that is not ours to read gives nothing back: only our part is taken out, as without one.
    return { files: {} };
  }
}

function writeRecord(settingsFile: string, record: OriginalsFile): void {
  const path = recordPath(settingsFile);
  const folder = backupsDir(settingsFile);
  if (Object.keys(record.files).length === 0 && record.plugin !== true) {
    removeFile(path);
    // A backups folder made for the record alone goes with it (one holding backups stays).
    if ((namesOrNull(folder) ?? []).every((name) => name === GITIGNORE))
      rmSync(folder, { recursive: true, force: true });
    return;
  }
  try {
    // `.claude/` itself may not exist yet (init is about to make the file): made as init makes it, never git-ignored.
    mkdirSync(dirname(folder), { recursive: true, mode: PRIVATE_DIR });
    if (ensurePrivateDir(folder)) markIgnored(folder);
  } catch (error) {
    if (isSessionError(error)) throw new SessionError('E_IO', `Cannot keep ${path}: ${error.message}`);
    throw ioError(error, 'create the folder', dirname(folder));
  }
  writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`);
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', path);
  }
}

/** Claude Code's own leftovers taken out: an empty `enabledPlugins` or `extraKnownMarketplaces` object. */
function normalized(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of ['enabledPlugins', 'extraKnownMarketplaces']) {
    const inner = out[key];
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && Object.keys(inner).length === 0)
      delete out[key];
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** JSON text with every object's keys in order: two values are equal as JSON when these are. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
