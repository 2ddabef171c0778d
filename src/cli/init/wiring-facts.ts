import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isSessionError } from '../../core/errors';
import type { SettingsFacts } from '../../core/doctor';
import { textOrNull } from '../../platform/files';
import { codexHooksPath } from './codex-files';
import { opencodePluginPath } from './opencode-files';
import { enabledPluginKey, MARKETPLACE } from './plugin-settings';
import type { Settings } from './settings';
import { localSettingsPath, readSettings, settingsPath } from './settings-file';

/**
 * What is wired in a project, read the way Claude Code reads it (for `doctor`): each settings file's hooks of ours
 * (a command running our pre-delegate or subagent-stop bin), the bins they name, the node they run, the plugin.
 */

/** A hook command of ours found in a project's file: where, and the node it runs (`node`: the PATH's). */
export interface OurHook {
  readonly file: string;
  readonly event: string;
  readonly node: string;
  readonly bin: string;
}

/**
 * A project's Claude Code settings files (settings.local.json, then settings.json), then this user's
 * (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`: a plugin enabled for every project), judged
 * for doctor.
 */
export function claudeWiring(
  project: string,
  env: Readonly<Record<string, string | undefined>>,
): { files: SettingsFacts[]; hooks: OurHook[] } {
  const files: SettingsFacts[] = [];
  const hooks: OurHook[] = [];
  const user = userSettingsPath(env);
  for (const path of [localSettingsPath(project), settingsPath(project), ...(user === null ? [] : [user])]) {
    let settings: Settings | null;
    try {
      settings = readSettings(path).settings;
    } catch (error) {
      if (!isSessionError(error)) throw error;
      // readSettings speaks for init ("nothing was changed"); doctor changes nothing anyway.
      files.push({ path, state: 'broken', problem: error.message.replace(/; nothing was changed$/, '') });
      continue;
    }
    if (settings === null) {
      files.push({ path, state: 'absent' });
      continue;
    }
    const found = ourHooks(path, settings.hooks);
    hooks.push(...found);
    files.push({
      path,
      state: 'read',
      events: [...new Set(found.map((h) => h.event))],
      missingBins: [...new Set(found.filter((h) => !existsSync(h.bin)).map((h) => h.bin))],
      plugin: enabledPluginKey(settings) !== null,
    });
  }
  return { files, hooks };
}

/** The other hosts' files of ours in the project: Codex's hooks (ours in them), opencode's plugin file. */
export function otherHostWiring(project: string): { hosts: string[]; hooks: OurHook[] } {
  const hosts: string[] = [];
  const hooks: OurHook[] = [];
  const codex = codexHooksPath(project);
  try {
    const text = textOrNull(codex);
    if (text !== null) {
      const found = ourHooks(codex, (JSON.parse(text) as { hooks?: unknown }).hooks);
      if (found.length > 0) {
        hosts.push(`Codex (${codex})`);
        hooks.push(...found);
      }
    }
  } catch {
    // Codex's file is Codex's to judge; doctor's checks are Claude Code's.
  }
  const opencode = opencodePluginPath(project);
  if (existsSync(opencode)) hosts.push(`opencode (${opencode})`);
  return { hosts, hooks };
}

/**
 * Whether this user's Claude Code knows the agent-session marketplace (`claude plugin marketplace add`): in the user
 * settings' `extraKnownMarketplaces` or its plugins' `known_marketplaces.json` (`CLAUDE_CONFIG_DIR`, else ~/.claude).
 * True when there is no such folder to look in (it cannot be told).
 */
export function marketplaceKnown(env: Readonly<Record<string, string | undefined>>): boolean {
  const home = env.HOME;
  const dir = env.CLAUDE_CONFIG_DIR ?? (home === undefined || home === '' ? undefined : join(home, '.claude'));
  if (dir === undefined) return true;
  const has = (path: string, key?: string): boolean => {
    try {
      const value = JSON.parse(textOrNull(path) ?? '{}') as Record<string, unknown>;
      const table = key === undefined ? value : value[key];
      return typeof table === 'object' && table !== null && MARKETPLACE in table;
    } catch {
      return false;
    }
  };
  return (
    has(join(dir, 'settings.json'), 'extraKnownMarketplaces') || has(join(dir, 'plugins', 'known_marketplaces.json'))
  );
}

// --- internal ---

/** This user's Claude Code settings file, or null without a HOME (or CLAUDE_CONFIG_DIR) to find it by. */
function userSettingsPath(env: Readonly<Record<string, string | undefined>>): string | null {
  const home = env.HOME;
  const dir = env.CLAUDE_CONFIG_DIR ?? (home === undefined || home === '' ? undefined : join(home, '.claude'));
  return dir === undefined ? null : join(dir, 'settings.json');
}

/** The handlers of a `hooks` table that run a bin of ours: `"<node>" "<bin>"` (init's form) or `node "<bin>"`. */
function ourHooks(file: string, table: unknown): OurHook[] {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return [];
  const found: OurHook[] = [];
  for (const [event, groups] of Object.entries(table)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = typeof group === 'object' && group !== null ? (group as { hooks?: unknown }).hooks : undefined;
      if (!Array.isArray(handlers)) continue;
      for (const handler of handlers) {
        const command =
          typeof handler === 'object' && handler !== null ? (handler as { command?: unknown }).command : undefined;
        if (typeof command !== 'string') continue;
        const parsed = /^(?:"((?:[^"\\]|\\.)*)"|(node)) "((?:[^"\\]|\\.)*(?:pre-delegate|subagent-stop)\.cjs)"/.exec(
          command,
        );
        if (parsed === null) continue;
        const node = parsed[1] === undefined ? 'node' : unquote(parsed[1]);
        found.push({ file, event, node, bin: unquote(parsed[3]!) });
      }
    }
  }
  return found;
}

/** A double-quoted word's text (settings.ts doubleQuoted escapes `"`, `\`, `$` and backtick). */
function unquote(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
