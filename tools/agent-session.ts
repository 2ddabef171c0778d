// Entry point of the `agent-session` CLI: wiring only. The exit code is set, never forced, so output is never cut short.
import { version } from '../package.json';
import { runCli } from '../src/cli/main';

async function main(): Promise<void> {
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
