// Entry point of `subagent-stop`: wiring only. The hook always exits 0 with one JSON answer on stdout.
import { hookStdin, writeStdout } from '../src/hooks/process-io';
import { runHook } from '../src/hooks/run';
import { subagentStopHook } from '../src/hooks/specs';

async function main(): Promise<void> {
  await runHook(subagentStopHook, {
    stdin: hookStdin(),
    write: writeStdout,
    env: process.env,
    cwd: process.cwd(),
    binDir: __dirname,
    execPath: process.execPath,
  });
  process.exitCode = 0;
}

void main();
