import type { Argv } from 'yargs';
import { openSessions } from '../open';
import type { Sessions } from '../sessions';

/** Where a command writes, and the exit code of a negative answer. Passed through yargs' parse context. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly now: () => Date;
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

/** The sessions of the store this invocation points at. */
export function sessionsFor(argv: GlobalArgs): Sessions {
  return openSessions({ dir: argv.dir, env: argv.io.env, cwd: argv.io.cwd });
}

/** Adds `--json` to a command. */
export function withJson<T>(yargs: Argv<T>): Argv<T & { json: boolean }> {
  return yargs.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });
}

/** Prints a value as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
