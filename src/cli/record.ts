// `agent-session record --dir <store> --pin <pin> <id> [--phase P] [--metadata '{…}'] [--error E]`: Codex's recording
// entry. The rule `init --host codex` writes (src/cli/init/codex-files.ts) lets a command that starts with the node,
// this CLI, `record`, the store and its pin run without a prompt and outside Codex's sandbox, whatever follows: so this
// entry reads its words itself, not through yargs' global options, and refuses every word but a recording of the
// asking sub-agent's own session on the store the rule names.
import { recordingRefusal } from '../core/claude-link';
import { SessionError, show } from '../core/errors';
import { parseRecording, RECORD_VERB } from '../core/recording-command';
import { parsePhase } from '../core/session';
import { storePin } from '../app/store-pin';
import { nonEmpty } from '../platform/env';
import { optionalText, readMetadata } from './args';
import { contextFor, type CliIo } from './context';

/** The variable Codex (0.169.0) sets in a thread's commands: the thread id, a sub-agent's `agent_id` in its hooks. */
export const CODEX_THREAD_VARIABLE = 'CODEX_THREAD_ID';

const USAGE = `${RECORD_VERB} --dir <store> --pin <pin> <id> [--phase <phase>] [--metadata '<json object>'] [--error <message>]`;

/**
 * Records into a Codex sub-agent's own session: `words` are what follows `record`.
 * @throws SessionError E_USAGE for any other word (an option, a second `--dir`, `--metadata @FILE`, a repeat); E_REFUSED
 *   for a pin that is not this store's (its config changed since `init`, or was changed) and for a session that is
 *   not linked to the asking Codex thread (`CODEX_THREAD_ID`), or no thread at all; what `update` throws
 */
export async function runRecord(words: readonly string[], io: CliIo): Promise<void> {
  const [dirFlag, root, pinFlag, pin, ...rest] = words;
  const recording = parseRecording(rest);
  if (dirFlag !== '--dir' || root === undefined || pinFlag !== '--pin' || pin === undefined || recording === null) {
    // The words past the store and pin when those are in place: the part that is not a recording.
    const given = dirFlag === '--dir' && pinFlag === '--pin' ? rest : words;
    throw new SessionError('E_USAGE', `Expected \`${USAGE}\`, got ${show(given.join(' ').slice(0, 200))}`);
  }
  const thread = nonEmpty(io.env[CODEX_THREAD_VARIABLE]);
  if (thread === undefined)
    throw new SessionError(
      'E_REFUSED',
      `Expected \`${CODEX_THREAD_VARIABLE}\` (a Codex sub-agent's shell): \`${RECORD_VERB}\` is its recording entry; use \`update\``,
    );
  const phase = recording.phase === undefined ? undefined : parsePhase(recording.phase);
  const error = optionalText(recording.error, '--error');
  const metadata = readMetadata(recording.metadata, io.stdin ?? 0);
  const context = contextFor({ dir: root, io, printCompletionScript: () => undefined });
  const own = storePin(context.root, context.config.values);
  if (own !== pin)
    throw new SessionError(
      'E_REFUSED',
      `Expected \`--pin\` to be this store's (${own}), got ${show(pin)}: its settings changed since \`init --host codex\`; run it again`,
    );
  const state = await context.withSessions(async (sessions) => {
    const linked = await sessions.findByClaudeAgent(thread);
    const refusal = recordingRefusal(linked, recording.id, thread);
    if (refusal !== null)
      throw new SessionError(
        'E_REFUSED',
        `Expected session \`${recording.id}\` to be open and linked to this Codex thread, got ${refusal}`,
      );
    return sessions.update(recording.id, {
      ...(phase ? { phase } : {}),
      ...(metadata ? { metadata } : {}),
      ...(error === undefined ? {} : { error }),
    });
  });
  io.out(`Updated session ${state.agent_id}: phase ${state.phase}, errors ${state.error_count}\n`);
}
