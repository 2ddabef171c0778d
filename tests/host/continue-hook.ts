// A TEST hook of the continuation plays (issue 34), not agent-session's: bundled by the play into one .cjs and wired on
// every event of a temp project. It records each payload it gets (one JSON line in `argv[2]`), and on
// PreToolUse(SendMessage) calls the transcript module the way the product's hook is to: the agent id is SendMessage's
// `to`, "recorded by one of our sessions" is a list in the JSON file `argv[3]` (the play's stand-in for the store),
// and the decision and what bringing did are recorded too. It answers SubagentStart with a context naming the agent and
// the session (as the product's hook does), and a SendMessage it continues with a note added to its message
// (`updatedInput`); it prints nothing else, and always exits 0, as a hook must.
import { appendFileSync, readFileSync } from 'node:fs';
import { continueWithContext } from '../../src/service/agent-transcripts';
import { NOTE_MARKER, START_MARKER, type HookConfig, type HookLine } from './continue-hook-log';

const [log, configFile] = process.argv.slice(2);
const write = (line: HookLine): void => appendFileSync(log!, `${JSON.stringify(line)}\n`);

try {
  const payload = JSON.parse(readFileSync(0, 'utf8')) as Record<string, unknown>;
  write({ kind: 'payload', payload });
  // A context of our own on every SubagentStart (what the product's hook gives a sub-agent): the play checks that a
  // continued agent gets the new one, and still has the one of its first start in its transcript.
  if (payload.hook_event_name === 'SubagentStart')
    process.stdout.write(
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'SubagentStart',
          additionalContext: `${START_MARKER} ${String(payload.agent_id)} in session ${String(payload.session_id)}`,
        },
      }),
    );
  if (payload.hook_event_name === 'PreToolUse' && payload.tool_name === 'SendMessage') {
    const config = JSON.parse(readFileSync(configFile!, 'utf8')) as HookConfig;
    const to = (payload.tool_input as { to?: unknown } | undefined)?.to;
    const started = process.hrtime.bigint();
    const result = continueWithContext(
      { payload, agentId: to, recorded: typeof to === 'string' && config.recorded.includes(to) ? 'stopped' : null },
      { enabled: true, maxTranscriptBytes: config.maxTranscriptBytes },
    );
    const { choice } = result;
    // The continued agent's SubagentStart context does not reach it when its first start got one (both versions): what
    // it must know now rides on the message itself (`updatedInput`, no permission decision: SendMessage goes on as it
    // would), as the product's hook is to do.
    if (choice.kind === 'continue') {
      const input = payload.tool_input as { to?: unknown; summary?: unknown; message?: unknown };
      const updatedInput = {
        to: input.to,
        ...(typeof input.summary === 'string' ? { summary: input.summary } : {}),
        message: `${String(input.message ?? '')}\n\n${NOTE_MARKER} ${String(to)}: ${choice.reason}`,
      };
      process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput } }));
    }
    write({
      kind: 'decision',
      agentId: to,
      choice:
        choice.kind === 'continue'
          ? { kind: choice.kind, where: choice.where, reason: choice.reason }
          : { kind: choice.kind, why: choice.why, reason: choice.reason },
      ...(result.brought === undefined ? {} : { brought: result.brought }),
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    });
  }
} catch (error) {
  try {
    write({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } catch {
    // No log to write to: the hook still must not fail the host.
  }
}
