import { join, resolve } from 'node:path';
import { logs } from '../core/config';
import { openHookCall, type HookCall } from '../app/hook-call';
import { DEFAULT_HOST, type Host } from '../core/host';
import { fromCodex } from './codex/codex';
import { handleClaudeCode, isClaudeCodePayload, isClaudeCodeText, payloadCwd } from './claude/claude-code';
import type { HookIo } from './io';
import { appendLog, logValue } from './log';
import type { Sessions } from '../service/sessions';
import { DEFAULT_STDIN_OPTIONS, readJsonInput, readJsonSync, type StdinResult } from './stdin';
import { nonEmpty, positiveNumber } from '../platform/env';
import { isDirectory } from '../platform/files';
import { resolveFrom } from '../platform/working-directory';

/** One hook bin: its log file, and how it answers the seed protocol (Claude Code payloads are answered alike by both). */
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

/** What answering one input came to: what to print (null: nothing), its log line, and how loud that line is. */
export interface Outcome {
  readonly answer: object | null;
  readonly line: string;
  readonly level: 'info' | 'warn' | 'error';
}

/**
 * The one hook runner, for both bins and both protocols: reads one JSON input, resolves what the call runs with once
 * (src/app/hook-call.ts: store root, settings, log folder, the store on first use), answers in the protocol the input
 * speaks (Claude Code's own, any event in either bin: a payload with `hook_event_name`; else the seed protocol of this
 * bin, `spec`), prints the answer and writes one log line. Fails open: whatever arrives and whatever breaks, it
 * resolves, having printed a valid answer of that protocol (or nothing, where that is the protocol's answer); a stack
 * goes to stderr only with AGENT_SESSION_DEBUG=1. Only the entry point sets the exit code (always 0).
 */
