// The layering rules (`npm run layers`, .dependency-cruiser.cjs) fail on a planted violation: each case copies the
// sources into a temp folder, adds one import a rule forbids, and runs dependency-cruiser there.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..', '..');
const DEPCRUISE = join(REPO, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Runs the layering check on a copy of the sources with `line` added to `file`. */
function layersWith(file: string | null, line: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-session-layers-'));
  try {
    for (const part of ['src', 'hooks', 'tools', 'package.json', 'tsconfig.json', '.dependency-cruiser.cjs'])
      cpSync(join(REPO, part), join(dir, part), { recursive: true });
    // The packages by a link, read as if they were here (the rules name `node_modules/<package>/` paths).
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'layers.cjs'),
      "const rules = require('./.dependency-cruiser.cjs');\n" +
        'module.exports = { ...rules, options: { ...rules.options, preserveSymlinks: true } };\n',
    );
    if (file !== null) appendFileSync(join(dir, file), `\n${line}\n`);
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', 'hooks', 'tools', '--config', 'layers.cjs'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the layering rules', () => {
  it('pass on the sources as they are', () => {
    expect(layersWith(null, '').status).toBe(0);
  }, 120_000);

  it.each([
    ['fs-only-where-io-lives', 'src/cli/commands/get.ts', "import { readFileSync as _planted } from 'node:fs';"],
    ['fs-only-where-io-lives', 'src/hooks/handlers/attach.ts', "import { statSync as _planted } from 'node:fs';"],
    ['core-is-pure', 'src/core/rules.ts', "import { readFileSync as _planted } from 'node:fs';"],
    ['core-rules-not-views', 'src/core/rules.ts', "import { computeStats as _planted } from './views/stats';"],
    [
      'adapters-use-the-service',
      'src/cli/commands/get.ts',
      "import { FileStore as _planted } from '../../store/file-store';",
    ],
    ['entries-only-wire', 'hooks/pre-delegate.ts', "import { SessionError as _planted } from '../src/core/errors';"],
    ['handlers-not-hosts', 'src/hooks/handlers/overview.ts', "import { codex as _planted } from '../hosts/codex';"],
    ['runners-apart', 'src/hooks/hosts/agent-sdk.ts', "import { runHook as _planted } from '../run';"],
    ['events-are-data', 'src/core/events.ts', "import { SessionError as _planted } from './errors';"],
  ])(
    '%s fails on a planted import in %s',
    (rule, file, line) => {
      const result = layersWith(file, line);
      expect(result.status).not.toBe(0);
      expect(result.output).toContain(`error ${rule}: ${file}`);
    },
    120_000,
  );
});
