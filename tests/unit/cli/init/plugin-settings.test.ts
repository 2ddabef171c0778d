import {
  enabledPluginKey,
  PLUGIN_ID,
  withoutPlugin,
  withPluginEnabled,
} from '../../../../src/cli/init/plugin-settings';

describe('the plugin in Claude Code settings (enabledPlugins)', () => {
  it.each([
    [null, null],
    [{}, null],
    [{ enabledPlugins: [] }, null],
    [{ enabledPlugins: { [PLUGIN_ID]: false } }, null],
    [{ enabledPlugins: { [PLUGIN_ID]: true } }, PLUGIN_ID],
    [{ enabledPlugins: { 'agent-session@mine': true } }, 'agent-session@mine'],
    [{ enabledPlugins: { 'other@agent-session': true } }, null],
  ])('enabledPluginKey(%j) is %j', (settings, key) => {
    expect(enabledPluginKey(settings)).toBe(key);
  });

  it('enables it with nothing of the machine, keeping every other key and plugin; a second time changes nothing', () => {
    const first = withPluginEnabled({ model: 'opus', enabledPlugins: { 'x@y': true } });
    expect(first).toEqual({
      settings: { model: 'opus', enabledPlugins: { 'x@y': true, [PLUGIN_ID]: true } },
      changed: true,
    });
    expect(withPluginEnabled(first.settings)).toEqual({ settings: first.settings, changed: false });
  });

  it('takes only its entry out, and enabledPlugins with it when left empty', () => {
    expect(withoutPlugin({ model: 'opus', enabledPlugins: { [PLUGIN_ID]: true } })).toEqual({
      settings: { model: 'opus' },
      changed: true,
    });
    expect(withoutPlugin({ enabledPlugins: { [PLUGIN_ID]: false, 'x@y': true } }).settings).toEqual({
      enabledPlugins: { 'x@y': true },
    });
    // An empty object of the user's own is theirs.
    expect(withoutPlugin({ enabledPlugins: {} })).toEqual({ settings: { enabledPlugins: {} }, changed: false });
  });
});
