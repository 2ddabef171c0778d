// Entry point of the `agent-session` CLI: wiring only. The exit code is set, never forced, so output is never cut short.
// The CLI's parser (yargs) and its commands are required only past the status line's own path: Claude Code runs
// `statusline` as often as a hook (src/cli/statusline.ts).
import { version } from '../package.json';
import type { CliIo } from '../src/cli/context';
import { processOutput, workingDirectory } from '../src/cli/process-io';
import { runStatuslineQuickly } from '../src/cli/statusline';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const io: CliIo = {
    // fd 1 and 2 written directly: no process.stdout on a pipe or a file (src/cli/process-io.ts).
    ...processOutput(),
    env: process.env,
    // Undefined when it was removed (process.cwd() would throw here, before any guard).
    cwd: workingDirectory(),
    now: () => new Date(),
    stdin: 0,
    binDir: __dirname,
    negative: false,
  };
  const quick = await runStatuslineQuickly(args, io);
  process.exitCode =
    quick ??
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the status line never loads the parser
    (await (require('../src/cli/main') as typeof import('../src/cli/main')).runCli(args, io, version));
}

void main();
