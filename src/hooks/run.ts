import { DEFAULT_LIMITS, limitsFromEnv, type Limits } from '../core/limits';
import { openSessions } from '../open';
import type { Sessions } from '../sessions';
import { resolveRoot } from '../store/root';
import { appendLog, logDirFor } from './log';
import { DEFAULT_STDIN_OPTIONS, readJsonInput, type InputSource, type StdinResult } from './stdin';

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

/** The process facts a hook runs with; injected so tests can drive `runHook` without a child process. */
export interface HookIo {
  readonly stdin: InputSource;
  readonly write: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * Reads one JSON input, answers it with one JSON line on stdout, and logs one line. Fails open: whatever
 * arrives and whatever breaks, it prints a valid answer and resolves; a stack trace goes to the log, never
 * to stdout. Only the entry point sets the exit code (always 0).
 */
export async function runHook<Answer extends object>(spec: HookSpec<Answer>, io: HookIo): Promise<void> {
  const stdinOptions = {
    ...DEFAULT_STDIN_OPTIONS,
    ...(positive(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) === undefined ? {} : { timeoutMs: positive(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) }),
  };
  const input: StdinResult = await readJsonInput(io.stdin, stdinOptions);
  let root: string | undefined;
  let answer: Answer | null;
  let note = '';
  try {
    root = resolveRoot({ env: io.env, cwd: io.cwd });
    if (input.kind !== 'json') {
      answer = spec.onBadInput(input.kind === 'empty' ? 'empty input' : input.problem);
    } else {
      const { limits, warning } = hookLimits(io.env);
      if (warning) note = ` warning="${warning}"`;
      answer = spec.handle(openSessions({ env: io.env, cwd: io.cwd }, limits), input.value);
    }
  } catch (error) {
    answer = spec.onError();
    note = ` error="${error instanceof Error ? error.message : String(error)}"`;
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  }
  if (answer !== null) io.write(`${JSON.stringify(answer)}\n`);
  if (root !== undefined) {
    appendLog(logDirFor(root, io.env), spec.logFile, `${spec.describe(input.kind === 'json' ? input.value : undefined, answer)}${note}`);
  }
}

// --- internal ---

function hookLimits(env: Readonly<Record<string, string | undefined>>): { limits: Limits; warning?: string } {
  try {
    return { limits: limitsFromEnv(env) };
  } catch (error) {
    // A malformed limit must not break the host: decide with the defaults, and say so in the log.
    return { limits: DEFAULT_LIMITS, warning: `${(error as Error).message}; using defaults` };
  }
}

function positive(raw: string | undefined): number | undefined {
  const value = Number(raw);
  return raw !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
