import { openHookCall, type HookCall } from '../app/hook-call';
import { DEFAULT_HOST, type Host } from '../core/host';
import { lazily } from '../core/lazy';
import {
  answerPayload,
  eventHead,
  failOpen,
  payloadFailed,
  writeLog,
  type AnswerOptions,
  type Fallback,
  type Outcome,
} from './answer';
import { ADAPTERS } from './hosts';
import { isClaudeCodePayload, isClaudeCodeText, payloadCwd } from './hosts/claude-code';
import type { HookIo } from './io';
import { logValue } from './log';
import type { Sessions } from '../service/sessions';
import { DEFAULT_STDIN_OPTIONS, readJsonInput, readJsonSync, type StdinResult } from './stdin';
import { isDirectory } from '../platform/files';
import { nonEmpty, positiveNumber } from '../platform/env';

/** One hook bin: its log file, and how it answers the seed protocol (a host's payloads are answered alike by both). */
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
 * The one hook runner, for both bins and both protocols: reads one JSON input, resolves what the call runs with once
 * (src/app/hook-call.ts: store root, settings, log folder, the store on first use), answers in the protocol the input
 * speaks (a host's own, any event in either bin: a payload with `hook_event_name`, answered by answer.ts for the host
 * the wiring names, `--host`; else the seed protocol of this bin, `spec`), prints the answer and writes one log line.
 * Fails open: whatever arrives and whatever breaks, it resolves, having printed a valid answer of that protocol (or
 * nothing, where that is the protocol's answer); a stack goes to stderr only with AGENT_SESSION_DEBUG=1. Only the
 * entry point sets the exit code (always 0).
 */
export async function runHook<Answer extends object>(spec: HookSpec<Answer>, io: HookIo): Promise<void> {
  const input = await readInput(io);
  const payload = input.kind === 'json' && isClaudeCodePayload(input.value) ? input.value : null;
  const claimed = payload === null ? undefined : payloadCwd(payload);
  const host = io.host ?? DEFAULT_HOST;
  const debug = io.env.AGENT_SESSION_DEBUG === '1';
  const fallback = (): Fallback =>
    payload !== null
      ? payloadFailed(payload, host)
      : { answer: spec.onError(), line: describeSafely(spec, input, spec.onError()) };
  let call: HookCall | undefined;
  let yielded = false;
  const answered = await failOpen(
    async () => {
      // A host payload's store is `$CLAUDE_PROJECT_DIR`'s, else the payload `cwd`'s when that folder exists (its
      // project: app/call.ts projectFolderFor, the git top at most), else the usual one; `AGENT_SESSION_DIR` wins. A
      // folder the payload names that does not exist is not a project: nothing is created there.
      const cwd = claimed !== undefined && isDirectory(claimed) ? claimed : io.cwd;
      call = openHookCall(io.env, cwd, io.host === undefined ? {} : { host: io.host });
      // The plugin's hook, where init wired ours for this event too: init's answers, this one yields (plugin-yield.ts).
      const project = io.env[VIA_PLUGIN] === '1' && payload !== null ? nonEmpty(io.env.CLAUDE_PROJECT_DIR) : undefined;
      const wired =
        project === undefined || payload === null
          ? null
          : // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the plugin's hooks load it
            (require('./plugin-yield') as typeof import('./plugin-yield')).initWiringFor(
              project,
              String(payload.hook_event_name),
              stringOrUndefined(payload.tool_name),
            );
      if (wired !== null && payload !== null) {
        yielded = true;
        await call.close();
        return { answer: null, line: `${eventHead(payload, host)} plugin_yields to=${logValue(wired)}`, level: 'info' };
      }
      try {
        return payload !== null
          ? await answerPayload(payload, call, io.env, { host, ...wordsOf(host, io, call), debug })
          : await answerSeed(spec, input, call);
      } finally {
        await call.close();
      }
    },
    fallback,
    debug,
  );
  const { outcome, text } = printed(answered, fallback);
  if (text !== null) io.write(`${text}\n`);
  if (call !== undefined) writeLog(call, spec.logFile, outcome.line, outcome.level);
  if (call !== undefined && !yielded && call.config.notify !== null && io.binDir !== undefined && payload !== null) {
    // After the answer: an event that may leave an item in the inbox (an interruption, a permission request) starts
    // the notifier detached; only with `notify` set, so no other call loads it.
    if (NOTIFYING_EVENTS.has(String(payload.hook_event_name))) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only with notify set
      const { notifyDetached } = require('../app/notify-spawn') as typeof import('../app/notify-spawn');
      notifyDetached(call.call, io.binDir, ['--dir', call.root]);
    }
  }
}

