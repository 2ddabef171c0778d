import { mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errnoCode, ioError } from '../../platform/errno';
import { writeFileAtomic } from '../../platform/atomic-file';
import { textOrNull } from '../../platform/files';
import { PRIVATE_DIR } from '../../platform/private-fs';

/**
 * `<project>/.opencode/plugin/agent-session.js`: the plugin file `init --host opencode` writes (the whole file).
 * opencode loads every file of a project's `.opencode/plugin/` at start, with no config entry.
 */
export function opencodePluginPath(project: string): string {
  return join(project, '.opencode', 'plugin', 'agent-session.js');
}

/** The first line of the plugin file: what `--uninstall` checks before removing a file of that name. */
export const OPENCODE_PLUGIN_MARK = '// Written by `agent-session init --host opencode`';

/**
 * The plugin file: an ES module (as opencode loads a plugin file) that loads this package's library by absolute path
 * (`dist/index.cjs`, the installed copy `init` ran from) and hands opencode its plugin (src/hooks/hosts/opencode-plugin.ts)
 * as its one export.
 */
export function opencodePluginText(library: string): string {
  return (
    `${OPENCODE_PLUGIN_MARK}: agent-session's opencode plugin (parked sessions\n` +
    '// offered before a delegation, sub-agent sessions made or resumed by the task tool, stops and interruptions\n' +
    '// recorded). `agent-session init --host opencode --uninstall` removes this file.\n' +
    "import { createRequire } from 'node:module';\n\n" +
    `const library = createRequire(import.meta.url)(${JSON.stringify(library)});\n\n` +
    'export const AgentSession = (input) => library.opencodePlugin(input);\n'
  );
}

/** What writing or removing the plugin file did (`foreign`: a file of that name not ours, left alone). */
export type PluginChange = 'added' | 'updated' | 'kept' | 'removed' | 'absent' | 'foreign';

/**
 * Writes the plugin file when its text differs (atomically; folders made private if new). A file of that name that
 * `init` did not write is left alone (`foreign`).
 * @throws SessionError E_IO
 */
export function writeOpencodePlugin(path: string, text: string, dryRun: boolean): PluginChange {
  const before = textOrNull(path);
  if (before === text) return 'kept';
  if (before !== null && !before.startsWith(OPENCODE_PLUGIN_MARK)) return 'foreign';
  if (!dryRun) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    } catch (error) {
      throw ioError(error, 'create the folder', dirname(path));
    }
    writeFileAtomic(path, text);
  }
  return before === null ? 'added' : 'updated';
}

/**
 * Removes the plugin file when it is ours, then its folder and `.opencode/` when that left them empty (init made them;
 * anything else in them is the user's or opencode's, and keeps them).
 * @throws SessionError E_IO
 */
export function removeOpencodePlugin(path: string, dryRun: boolean): PluginChange {
  const before = textOrNull(path);
  if (before === null) return 'absent';
  if (!before.startsWith(OPENCODE_PLUGIN_MARK)) return 'foreign';
  if (!dryRun) {
    try {
      rmSync(path);
    } catch (error) {
      throw ioError(error, 'remove', path);
    }
    for (const folder of [dirname(path), dirname(dirname(path))]) if (!removeIfEmpty(folder)) break;
  }
  return 'removed';
}

function removeIfEmpty(folder: string): boolean {
  try {
    if (readdirSync(folder).length > 0) return false;
    rmdirSync(folder);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return true;
    throw ioError(error, 'remove', folder);
  }
}
