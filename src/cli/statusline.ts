import { contextFor, type CliContext, type CliIo } from './context';
import { failed } from './failure';

// `agent-session statusline`: the line Claude Code's `statusLine` setting shows under the prompt, refreshed as the
// conversation moves. It runs as often as a hook, so the bin's entry (tools/agent-session.ts) runs it without yargs
// when its words are `statusline [--dir DIR]` (runStatuslineQuickly); any other words go through the CLI's parser
// and its command module (commands/statusline.ts), which prints the same line.

/** The command's word. */
export const STATUSLINE = 'statusline';

/**
 * Prints the status line of the context's store: `2 parked · 1 waits for you` (the sessions a delegation would take
 * up, and the decisions among them waiting for the person), nothing when nothing is parked. Claude Code runs it in the
 * folder it started in (the project); it sends a JSON description of its session on stdin, which is not needed.
 */
export async function printStatusline(context: CliContext, io: Pick<CliIo, 'out'>): Promise<void> {
  // Required here: the bin's entry loads this module for every command, which needs none of the inbox's views.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy (above)
  const { statusText, waitingDecisions } = require('../core/views/told') as typeof import('../core/views/told');
  const text = await context.withSessions(async (sessions) => {
    const parked = await sessions.parkedSessions();
    return statusText(parked.length, waitingDecisions(parked, await sessions.now(), sessions.limits).length);
  });
  if (text !== '') io.out(`${text}\n`);
}

/**
 * The exit code of `statusline` run without the CLI's parser, or null when `args` are not the words it takes
 * (`statusline`, `statusline --dir DIR`, `statusline --dir=DIR`): the parser runs then, and says what is wrong.
 */
export async function runStatuslineQuickly(args: readonly string[], io: CliIo): Promise<number | null> {
  if (args[0] !== STATUSLINE) return null;
  const dir =
    args.length === 1
      ? undefined
      : args.length === 3 && args[1] === '--dir'
        ? args[2]
        : args.length === 2 && args[1]!.startsWith('--dir=')
          ? args[1]!.slice('--dir='.length)
          : null;
  // An empty --dir is the parser's to refuse (it would silently mean the default store).
  if (dir === null || dir === '') return null;
  try {
    await printStatusline(contextFor({ dir, io, printCompletionScript: () => undefined }), io);
    return 0;
  } catch (error) {
    return failed(error, io);
  }
}
