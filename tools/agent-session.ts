// Entry point of the `agent-session` CLI: wiring only. The exit code is set, never forced, so output is never cut short.
import { version } from '../package.json';
import { runCli } from '../src/cli/main';

async function main(): Promise<void> {
  // A reader that stops early (`agent-session list --json | head`) closes the pipe: the rest of the output has nowhere
  // to go, so it is dropped quietly, as coreutils do, instead of an unhandled 'error' event and its stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.stderr.write(`agent-session: cannot write the output: ${error.message}\n`);
  });
  process.exitCode = await runCli(
    process.argv.slice(2),
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      env: process.env,
      cwd: process.cwd(),
      now: () => new Date(),
      isTTY: process.stdout.isTTY === true,
      columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
      stdin: 0,
      binDir: __dirname,
      negative: false,
    },
    version,
  );
}

void main();