export async function runHook<Answer extends object>(spec: HookSpec<Answer>, io: HookIo): Promise<void> {
  const input = await readInput(io);
  const claude = input.kind === 'json' && isClaudeCodePayload(input.value) ? input.value : null;
  let call: HookCall | undefined;
  let outcome: Outcome;
  try {
    call = openHookCall(
      io.env,
      claude === null ? io.cwd : claudeCwd(claude, io.cwd),
      io.host === undefined ? {} : { host: io.host },
    );
    try {
      outcome =
        claude !== null
          ? await answerClaudeCode(claude, call, io.env, { cli: cliWords(io, call.root) }, io.host)
          : await answerSeed(spec, input, call);
    } finally {
      await call.close();
    }
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    if (io.env.AGENT_SESSION_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    outcome =
      claude !== null
        ? { answer: null, line: `${claudeLine(claude, io.host)} error error=${logValue(problem)}`, level: 'error' }
        : {
            answer: spec.onError(),
            line: `${describeSafely(spec, input, spec.onError())} error=${logValue(problem)}`,
            level: 'error',
          };
  }
  let text: string | null;
  try {
    // A state too deep for JSON.stringify must still end in an answer of the protocol.
    text = outcome.answer === null ? null : JSON.stringify(outcome.answer);
  } catch (error) {
    const problem = logValue(error instanceof Error ? error.message : String(error));
    text = claude === null ? JSON.stringify(spec.onError()) : null;
    outcome = { ...outcome, line: `${outcome.line} error=${problem}`, level: 'error' };
  }
  if (text !== null) io.write(`${text}\n`);
  if (call === undefined || !logs(call.config.log_level, outcome.level)) return;
  appendLog(call.logDir, spec.logFile, outcome.line, { maxBytes: call.config.log_max_bytes });
}

// --- the two protocols ---

/**
 * A Claude Code payload: at most one JSON object (the answer of handleClaudeCode), or nothing. A mistyped
 * CLAUDE_PROJECT_DIR is not a project: no folder tree is made for it (no answer). The one answer of every host that
 * speaks Claude Code's protocol: the command hooks (runHook; a Codex hook's payload, `--host codex`, read as Claude
 * Code's first: hooks/codex/codex.ts) and the Agent SDK's in-process callbacks (src/hooks/sdk/).
 * @param recording how the contexts tell a sub-agent to record (the CLI's words; the SDK's tool besides)
 * @param host the host asking (core/host.ts)
 */
export async function answerClaudeCode(
  received: Record<string, unknown> & { hook_event_name: string },
  call: HookCall,
  env: Readonly<Record<string, string | undefined>>,
  recording: { readonly cli: readonly string[]; readonly recordingTool?: string },
  host: Host = DEFAULT_HOST,
): Promise<Outcome> {
  const head = `${claudeLine(received, host)} `;
  const translated = host === 'codex' ? fromCodex(received) : { payload: received };
  if ('skip' in translated) return { answer: null, line: `${head}${translated.skip}`, level: 'info' };
  const payload = translated.payload;
  const warned = call.warning === null ? '' : ` warning=${logValue(call.warning)}`;
  const project = nonEmpty(env.CLAUDE_PROJECT_DIR);
  if (
    nonEmpty(env.AGENT_SESSION_DIR) === undefined &&
    project !== undefined &&
    !isDirectory(resolveFrom(call.cwd, project, '`CLAUDE_PROJECT_DIR`'))
  ) {
    return { answer: null, line: `${head}project_missing project=${logValue(project)}${warned}`, level: 'info' };
  }
  const sessions = call.sessions();
  // The store's clock: "last active 5 minutes ago" is said by the clock that dated it.
  const now = await sessions.now();
  const outcome = await handleClaudeCode(sessions, payload, { ...recording, now, host });
  return { answer: outcome.answer, line: `${head}${outcome.note}${warned}`, level: warned === '' ? 'info' : 'warn' };
}

/**
 * A seed-protocol input: one JSON answer line, always. Input that is no JSON document is answered without opening the
 * store; a Claude Code payload that could not be read whole (over the size cap, cut short) gets nothing, its
 * protocol's fail-open answer (a seed answer would be invalid output there).
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

/** One JSON document from stdin: read synchronously (a file, pipe or socket), or from a stream (a terminal, tests). */
async function readInput(io: HookIo): Promise<StdinResult> {
  const timeoutMs = positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS);
  const options = { ...DEFAULT_STDIN_OPTIONS, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  return 'readBytes' in io.stdin ? readJsonSync(io.stdin, options) : readJsonInput(io.stdin, options);
}

/**
 * The store of a Claude Code payload is `$CLAUDE_PROJECT_DIR`'s, else the payload `cwd`'s when that folder exists (its
 * nearest `.claude/` ancestor, else the folder itself), else the usual one; `AGENT_SESSION_DIR` still wins. A folder
 * named by the payload that does not exist is not a project: nothing is created there.
 */
function claudeCwd(payload: Record<string, unknown>, cwd: string | undefined): string | undefined {
  const claimed = payloadCwd(payload);
  return claimed !== undefined && isDirectory(claimed) ? claimed : cwd;
}

/** The head of a Claude Code payload's log line: `<host> event=<event>` (`claude-code event=SubagentStart`). */
export function claudeLine(payload: { hook_event_name: string }, host: Host = DEFAULT_HOST): string {
  return `${host} event=${logValue(payload.hook_event_name.slice(0, 60))}`;
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

/**
 * The words that run the CLI on `root`. Installed as a Claude Code plugin (this bin is `${CLAUDE_PLUGIN_ROOT}/dist`),
 * `agent-session`: the plugin's `bin/` is on the PATH of Claude Code's Bash tool. Else the sibling bundle, run by the
 * node running this hook, by absolute path (a GUI-started Claude Code may lack the shell's nvm or volta PATH); from
 * sources, `agent-session` on PATH. Under Codex always the absolute form: the Codex binary knows CLAUDE_PLUGIN_ROOT
 * (for its plugins' hooks), but puts no plugin `bin/` on its shell's PATH.
 */
export function cliWords(io: Pick<HookIo, 'binDir' | 'env' | 'execPath' | 'host'>, root: string): string[] {
  const pluginRoot = io.host === 'codex' ? undefined : nonEmpty(io.env.CLAUDE_PLUGIN_ROOT);
  const plugin = io.binDir !== undefined && pluginRoot !== undefined && resolve(pluginRoot, 'dist') === io.binDir;
  if (io.binDir === undefined || plugin) return ['agent-session', '--dir', root];
  return [io.execPath ?? 'node', join(io.binDir, 'agent-session.cjs'), '--dir', root];
}
