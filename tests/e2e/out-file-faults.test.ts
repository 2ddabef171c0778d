// Issue 20, item 5: `report --out` / `export --out` left a cut-short file when the write failed (a full disk), and the
// retry was then refused (`exists`). A failing write is real here: RLIMIT_FSIZE (`ulimit -f 1`) makes writes past
// the first block fail with EFBIG (SIGXFSZ ignored, as Node does anyway).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, run, tempDir } from '../helpers';

const base = tempDir();
const STACK_LINE = /^\s+at .+[:(]/m;

/** A store with one session whose metadata makes its export a few KiB; returns the store folder. */
function store(): string {
  const root = mkdtempSync(join(base, 'store-'));
  const metadata = JSON.stringify({ notes: 'n'.repeat(4000) });
  const made = run(
    BIN.cli,
    ['create', '--agent', 'a', '--purpose', 'p', '--id', 'keep', '--metadata', metadata, '--dir', root],
    {
      cwd: base,
    },
  );
  expect(made.status).toBe(0);
  return root;
}

/** The CLI with a file size limit of one block: any file it writes past that fails (EFBIG). */
function withSizeLimit(args: readonly string[]): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: '' };
  delete env.AGENT_SESSION_DIR;
  delete env.CLAUDE_PROJECT_DIR;
  delete env.AGENT_SESSION_DATABASE_URL;
  return spawnSync('sh', ['-c', 'trap "" XFSZ; ulimit -f 1 && exec "$@"', 'sh', process.execPath, BIN.cli, ...args], {
    cwd: base,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
}

function oneLine(result: SpawnSyncReturns<string>, status: number): void {
  expect({ status: result.status, signal: result.signal }).toEqual({ status, signal: null });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stdout + result.stderr).not.toMatch(STACK_LINE);
}

describe.each([
  ['export', (root: string, out: string) => ['export', 'keep', '--out', out, '--dir', root]],
  ['report', (root: string, out: string) => ['report', '--out', out, '--dir', root]],
])('%s --out on a write that fails', (name, argsFor) => {
  it('exits 5 with one line, leaves no file and no temp file, and the retry writes the whole file', () => {
    const root = store();
    const folder = mkdtempSync(join(base, 'out-'));
    const out = join(folder, 'result');
    oneLine(withSizeLimit(argsFor(root, out)), 5);
    expect(readdirSync(folder)).toEqual([]);
    const retry = run(BIN.cli, argsFor(root, out), { cwd: base });
    expect(retry.status).toBe(0);
    expect(readdirSync(folder)).toEqual(['result']);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    if (name === 'export') expect(JSON.parse(text)).toMatchObject({ session: { agent_id: 'keep' } });
    else expect(text.trimEnd()).toMatch(/<\/html>$/);
  });

  it('an existing file is still refused (exit 4) and kept', () => {
    const root = store();
    const folder = mkdtempSync(join(base, 'out-'));
    const out = join(folder, 'result');
    writeFileSync(out, 'mine');
    oneLine(run(BIN.cli, argsFor(root, out), { cwd: base }), 4);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect(readdirSync(folder)).toEqual(['result']);
  });
});

it('report --out --force on a write that fails keeps the previous report byte for byte, and no temp file', () => {
  const root = store();
  const folder = mkdtempSync(join(base, 'out-'));
  const out = join(folder, 'report.html');
  writeFileSync(out, 'the previous report');
  oneLine(withSizeLimit(['report', '--out', out, '--force', '--dir', root]), 5);
  expect(readFileSync(out, 'utf8')).toBe('the previous report');
  expect(readdirSync(folder)).toEqual(['report.html']);
});
