// What a sub-agent may run without a permission prompt: its own recording command, exactly as its SubagentStart
// context gave it (the CLI's words, `update`, its session's id), with only the options that record (`--phase`,
// `--metadata` as inline JSON, `--error`). The permission answer (src/hooks/claude/permission.ts) also checks that
// the session is the one linked to the asking agent; this module only reads the command.
import { isValidId } from './ids';
import { plainWords } from './shell-words';

/** The options of a recording command, each taking one value (`--name value` or `--name=value`). */
const RECORDING_OPTIONS: ReadonlySet<string> = new Set(['--phase', '--metadata', '--error']);

/**
 * The session id a shell command records into, when the command is exactly agent-session's recording command:
 * plain shell words (shell-words.ts: nothing chained, redirected, substituted or expanded), starting with `cli` word
 * for word, then `update <id>`, then only `--phase`, `--metadata` or `--error` with a value. `--metadata` must be
 * inline JSON (an object): `@FILE` and `-` would read a file or stdin; no value may start with `-`. Anything else:
 * null.
 */
export function recordingTarget(command: string, cli: readonly string[]): string | null {
  const words = plainWords(command);
  if (words === null || words.length < cli.length + 2) return null;
  if (cli.some((word, i) => words[i] !== word)) return null;
  const [verb, id, ...options] = words.slice(cli.length);
  if (verb !== 'update' || !isValidId(id)) return null;
  for (let i = 0; i < options.length; i++) {
    const word = options[i]!;
    const equals = word.indexOf('=');
    const name = equals < 0 ? word : word.slice(0, equals);
    if (!RECORDING_OPTIONS.has(name)) return null;
    let value: string | undefined;
    if (equals < 0) {
      value = options[i + 1];
      i++;
    } else value = word.slice(equals + 1);
    // A value that looks like an option is one to yargs (`--phase --dir=/elsewhere` would move the store).
    if (value === undefined || value.startsWith('-')) return null;
    if (name === '--metadata' && !value.trimStart().startsWith('{')) return null;
  }
  return id;
}
