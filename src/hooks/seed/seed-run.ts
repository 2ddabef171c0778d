import { DEFAULT_CONFIG, logs, type Config } from '../../core/config';
import { logDirFor, openSessions, storeRoot } from '../../app/assembly';
import { hookConfig } from '../../app/hook-config';
import type { Sessions } from '../../service/sessions';
import { appendLog, logValue } from '../log';
import type { HookIo } from '../io';
import type { StdinResult } from '../stdin';

/** One hook: how it answers each input, and what it says when something unexpected breaks. */
export interface HookSpec<Answer extends object> {
  /** The log file name in the log folder. */
  readonly logFile: string;
  /** The answer to a valid JSON input; null means "print nothing". */
  readonly handle: (sessions: Sessions, input: unknown) => Promise<Answer | null>;
  /** The answer when stdin held no JSON document. */
  readonly onBadInput: (problem: string) => Answer;
  /** The answer when handling threw: the hook still answers, and still exits 0. */
  readonly onError: () => Answer;
  /** A one-line description of an answer for the log. */
  readonly describe: (input: unknown, answer: Answer | null) => string;
}

/**
 * Answers one input in the seed protocol with one JSON line on stdout, and logs one line. Fails open: whatever
 * arrives and whatever breaks, it prints a valid answer; a stack trace goes to the log, never to stdout.
 * @param silent the host's payload could not be read (its protocol's fail-open answer is nothing): nothing is
 *   printed, and this note is logged
 */
export async function runSeedHook<Answer extends object>(
  spec: HookSpec<Answer>,
  input: StdinResult,
  io: HookIo,
  silent?: string,
): Promise<void> {
  let root: string | undefined;
  let answer: Answer | null;
  let printed: string | null;
  let note = '';
  let level: 'info' | 'warn' | 'error' = 'info';
  let config: Config = DEFAULT_CONFIG;
  try {
    root = storeRoot({ env: io.env, cwd: io.cwd });
    const loaded = hookConfig(io.env, io.cwd, root);
    config = loaded.config;
    if (loaded.warning) {
      note = ` warning=${logValue(loaded.warning)}`;
      level = 'warn';
    }
    if (silent !== undefined) {
      answer = null;
      note = ` ${silent}`;
      level = 'warn';
    } else if (input.kind !== 'json') {
      answer = spec.onBadInput(input.kind === 'empty' ? 'empty input' : input.problem);
    } else {
      const sessions = openSessions({ dir: root, env: io.env, cwd: io.cwd, hook: true }, config);
      try {
        answer = await spec.handle(sessions, input.value);
      } finally {
        await sessions.close();
      }
    }
    // Inside the try: a state too deep for JSON.stringify must still end in an answer.
    printed = answer === null ? null : JSON.stringify(answer);
  } catch (error) {
    answer = spec.onError();
    printed = JSON.stringify(answer);
    level = 'error';
    note = ` error=${logValue(error instanceof Error ? error.message : String(error))}`;
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  }
  if (printed !== null) io.write(`${printed}\n`);
  if (root !== undefined && logs(config.log_level, level)) {
    const described = describeSafely(spec, input.kind === 'json' ? input.value : undefined, answer);
    appendLog(logDirFor(root, io.env), spec.logFile, `${described}${note}`, { maxBytes: config.log_max_bytes });
  }
}

// --- internal ---

function describeSafely<Answer extends object>(spec: HookSpec<Answer>, input: unknown, answer: Answer | null): string {
  try {
    return spec.describe(input, answer);
  } catch (error) {
    // Hostile input (e.g. nesting too deep for JSON.stringify) must not turn the log line into a crash.
    return `${spec.logFile} input_not_describable error=${logValue(error instanceof Error ? error.message : String(error))}`;
  }
}
