import { spawnSync } from 'node:child_process';

/**
 * The version of the `claude` the PATH of `env` resolves (`2.1.337` of `2.1.337 (Claude Code)`), or null when none
 * runs or answers within 10 s: what a project's hooks will be read by, as far as `init` can tell.
 */
export function claudeCodeVersion(env: Readonly<Record<string, string | undefined>>): string | null {
  const run = spawnSync('claude', ['--version'], { env: { ...env }, encoding: 'utf8', timeout: 10_000, stdio: 'pipe' });
  if (run.error !== undefined || run.status !== 0) return null;
  const match = /^(\d+\.\d+\.\d+)\b/.exec(run.stdout.trim());
  return match === null ? null : match[1]!;
}
