import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');

/** The first ```ts block after `heading` in `file`: the example a page promises works. */
function exampleIn(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const section = text.slice(text.indexOf(heading));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`${file} has no \`\`\`ts block under "${heading}"`);
  return match[1]!;
}

/** The library's example (docs/library.md, section "Example"; the README's Library API points to it). */
const docsExample = (): string => exampleIn('docs/library.md', '## Example');

describe('library API (dist/index.cjs + dist/types)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
    // Installed as a dependency would be: node_modules/agent-session → this package (its `exports` apply).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'agent-session'), 'dir');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the documented example and prints what its comments say', () => {
    const source = docsExample();
    writeFileSync(join(dir, 'example.ts'), source);
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    writeFileSync(join(dir, 'example.js'), outputText);
    const result = spawnSync(process.execPath, ['example.js'], {
      cwd: dir,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '', AGENT_SESSION_CONFIG: '', CLAUDE_PROJECT_DIR: dir },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      'true session_resumable',
      'session_resumable',
      '1',
      'not found',
    ]);
  });

  it('type-checks the documented example against the emitted declarations', () => {
    const file = join(dir, 'example.ts');
    writeFileSync(file, docsExample());
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it("the README's Library API points to the example", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Library API'),
      readme.indexOf('\n## ', readme.indexOf('## Library API') + 1),
    );
    expect(section).toContain('](docs/library.md#example)');
  });

  it('openStore checks its config overrides as the config file is checked', async () => {
    const lib = require(join(ROOT, 'dist', 'index.cjs')) as typeof import('../../src/index');
    const store = join(dir, 'store');
    for (const config of [
      { history_cap: 0 },
      { history_cap: -5 },
      { max_errors: 1.5 },
      { log_level: 'loud' },
      { histroy_cap: 5 },
    ]) {
      await expect(lib.openStore({ dir: store, env: {}, config: config as never })).rejects.toThrow(
        expect.objectContaining({ code: 'E_USAGE' }),
      );
    }
    const sessions = await lib.openStore({
      dir: store,
      env: { AGENT_SESSION_HISTORY_CAP: '2' },
      cwd: dir,
      config: { history_cap: undefined, max_errors: 7 },
    });
    const { agent_id } = await sessions.create({ agent_name: 'n', purpose: 'p' });
    for (const phase of ['planning', 'approval', 'planning'] as const) await sessions.update(agent_id, { phase });
    // An override given as undefined leaves the environment's value in force.
    expect((await sessions.get(agent_id)).history).toHaveLength(2);
    expect(sessions.limits.maxErrors).toBe(7);
  });

  it('exports the documented names', () => {
    const lib = require(join(ROOT, 'dist', 'index.cjs')) as Record<string, unknown>;
    for (const name of [
      'openStore',
      'shouldResume',
      'Sessions',
      'FileStore',
      'SessionError',
      'isSessionError',
      'parseState',
      'PHASES',
      'computeStats',
      'toExport',
      'parseExport',
      'resolveConfig',
      'loadConfig',
      'capHistory',
      'isInterrupted',
      'allowsResume',
    ]) {
      expect(typeof lib[name]).not.toBe('undefined');
    }
  });
});
