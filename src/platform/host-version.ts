// The version of each host program on the user's PATH (`<program> --version`): what `init` wires each host's hooks for
// and `doctor` reports.
import { spawnSync } from 'node:child_process';

/**
 * The version of the `claude` the PATH of `env` resolves (`2.1.337` of `2.1.337 (Claude Code)`), or null when none
 * runs or answers within 10 s: what a project's hooks will be read by, as far as `init` can tell.
 */
export function claudeCodeVersion(env: Readonly<Record<string, string | undefined>>): string | null {
  return versionOf('claude', /^(\d+\.\d+\.\d+)\b/, env);
}

/** The version of the `codex` the PATH of `env` resolves (`0.171.0` of `codex-cli 0.171.0`), or null (as above). */
export function codexVersion(env: Readonly<Record<string, string | undefined>>): string | null {
  return versionOf('codex', /^codex-cli (\d+\.\d+\.\d+)\b/, env);
}

function versionOf(program: string, pattern: RegExp, env: Readonly<Record<string, string | undefined>>): string | null {
  const run = spawnSync(program, ['--version'], { env: { ...env }, encoding: 'utf8', timeout: 10_000, stdio: 'pipe' });
  if (run.error !== undefined || run.status !== 0) return null;
  const match = pattern.exec(run.stdout.trim());
  return match === null ? null : match[1]!;
}
