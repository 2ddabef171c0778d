// Entry point of the `agent-session` CLI: wiring only. The exit code is set, never forced, so output is never cut short.
import { version } from '../package.json';
import { runCli } from '../src/cli/main';
import { processOutput, workingDirectory } from '../src/cli/process-io';

async function main(): Promise<void> {
  process.exitCode = await runCli(
    process.argv.slice(2),
    {
      // fd 1 and 2 written directly: no process.stdout on a pipe or a file (src/cli/process-io.ts).
      ...processOutput(),
      env: process.env,
      // Undefined when it was removed (process.cwd() would throw here, before any guard).
      cwd: workingDirectory(),
      now: () => new Date(),
      stdin: 0,
      binDir: __dirname,
      negative: false,
    },
    version,
  );
}

void main();
