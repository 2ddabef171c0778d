import type { Argv } from 'yargs';
import { resolveCall, storeFolderOf, type Call } from '../app/call';
import { untrustedLine } from '../core/config';
import { maskDatabaseUrl } from '../core/database-url';
import { isValidId } from '../core/ids';
import { counted } from '../core/plural';
import { namesOrNull } from '../platform/files';
import { shellQuote } from '../platform/shell';
import { CallSessions } from '../app/stores';
import { colourEnabled } from './color';
import { escapeControl, escapeJsonForTerminal } from '../core/control';
import type { Sessions } from '../service/sessions';

/** Where a command writes, and the exit code of a negative answer. Passed through yargs' parse context. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working directory; undefined when it was removed: then only absolute paths resolve (see resolveFrom). */
  readonly cwd: string | undefined;
  readonly now: () => Date;
  /** Whether stdout is a terminal (colour by default only then; see colourEnabled). */
  readonly isTTY?: boolean;
  /** Whether stderr is a terminal (progress is shown there only). */
  readonly errIsTTY?: boolean;
  /** The terminal's width in columns, when stdout is one (help text is wrapped to it). */
  readonly columns?: number | undefined;
  /** The descriptor `--metadata -` reads (0 in the bin). */
  readonly stdin?: number;
  /** The folder of the running bin (the hook bins are its siblings); absent when run from sources. */
  readonly binDir?: string;
  /** Set by a command whose answer is "no" (exit 1); errors are thrown instead. */
  negative: boolean;
}

/** Options every command has, and what main.ts hands every handler through yargs' parse context. */
export interface GlobalArgs {
  readonly dir?: string | undefined;
  readonly 'database-url'?: string | undefined;
  readonly io: CliIo;
  /** Prints the completion script of the parser running this command (for `completion`). */
  readonly printCompletionScript: () => void;
}

/**
 * What a command runs with: its call (app/call.ts: the store root, the settings in force, the project on first use),
 * and the service of the store the call points at.
 */
export interface CliContext extends Call {
  /** Opens the service of this store, runs `work` on it, and closes the store whatever happens. */
  withSessions<T>(work: (sessions: Sessions) => T | Promise<T>): Promise<T>;
}

/**
 * The one context every command takes its store and settings from: the call resolved once (--dir, AGENT_SESSION_DIR,
 * the project; the settings read once, `--database-url` on top), the service opened on it.
 * @throws SessionError E_USAGE for an invalid config file, variable or `--database-url`, E_IO when a folder cannot be
 *   inspected or the config file read
 */
export function contextFor(argv: GlobalArgs): CliContext {
  const call = resolveCall({ dir: argv.dir, env: argv.io.env, cwd: argv.io.cwd, databaseUrl: argv['database-url'] });
  untrustedNote(argv.io, call);
  return {
    ...call,
    async withSessions(work) {
      const sessions = new CallSessions(call);
      try {
        return await work(sessions.get());
      } finally {
        await sessions.close();
      }
    },
  };
}

/**
 * The line a command prints (on stderr) when settings of the workspace file were ignored for want of the user's trust
 * (docs/security.md), naming the command that trusts it; the command goes on with the rest.
 */
export function untrustedNote(io: CliIo, call: Pick<Call, 'config'>): void {
  const untrusted = call.config.untrusted;
  if (untrusted !== undefined) io.err(`note: ${escapeControl(untrustedLine(untrusted))}\n`);
}

/** Whether this invocation may colour its tables. */
export function colourFor(io: CliIo): boolean {
  return colourEnabled(io.isTTY, io.env);
}

/** Adds `--json` to a command. */
export function withJson<T>(yargs: Argv<T>): Argv<T & { json: boolean }> {
  return yargs.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });
}

/** Adds `--all-projects` to a command that works on the current project's sessions by default. */
export function withAllProjects<T>(yargs: Argv<T>, describe: string): Argv<T & { 'all-projects': boolean }> {
  return yargs.option('all-projects', { type: 'boolean', default: false, describe });
}

/** What `--all-projects` does for `approve` and `reject`, for their help. */
export const DECIDE_ALL_PROJECTS_HELP =
  "Decide on a session of another project (or of none) too; without it, only this project's are";

/** What `--all-projects` does for a listing, for its help. */
export const ALL_PROJECTS_HELP = "Every project's sessions (and those of none), not only this project's";

/**
 * The line `list` prints (on stderr) when the store holds sessions of no project (an older store's): they are shown by
 * `--all-projects` and given this project by `adopt`.
 */
export function unassignedNote(io: CliIo, count: number): void {
  if (count === 0) return;
  const sessions = count === 1 ? '1 session belongs' : `${count} sessions belong`;
  io.err(
    `note: ${sessions} to no project (an older store's, never resumed): \`list --all-projects\` shows them, ` +
      '`adopt --unassigned` gives them this project\n',
  );
}

/**
 * After a listing that found nothing in a PostgreSQL store: the project's file store, when it still holds sessions
 * (kept there from before the switch, which hides them), and the command that copies them over. Nothing on a file
 * store, or when that folder holds none.
 */
export function fileStoreNote(io: CliIo, call: Call): void {
  const url = call.config.values.database_url;
  if (url === null || storeFolderOf(call.root) === null) return;
  let names: string[] | null;
  try {
    names = namesOrNull(call.root);
  } catch {
    return;
  }
  const count = (names ?? []).filter((name) => isValidId(name)).length;
  if (count === 0) return;
  const source = call.config.sources.database_url;
  // Never the URL itself on a terminal (it may hold a password): the variable, or the masked URL.
  const to = source.kind === 'env' ? `"$${source.variable}"` : shellQuote(maskDatabaseUrl(url));
  io.err(
    `note: the file store ${call.root} holds ${counted(count, 'session')} of before the switch to PostgreSQL: ` +
      `\`agent-session copy --from ${shellQuote(call.root)} --to ${to}\` copies them here\n`,
  );
}

/**
 * A text option: it always takes a value, so `--since -1d` reads `-1d` as the value (not as flags `-1 -d`) and a
 * missing value (`--agent --json`) is an error rather than an empty text. A value that begins with `-` and a
 * letter is read as an option: write it `--error=-x`.
 */
export function textOption(describe: string, extra: { demandOption?: boolean } = {}) {
  return { type: 'string', requiresArg: true, describe, ...extra } as const;
}

/** How `--metadata` may be given, for its help. */
export const METADATA_HELP =
  'a JSON object, @FILE (read from that file) or - (from stdin), at most 1 MiB; repeated, merged left to right';

/** `--by` of `approve` and `reject`, for their help. */
export const BY_HELP =
  "A name to record as the decider, marked claimed (not checked); default: your OS user. Refused from an AI agent's shell";

/**
 * Prints a value as indented JSON. To a terminal, the characters JSON leaves as they are but a terminal acts on (DEL,
 * C1 controls, bidirectional overrides) are written as `\uXXXX` escapes: the same JSON value, which cannot drive the
 * terminal. To a pipe or a file the text is JSON.stringify's, byte for byte (scripts parse it).
 */
export function printJson(io: CliIo, value: unknown): void {
  const text = JSON.stringify(value, null, 2);
  io.out(`${io.isTTY === true ? escapeJsonForTerminal(text) : text}\n`);
}
