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
    // Installed as a plugin: the plugin's bin/ is on the Bash tool's PATH.
    expect(cliWords({ binDir: '/plug/dist', env: { CLAUDE_PLUGIN_ROOT: '/plug' }, execPath: '/n/node' }, '/r')).toEqual(
      ['agent-session', '--dir', '/r'],
    );
    // Another plugin's root is not ours.
    expect(cliWords({ binDir: '/opt/bin', env: { CLAUDE_PLUGIN_ROOT: '/plug' }, execPath: '/n/node' }, '/r')[0]).toBe(
      '/n/node',
    );
  });
});
