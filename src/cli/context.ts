import type { Argv } from 'yargs';
import type { EffectiveConfig } from '../core/config';
import { configFor, openSessions, type Environment } from '../service/assembly';
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
  readonly 'database-url'?: string | undefined;
  readonly io: CliIo;
}

/** Where this invocation's store and settings are: its options, environment and folder. */
export function environmentOf(argv: GlobalArgs): Environment {
  return { dir: argv.dir, env: argv.io.env, cwd: argv.io.cwd, databaseUrl: argv['database-url'] };
}

/** The sessions of the store this invocation points at. */
export function sessionsFor(argv: GlobalArgs): Sessions {
  return openSessions(environmentOf(argv));
}

/** The settings this invocation runs with (config file, environment, options). */
export function configOf(argv: GlobalArgs): EffectiveConfig {
  return configFor(environmentOf(argv));
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
