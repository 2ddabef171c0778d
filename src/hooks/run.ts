import { runClaudeCode } from './claude/claude-run';
import { isClaudeCodePayload, isClaudeCodeText } from './claude/claude-code';
import type { HookIo } from './io';
import { runSeedHook, type HookSpec } from './seed/seed-run';
import { DEFAULT_STDIN_OPTIONS, readJsonInput, readJsonSync, type StdinResult } from './stdin';
import { positiveNumber } from '../platform/env';
import { logValue } from './log';

export type { HookSpec };

/**
 * Reads one JSON input and hands it to the protocol it speaks: Claude Code's own (any event, in either bin), else
 * the seed protocol of this hook (`spec`). Fails open: whatever arrives and whatever breaks, it resolves, having
 * printed a valid answer of that protocol (or nothing, where that is the protocol's answer). Only the entry point
 * sets the exit code (always 0).
 */
export async function runHook<Answer extends object>(spec: HookSpec<Answer>, io: HookIo): Promise<void> {
  const stdinOptions = {
    ...DEFAULT_STDIN_OPTIONS,
    ...(positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) === undefined
      ? {}
      : { timeoutMs: positiveNumber(io.env.AGENT_SESSION_STDIN_TIMEOUT_MS) }),
  };
  const input: StdinResult =
    'readBytes' in io.stdin ? readJsonSync(io.stdin, stdinOptions) : await readJsonInput(io.stdin, stdinOptions);
  if (input.kind === 'json' && isClaudeCodePayload(input.value)) {
    await runClaudeCode(input.value, io, spec.logFile);
    return;
  }
  // Claude Code's payload, unreadable: a seed answer would be invalid output there; nothing is its fail-open answer.
  const silent =
    input.kind === 'invalid' && isClaudeCodeText(input.received)
      ? `unreadable_claude_code_payload problem=${logValue(input.problem)}`
      : undefined;
  await runSeedHook(spec, input, io, silent);
}
