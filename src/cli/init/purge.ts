import { existsSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { SessionError } from '../../core/errors';
import type { Host } from '../../core/host';
import { configPathFor, logDirFor, resolveCall, storeFolderOf } from '../../app/call';
import type { Config } from '../../core/config';
import {
  forgetWired,
  madeFolders,
  removeEmptyFolders,
  wiredProjects,
  type WiredProject,
} from '../../app/wired-projects';
import { noteNoCodeCache } from '../../platform/code-cache-hint';
import { errnoCode, ioError } from '../../platform/errno';
import { lstatOrNull, textOrNull } from '../../platform/files';
import { userCacheFolder, userConfigFolder, userDataFolder } from '../../platform/user-folders';
import { codexHooksPath } from './codex-files';
import { opencodePluginPath } from './opencode-files';
import { pluginEnabledByInit } from './originals';
import { enabledPluginKey } from './plugin-settings';
import { localSettingsPath, readSettings, settingsPath } from './settings-file';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `init --uninstall --purge`, after the wiring is out: what agent-session keeps in the project (its file store, logs,
 * init's backups, `.claude/agent-session.json` unless git tracks it: then it is the team's), the project's `.claude/`
 * (or `.codex/`) when that leaves it empty; then, once no other project this user wired still runs our hooks, this
 * user's folders (the code cache, the user-level settings and data) and the PostgreSQL relay. Only what is ours: a
 * store, log folder or config file named elsewhere (AGENT_SESSION_DIR, AGENT_SESSION_LOG_DIR, AGENT_SESSION_CONFIG)
 * is left, and said.
 * @throws SessionError E_REFUSED when another project still runs our hooks (this project is done; the user's folders
 *   stay, and so does the CLI when the README's line chains its removal after this), E_IO
 */
export async function purge(project: string, host: Host, env: Env, say: (line: string) => void): Promise<void> {
  const projectEnv = { ...env, CLAUDE_PROJECT_DIR: project };
  // Read before the config file goes: the database whose relay to stop. As a hook reads it (an invalid file: the
  // defaults), so that a broken file never keeps the rest from going.
  const call = resolveCall({ env: projectEnv, cwd: project, use: 'hook' });
  const root = call.root;
  const claude = join(project, '.claude');
  if (storeFolderOf(root) === project) removeTree(root, 'the file store', say);
  else say(`! ${root}: a store named elsewhere (AGENT_SESSION_DIR), left alone`);
  const logs = logDirFor(root, env);
  if (logs === join(claude, 'logs')) removeTree(logs, 'the hook logs', say);
  else say(`! ${logs}: a log folder named elsewhere (AGENT_SESSION_LOG_DIR), left alone`);
  const hostFolder = host === 'codex' ? dirname(codexHooksPath(project)) : claude;
  removeTree(join(hostFolder, 'agent-session-backups'), "init's backups", say);
  const config = configPathFor(root, env, project);
  if (config !== join(claude, 'agent-session.json')) say(`! ${config}: a config file named elsewhere, left alone`);
  else if (existsSync(config)) {
    if (trackedByGit(config)) say(`! ${config}: tracked by git (the team's settings), left alone`);
    else {
      removeFile(config);
      say(`Removed ${config}`);
    }
  }
  for (const folder of new Set([hostFolder, claude])) removeIfEmpty(folder, say);
  forgetWired(env, project);

  const others = wiredProjects(env).filter((wired) => {
    if (stillWired(wired)) return true;
    forgetWired(env, wired.folder, wired.host);
    return false;
  });
  if (others.length > 0) {
    const list = others.map((p) => `${p.folder}${p.host === 'claude-code' ? '' : ` (--host ${p.host})`}`).join(', ');
    throw new SessionError(
      'E_REFUSED',
      `Expected no other project to run agent-session's hooks before removing it from this machine, got ${list}: ` +
        'run `agent-session init --uninstall --purge` there too (this project is done; your agent-session folders ' +
        'and the CLI stay until then)',
    );
  }
  await stopRelay(call.config.values, env, say);
  const made = madeFolders(env);
  for (const [folder, what] of [
    [userCacheFolder(env), 'the code cache'],
    [userConfigFolder(env), 'your agent-session settings'],
    [userDataFolder(env), 'your agent-session data'],
  ] as const)
    if (folder !== null) removeTree(folder, what, say, false);
  removeEmptyFolders(made);
  // This call must not make a code cache as it exits: that would bring the cache folder back.
  noteNoCodeCache();
  say(
    'agent-session is off this machine once its package is removed; a crontab line of init, if you added one, is yours to remove (crontab -e)',
  );
}

/**
 * Whether a project init wired still runs our hooks (its files name our bins, or init enabled the plugin there and it
 * still is): one removed since, or unwired by hand, is not.
 */
export function stillWired(wired: WiredProject): boolean {
  const names = (text: string | null): boolean =>
    text !== null && (text.includes('pre-delegate.cjs') || text.includes('subagent-stop.cjs'));
  switch (wired.host) {
    case 'claude-code': {
      const shared = settingsPath(wired.folder);
      if (names(read(localSettingsPath(wired.folder))) || names(read(shared))) return true;
      if (!pluginEnabledByInit(shared)) return false;
      try {
        return enabledPluginKey(readSettings(shared).settings) !== null;
      } catch {
        // A file we cannot read: say it is wired (the guard is the safe side).
        return true;
      }
    }
    case 'codex':
      return names(read(codexHooksPath(wired.folder)));
    case 'opencode':
      return existsSync(opencodePluginPath(wired.folder));
    default:
      return false;
  }
}

// --- internal ---

function read(path: string): string | null {
  try {
    return textOrNull(path);
  } catch {
    return null;
  }
}

/**
 * Removes a folder of ours and everything in it (a link in its place: the link only), never through a linked parent
 * in the project (a `.claude/` that is a link: the store refuses to write through one, so what is there is not ours);
 * says what it did.
 */
function removeTree(path: string, what: string, say: (line: string) => void, inProject = true): void {
  if (lstatOrNull(path) === null) return;
  if (inProject && lstatOrNull(dirname(path))?.isSymbolicLink() === true) {
    say(`! ${path}: in a folder that is a link, left alone`);
    return;
  }
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (error) {
    throw ioError(error, 'remove', path);
  }
  say(`Removed ${path} (${what})`);
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw ioError(error, 'remove', path);
  }
}

function removeIfEmpty(folder: string, say: (line: string) => void): void {
  try {
    rmdirSync(folder);
    say(`Removed ${folder} (left empty)`);
  } catch (error) {
    const code = errnoCode(error);
    // ENOTDIR: a link in its place, not a folder of ours: left.
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR')
      throw ioError(error, 'remove', folder);
  }
}

/** Whether git tracks the file (false outside a repository, or without git). */
function trackedByGit(path: string): boolean {
  const result = spawnSync('git', ['ls-files', '--error-unmatch', '--', basename(path)], {
    cwd: dirname(path),
    stdio: 'ignore',
  });
  return result.status === 0;
}

/** Asks this user's relay of the configured database to stop, when there is one (PostgreSQL only). */
async function stopRelay(config: Config, env: Env, say: (line: string) => void): Promise<void> {
  if (config.database_url === null) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only a purge with a database loads it
  const { askRelayOf } = require('../../app/relay-server') as typeof import('../../app/relay-server');
  try {
    const report = await askRelayOf(config, env, 'stop');
    if (report.reply.running) say(`Stopped the relay for ${report.location}`);
  } catch {
    // Not running, or not ours to reach: it stops by itself after 5 idle minutes.
  }
}
