// Entry point of `pre-delegate`: wiring only. The hook always exits 0 with one JSON answer on stdout.
import { hookStdin, writeStdout } from '../src/hooks/process-io';
import { runHook } from '../src/hooks/run';
import { runSelfTest } from '../src/hooks/self-test';
import { preDelegateHook } from '../src/hooks/specs';

async function main(): Promise<void> {
  // A host that closed our stdout (EPIPE) cannot be answered anyway; without a listener Node would crash with a stack.
  process.stdout.on('error', () => undefined);
  if (process.argv[2] === '--test') {
    process.exitCode = runSelfTest((line) => process.stdout.write(`${line}\n`)) ? 0 : 1;
    return;
  }
  await runHook(preDelegateHook, { stdin: hookStdin(), write: writeStdout, env: process.env, cwd: process.cwd(), binDir: __dirname });
  process.exitCode = 0;
}

void main();
