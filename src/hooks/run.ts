import { DEFAULT_CONFIG, logs, type Config } from '../core/config';
import { openSessions, storeRoot } from '../service/assembly';
import type { Sessions } from '../service/sessions';
import { runClaudeCode } from './claude/claude-run';
import { isClaudeCodePayload, isClaudeCodeText } from './claude/claude-code';
import { hookConfig } from '../service/hook-config';
import { appendLog, logDirFor, logValue } from './log';
import type { HookIo } from './io';
import { DEFAULT_STDIN_OPTIONS, readJsonInput, type StdinResult } from './stdin';
import { positiveNumber } from '../platform/env';

/** One hook: how it answers each input, and what it says when something unexpected breaks. */
export interface HookSpec<Answer extends object> {
  /** The log file name in the log folder. */
  readonly logFile: string;
  /** The answer to a valid JSON input; null means "print nothing". */
  readonly handle: (sessions: Sessions, input: unknown) => Answer | null;
  /** The answer when stdin held no JSON document. */
  readonly onBadInput: (problem: string) => Answer;
  /** The answer when handling threw: the hook still answers, and still exits 0. */
  readonly onError: () => Answer;
  /** A one-line description of an answer for the log. */
  readonly describe: (input: unknown, answer: Answer | null) => string;
}

/**
 * Reads one JSON input, answers it with one JSON line on stdout, and logs one line. Fails open: whatever
 * arrives and whatever breaks, it prints a valid answer and resolves; a stack trace goes to the log, never
 * to stdout. Only the entry point sets the exit code (always 0).
 */
export async function runHook<Answer extends object>(spec: HookSpec<Answer>, io: HookIo): Promise<void> {
  const stdinOptions = {
    ...DEFAULT_STDIN_OPTIONS,
    ...(positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) === undefined
      ? {}
      : { timeoutMs: positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) }),
  };
  const input: StdinResult = await readJsonInput(io.stdin, stdinOptions);
  // Claude Code's own protocol (any event, in either bin); everything else keeps the seed protocol.
  if (input.kind === 'json' && isClaudeCodePayload(input.value)) {
    runClaudeCode(input.value, io, spec.logFile);
    return;
  }
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
    if (input.kind === 'invalid' && isClaudeCodeText(input.received)) {
      // Claude Code's payload, unreadable: a seed answer would be invalid output there; nothing is its fail-open answer.
      answer = null;
      note = ` unreadable_claude_code_payload problem=${logValue(input.problem)}`;
      level = 'warn';
    } else if (input.kind !== 'json') {
      answer = spec.onBadInput(input.kind === 'empty' ? 'empty input' : input.problem);
    } else {
      answer = spec.handle(openSessions({ dir: root, env: io.env, cwd: io.cwd }, config), input.value);
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
