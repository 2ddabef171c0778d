import type { Argv } from 'yargs';
import type { EffectiveConfig } from '../core/config';
import { configFor, openSessions, storeRoot } from '../service/assembly';
import { colourEnabled } from './color';
import type { Sessions } from '../service/sessions';

/** Where a command writes, and the exit code of a negative answer. Passed through yargs' parse context. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly now: () => Date;
  /** Whether stdout is a terminal (colour is used only then, and never with NO_COLOR). */
  readonly isTTY?: boolean;
  /** The folder of the running bin (the hook bins are its siblings); absent when run from sources. */
  readonly binDir?: string;
  /** Set by a command whose answer is "no" (exit 1); errors are thrown instead. */
  negative: boolean;
}

/** Options every command has. */
export interface GlobalArgs {
  readonly dir?: string | undefined;
  readonly io: CliIo;
}

/** What a command runs with: the settings in force, and the service of the store this invocation points at. */
export interface CliContext {
  /** The settings (config file and environment) of this store. */
  readonly config: EffectiveConfig;
  /** Opens the service of this store, runs `work` on it, and closes the store whatever happens. */
  withSessions<T>(work: (sessions: Sessions) => T | Promise<T>): Promise<T>;
}

/**
 * The one context every command takes its store and settings from: the store root is resolved once (--dir,
 * AGENT_SESSION_DIR, the project), its settings read once, and the service opened with them.
 * @throws SessionError E_USAGE for an invalid config file or variable, E_IO when a folder cannot be inspected
 */
export function contextFor(argv: GlobalArgs): CliContext {
  const root = storeRoot({ dir: argv.dir, env: argv.io.env, cwd: argv.io.cwd });
  // Passed as the explicit folder, the root is not looked up again.
  const environment = { dir: root, env: argv.io.env, cwd: argv.io.cwd };
  const config = configFor(environment);
  return {
    config,
    async withSessions(work) {
      const sessions = openSessions(environment, config.values);
      try {
        return await work(sessions);
      } finally {
        await sessions.close();
      }
    },
  };
}

/** Whether this invocation may colour its tables. */
export function colourFor(io: CliIo): boolean {
  return colourEnabled(io.isTTY, io.env);
}

/** Adds `--json` to a command. */
export function withJson<T>(yargs: Argv<T>): Argv<T & { json: boolean }> {
  return yargs.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });
}

/** Prints a value as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
