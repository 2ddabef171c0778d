import { userConfigFolder, userDataFolder } from '../../../src/platform/user-folders';

describe('user folders', () => {
  it.each([
    [{ HOME: '/home/a' }, '/home/a/.local/share/agent-session', '/home/a/.config/agent-session'],
    [
      { HOME: '/home/a', XDG_DATA_HOME: '/x/data', XDG_CONFIG_HOME: '/x/conf' },
      '/x/data/agent-session',
      '/x/conf/agent-session',
    ],
    // A relative XDG value is invalid by the specification: the home folder's default applies.
    [
      { HOME: '/home/a', XDG_DATA_HOME: 'rel', XDG_CONFIG_HOME: 'rel' },
      '/home/a/.local/share/agent-session',
      '/home/a/.config/agent-session',
    ],
  ])('%j', (env, data, config) => {
    expect(userDataFolder(env)).toBe(data);
    expect(userConfigFolder(env)).toBe(config);
  });
});
