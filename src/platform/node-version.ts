import { spawnSync } from 'node:child_process';

/**
 * What `<node> --version` prints (`v22.12.0`), or null when it does not run (absent, not executable, no answer within
 * 5 s). `node` is an absolute path or a name the PATH of `env` resolves, as a hook's shell would.
 */
export function nodeVersion(node: string, env: Readonly<Record<string, string | undefined>>): string | null {
  const run = spawnSync(node, ['--version'], { env: { ...env }, encoding: 'utf8', timeout: 5000, stdio: 'pipe' });
  if (run.error !== undefined || run.status !== 0) return null;
  const version = run.stdout.trim();
  return /^v\d+\.\d+\.\d+/.test(version) ? version : null;
}
