// Claude Code's native build, as it ships since the npm wrapper stopped at 2.1.332: the per-platform package
// (`@anthropic-ai/claude-code-linux-x64`, its `claude` binary), installed once from the npm registry into
// node_modules/.cache/agent-session/, for the checks whose claim is about the newest Claude Code (its plugin validator,
// how it loads a teammate's plugin). Fails, never skips, when it cannot be installed or run here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { firstRunnable, type Claude } from '../host/claude-host';

/** The newest native build these checks were taken with (the host suite plays "latest" itself). */
export const NEWEST_NATIVE_CLAUDE = '2.1.337';

const REPO = resolve(__dirname, '..', '..');

/**
 * The native `claude` of `version`, installed into node_modules/.cache/agent-session/claude-code-native-<version>/
 * on first use (`npm install` of the platform package: about 200 MB, a minute on a cold cache).
 * @throws Error naming the package and what failed when it cannot be installed or does not answer `--version`
 */
export function nativeClaude(version = NEWEST_NATIVE_CLAUDE): Claude {
  const name = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  const dir = join(REPO, 'node_modules', '.cache', 'agent-session', `claude-code-native-${version}`);
  const binary = join(dir, 'node_modules', ...name.split('/'), 'claude');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${name}@${version}`],
      { encoding: 'utf8', timeout: 600_000 },
    );
    if (install.status !== 0)
      throw new Error(`Could not install ${name}@${version} from the npm registry: ${install.stderr.slice(-500)}`);
  }
  const tried: string[] = [];
  const path = firstRunnable([binary], tried, (answer) => answer.startsWith(`${version} `));
  if (path === undefined) throw new Error(`Claude Code ${version} (${name}) is not runnable here: ${tried.join('; ')}`);
  return { path, version };
}
