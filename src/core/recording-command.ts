// What a sub-agent may run without a permission prompt: its own recording command, exactly as its SubagentStart
// context gave it (the words before the id: the CLI's words and `update`, or Codex's `record` entry with its pinned
// store), its session's id, and only the options that record (`--phase`, `--metadata` as inline JSON, `--error`). The
// permission answer (src/hooks/handlers/permission.ts) also checks that the session is the one linked to the asking
// agent; the `record` entry (src/cli/record.ts) reads its own words with the same parser.
import { isValidId } from './ids';
import { plainWords } from './shell-words';

/** The options of a recording command, each taking one value (`--name value` or `--name=value`), each at most once. */
const RECORDING_OPTIONS = ['--phase', '--metadata', '--error'] as const;
type RecordingOption = (typeof RECORDING_OPTIONS)[number];

/** The verb of Codex's recording entry (`agent-session record --dir <store> --pin <pin> <id> …`). */
export const RECORD_VERB = 'record';

/** A recording: the session id and the recording options given, each a text as written. */
export interface Recording {
  readonly id: string;
  readonly phase?: string;
  readonly metadata?: string;
  readonly error?: string;
}

/**
 * The words of Codex's recording entry for a store: the program (node and the CLI), `record`, the store root and the
 * store's pin (app/store-pin.ts). Codex's exec-policy rule allows exactly these words as a prefix; the entry refuses
 * whatever follows them but a recording.
 */
export function recordEntryWords(program: readonly string[], root: string, pin: string): string[] {
  return [...program, RECORD_VERB, '--dir', root, '--pin', pin];
}

/**
 * The recording `words` hold (what follows the prefix): a valid session id, then only `--phase`, `--metadata` or
 * `--error`, each at most once with a value. `--metadata` must be inline JSON (an object): `@FILE` and `-` would read a
 * file or stdin; no value may start with `-` (a value that looks like an option is one to yargs: `--phase
 * --dir=/elsewhere` would move the store). Anything else: null.
 */
export function parseRecording(words: readonly string[]): Recording | null {
  const [id, ...options] = words;
  if (id === undefined || !isValidId(id)) return null;
  const found: Partial<Record<RecordingOption, string>> = {};
  for (let i = 0; i < options.length; i++) {
    const word = options[i]!;
    const equals = word.indexOf('=');
    const name = equals < 0 ? word : word.slice(0, equals);
    if (!(RECORDING_OPTIONS as readonly string[]).includes(name)) return null;
    const option = name as RecordingOption;
    if (found[option] !== undefined) return null;
    let value: string | undefined;
    if (equals < 0) {
      value = options[i + 1];
      i++;
    } else value = word.slice(equals + 1);
    if (value === undefined || value.startsWith('-')) return null;
    if (option === '--metadata' && !value.trimStart().startsWith('{')) return null;
    found[option] = value;
  }
  return {
    id,
    ...(found['--phase'] === undefined ? {} : { phase: found['--phase'] }),
    ...(found['--metadata'] === undefined ? {} : { metadata: found['--metadata'] }),
    ...(found['--error'] === undefined ? {} : { error: found['--error'] }),
  };
}

/**
 * The session id a shell command records into, when the command is exactly a recording command: plain shell words
 * (shell-words.ts: nothing chained, redirected, substituted or expanded), starting with `prefix` word for word (the
 * words before the id, the verb included), then a recording (parseRecording). Anything else: null.
 */
export function recordingTarget(command: string, prefix: readonly string[]): string | null {
  const words = plainWords(command);
  if (words === null || words.length < prefix.length + 1) return null;
  if (prefix.some((word, i) => words[i] !== word)) return null;
  return parseRecording(words.slice(prefix.length))?.id ?? null;
}
