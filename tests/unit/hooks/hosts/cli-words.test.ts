import { cliWords } from '../../../../src/hooks/hosts/cli-words';
import { shellQuote } from '../../../../src/platform/shell';

describe('the CLI words of the contexts', () => {
  it('builds CLI commands that a shell reads back as the same words', () => {
    expect(shellQuote('/plain/path')).toBe('/plain/path');
    expect(shellQuote("/it's here")).toBe("'/it'\\''s here'");
    expect(cliWords({ binDir: '/opt/bin', env: {}, execPath: '/n/node' }, '/p/.claude/session')).toEqual([
      '/n/node',
      '/opt/bin/agent-session.cjs',
      '--dir',
      '/p/.claude/session',
    ]);
    // Installed as a plugin (issue 30, item 9): the plugin's own bundle by absolute path, never `agent-session` through
    // PATH, where Claude Code puts the plugin's bin/ after the user's folders.
    expect(cliWords({ binDir: '/plug/dist', env: { CLAUDE_PLUGIN_ROOT: '/plug' }, execPath: '/n/node' }, '/r')).toEqual(
      ['/n/node', '/plug/dist/agent-session.cjs', '--dir', '/r'],
    );
    // From sources (no bundle beside the hook): the CLI on PATH.
    expect(cliWords({ binDir: undefined, env: {}, execPath: '/n/node' }, '/r')).toEqual([
      'agent-session',
      '--dir',
      '/r',
    ]);
  });
});
