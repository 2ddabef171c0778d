/** The verb of Codex's recording entry (`agent-session record --dir <store> --pin <pin> <id> …`). */
export declare const RECORD_VERB = "record";
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
export declare function recordEntryWords(program: readonly string[], root: string, pin: string): string[];
/**
 * The recording `words` hold (what follows the prefix): a valid session id, then only `--phase`, `--metadata` or
 * `--error`, each at most once with a value. `--metadata` must be inline JSON (an object): `@FILE` and `-` would read a
 * file or stdin; no value may start with `-` (a value that looks like an option is one to yargs: `--phase
 * --dir=/elsewhere` would move the store). Anything else: null.
 */
export declare function parseRecording(words: readonly string[]): Recording | null;
/**
 * The session id a shell command records into, when the command is exactly a recording command: plain shell words
 * (shell-words.ts: nothing chained, redirected, substituted or expanded), starting with `prefix` word for word (the
 * words before the id, the verb included), then a recording (parseRecording). Anything else: null.
 */
export declare function recordingTarget(command: string, prefix: readonly string[]): string | null;
