import { join, resolve } from 'node:path';
import { nonEmpty } from '../../platform/env';
import type { CliPlace } from './adapter';

/**
 * The words that run the CLI on `root`: its program (cliProgram), `--dir`, the root.
 * @param pluginBinOnPath see cliProgram
 */
export function cliWords(io: CliPlace, root: string, pluginBinOnPath = true): string[] {
  return [...cliProgram(io, pluginBinOnPath), '--dir', root];
}

/**
 * The words that run the CLI. Installed as a Claude Code plugin (this bin is `${CLAUDE_PLUGIN_ROOT}/dist`),
 * `agent-session`: the plugin's `bin/` is on the PATH of Claude Code's Bash tool. Else the sibling bundle, run by the
 * node running this hook, by absolute path (a GUI-started Claude Code may lack the shell's nvm or volta PATH); from
 * sources, `agent-session` on PATH.
 * @param pluginBinOnPath whether the host puts an installed plugin's `bin/` on its shell's PATH: Claude Code does; the
 *   Codex binary knows CLAUDE_PLUGIN_ROOT (for its plugins' hooks) but does not, so under Codex always the absolute form
 */
export function cliProgram(io: CliPlace, pluginBinOnPath = true): string[] {
  const pluginRoot = pluginBinOnPath ? nonEmpty(io.env.CLAUDE_PLUGIN_ROOT) : undefined;
  const plugin = io.binDir !== undefined && pluginRoot !== undefined && resolve(pluginRoot, 'dist') === io.binDir;
  if (io.binDir === undefined || plugin) return ['agent-session'];
  return [io.execPath ?? 'node', join(io.binDir, 'agent-session.cjs')];
}
