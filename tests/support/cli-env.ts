// The CLI as the daily-use tests run it: what it shows (colour, width) and how it behaves (config, logs, limits) comes
// from variables the runner may have set too, so those are removed and each case sets its own.
import type { SpawnSyncReturns } from 'node:child_process';
import { BIN, run } from '../helpers';

/** The variables of the CLI's output and behaviour, unset (spread into a run's env). */
export const NO_CLI_SETTINGS = {
  FORCE_COLOR: undefined,
  NO_COLOR: undefined,
  COLUMNS: undefined,
  AGENT_SESSION_CONFIG: undefined,
  AGENT_SESSION_LOG_DIR: undefined,
  AGENT_SESSION_MAX_ERRORS: undefined,
  AGENT_SESSION_RESUME_TIMEOUT_MINUTES: undefined,
} as const;

/** The built CLI run in `cwd` (on `input` when given) with `base` as its settings and a case's own `env` over them. */
export type CliRun = (
  cwd: string,
  args: readonly string[],
  env?: Record<string, string | undefined>,
  input?: string,
) => SpawnSyncReturns<string>;

/** A CliRun whose settings are `base` (NO_CLI_SETTINGS, and what a file adds). */
export function cliWith(base: Record<string, string | undefined>): CliRun {
  return (cwd, args, env = {}, input) =>
    run(BIN.cli, args, { cwd, env: { ...base, ...env }, ...(input === undefined ? {} : { input }) });
}
