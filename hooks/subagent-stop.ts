// Entry point of `subagent-stop`: wiring only. The hook always exits 0 with one JSON answer on stdout.
import { hookStdin, hostOption, workingDirectory, writeStdout } from '../src/hooks/process-io';
import { runHook } from '../src/hooks/run';
import { subagentStopHook } from '../src/hooks/specs';

async function main(): Promise<void> {
  await runHook(subagentStopHook, {
    stdin: hookStdin(),
    write: writeStdout,
    env: process.env,
    // Undefined when it was removed (process.cwd() would throw here, before any guard).
    cwd: workingDirectory(),
    binDir: __dirname,
    execPath: process.execPath,
    ...hostOption(process.argv.slice(2)),
  });
  process.exitCode = 0;
}

void main();
