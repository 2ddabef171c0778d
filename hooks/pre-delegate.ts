// Entry point of `pre-delegate`: wiring only. The hook always exits 0 with one JSON answer on stdout.
import { hookStdin, hostOption, workingDirectory, writeStdout } from '../src/hooks/process-io';
import { runHook } from '../src/hooks/run';
import { runSelfTest } from '../src/hooks/self-test';
import { preDelegateHook } from '../src/hooks/specs';

async function main(): Promise<void> {
  if (process.argv[2] === '--test') {
    // A reader that went away (EPIPE) must not crash the self-test with a stack; the hook path writes through
    // writeStdout, which already ignores EPIPE without loading process.stdout's stream machinery (~4 ms).
    process.stdout.on('error', () => undefined);
    process.exitCode = (await runSelfTest((line) => process.stdout.write(`${line}\n`))) ? 0 : 1;
    return;
  }
  await runHook(preDelegateHook, {
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
