import type { Settings } from './settings';

/**
 * The plugin's id in Claude Code's `enabledPlugins`: `<plugin>@<marketplace>`, both named `agent-session`
 * (plugin/.claude-plugin/plugin.json, .claude-plugin/marketplace.json).
 */
export const PLUGIN_ID = 'agent-session@agent-session';

/** The marketplace's name, as `claude plugin marketplace add ~/agent-session` registers it. */
export const MARKETPLACE = 'agent-session';

/**
 * The key of `enabledPlugins` that enables an agent-session plugin (of any marketplace a user added it under), or
 * null. Claude Code's shape: `{"enabledPlugins": {"<plugin>@<marketplace>": true}}`; anything else enables nothing.
 */
export function enabledPluginKey(settings: Settings | null): string | null {
  const enabled = settings?.enabledPlugins;
  if (typeof enabled !== 'object' || enabled === null || Array.isArray(enabled)) return null;
  const key = Object.keys(enabled).find(
    (id) => id.startsWith('agent-session@') && (enabled as Record<string, unknown>)[id] === true,
  );
  return key ?? null;
}

/**
 * The settings with the plugin enabled (`enabledPlugins[PLUGIN_ID] = true`), every other key kept, and whether that
 * changed anything. Nothing of this machine goes in: a teammate's Claude Code finds the plugin through the marketplace
 * they added themselves.
 */
export function withPluginEnabled(settings: Settings): { settings: Settings; changed: boolean } {
  const enabled = settings.enabledPlugins;
  const current = typeof enabled === 'object' && enabled !== null && !Array.isArray(enabled) ? enabled : {};
  if ((current as Record<string, unknown>)[PLUGIN_ID] === true) return { settings, changed: false };
  return { settings: { ...settings, enabledPlugins: { ...current, [PLUGIN_ID]: true } }, changed: true };
}

/**
 * The settings without the plugin's entry (PLUGIN_ID, whatever its value), `enabledPlugins` dropped when removing it
 * leaves that empty, and whether anything changed.
 */
export function withoutPlugin(settings: Settings): { settings: Settings; changed: boolean } {
  const enabled = settings.enabledPlugins;
  if (typeof enabled !== 'object' || enabled === null || Array.isArray(enabled) || !(PLUGIN_ID in enabled))
    return { settings, changed: false };
  const rest = Object.fromEntries(Object.entries(enabled).filter(([id]) => id !== PLUGIN_ID));
  const next: Record<string, unknown> = { ...settings, enabledPlugins: rest };
  if (Object.keys(rest).length === 0) delete next.enabledPlugins;
  return { settings: next, changed: true };
}