/** plugin-yield.ts VIA_PLUGIN_VARIABLE, named here so that init's hooks never load that module. */
const VIA_PLUGIN = 'AGENT_SESSION_VIA_PLUGIN';

/** The host events after which a new inbox item may wait: an agent's stop, failure or cut, a permission request. */
const NOTIFYING_EVENTS: ReadonlySet<string> = new Set([
  'SubagentStop',
  'StopFailure',
  'Interrupt',
  'PermissionRequest',
]);

/**
 * A seed-protocol input: one JSON answer line, always. Input that is no JSON document is answered without opening the
 * store; a host payload that could not be read whole (over the size cap, cut short) gets nothing, its protocol's
 * fail-open answer (a seed answer would be invalid output there).
 */
async function answerSeed<Answer extends object>(
  spec: HookSpec<Answer>,
  input: StdinResult,
  call: HookCall,
): Promise<Outcome> {
  const warned = call.warning === null ? '' : ` warning=${logValue(call.warning)}`;
  const level = warned === '' ? 'info' : 'warn';
  if (input.kind === 'invalid' && isClaudeCodeText(input.received)) {
    const note = ` unreadable_claude_code_payload problem=${logValue(input.problem)}`;
    return { answer: null, line: `${describeSafely(spec, input, null)}${note}`, level: 'warn' };
  }
  const answer =
    input.kind === 'json'
      ? await spec.handle(call.sessions(), input.value)
      : spec.onBadInput(input.kind === 'empty' ? 'empty input' : input.problem);
  return { answer, line: `${describeSafely(spec, input, answer)}${warned}`, level };
}

// --- helpers ---

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The CLI words of a host's answers on this call, and its recording words when they differ (Codex's `record` entry):
 * those worded only when a text names them (the pin is a digest).
 */
function wordsOf(host: Host, io: HookIo, call: HookCall): Pick<AnswerOptions, 'cli' | 'record'> {
  const adapter = ADAPTERS[host];
  const cli = adapter.cliWords(io, call.root);
  if (adapter.recordWords === undefined) return { cli };
  const recordWords = adapter.recordWords.bind(adapter);
  return { cli, record: lazily(() => recordWords(io, call.root, call.config)) };
}

/**
 * The text printed (null: nothing): the answer as JSON. An answer JSON cannot write (a state nested too deep) is the
 * protocol's fail-open answer, the error on the outcome's line.
 */
function printed(outcome: Outcome, fallback: () => Fallback): { outcome: Outcome; text: string | null } {
  try {
    return { outcome, text: outcome.answer === null ? null : JSON.stringify(outcome.answer) };
  } catch (error) {
    const problem = logValue(error instanceof Error ? error.message : String(error));
    const answer = fallback().answer;
    return {
      outcome: { ...outcome, line: `${outcome.line} error=${problem}`, level: 'error' },
      text: answer === null ? null : JSON.stringify(answer),
    };
  }
}

/** One JSON document from stdin: read synchronously (a file, pipe or socket), or from a stream (a terminal, tests). */
async function readInput(io: HookIo): Promise<StdinResult> {
  const timeoutMs = positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS);
  const options = { ...DEFAULT_STDIN_OPTIONS, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  return 'readBytes' in io.stdin ? readJsonSync(io.stdin, options) : readJsonInput(io.stdin, options);
}

function describeSafely<Answer extends object>(
  spec: HookSpec<Answer>,
  input: StdinResult,
  answer: Answer | null,
): string {
  try {
    return spec.describe(input.kind === 'json' ? input.value : undefined, answer);
  } catch (error) {
    // Hostile input (e.g. nesting too deep for JSON.stringify) must not turn the log line into a crash.
    return `${spec.logFile} input_not_describable error=${logValue(error instanceof Error ? error.message : String(error))}`;
  }
}
