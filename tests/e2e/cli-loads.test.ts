// What a CLI call loads, which every call pays for: a command must not initialise another command's modules, and a
// call whose output goes to a pipe must not make process.stdout (`net` and the stream machinery) nor node:assert
// (docs/performance.md, "How the CLI loads its commands"). No timing here: which modules ran, not how long.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { BIN, run, tempDir } from '../helpers';

const work = tempDir();
const store = join(work, 'store');
const root = resolve(__dirname, '..', '..');

const id = 'probe-session';
beforeAll(() => {
  const made = run(BIN.cli, ['create', '--agent', 'probe', '--purpose', 'loads', '--id', id, '--dir', store], {
    cwd: work,
  });
  expect(made.status).toBe(0);
});

/** Each case: the arguments, and the command module it runs (none for --version and --help). */
const CASES: readonly (readonly [readonly string[], string | null])[] = [
  [['get', id], 'get'],
  [['should-resume', id], 'should-resume'],
  [['update', id], 'update'],
  [['list'], 'list'],
  [['--version'], null],
  [['--help'], null],
];

describe('the built CLI, its output to a pipe, loads no stream machinery', () => {
  // The list is read at exit and written with fs.writeSync: process.stderr on a pipe would itself load `net`.
  const probe = join(work, 'node-modules-probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'));\n",
  );
  const loaded = (args: readonly string[]): string[] => {
    const result = spawnSync(process.execPath, ['--require', probe, BIN.cli, ...args, '--dir', store], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
    });
    const line = /^LOADED (.*)$/m.exec(result.stderr);
    expect(line).not.toBeNull();
    return JSON.parse(line![1]!) as string[];
  };
  const STREAMS = ['NativeModule net', 'NativeModule stream', 'NativeModule assert'];

  it.each(CASES.filter(([args]) => args[0] !== '--help').map(([args]) => [args.join(' ')]))('%s', (line) => {
    expect(loaded(line.split(' ')).filter((name) => STREAMS.includes(name))).toEqual([]);
  });

  it('--help does load them (yargs’ CommonJS build lays out help), so the probe sees them', () => {
    expect(loaded(['--help'])).toEqual(expect.arrayContaining(STREAMS));
  });
});

describe('each command initialises only its own modules', () => {
  // The bundle as scripts/build.mjs makes it (esbuild: one CommonJS file; a module reached through a `require()` is
  // initialised on its first use), minus the minifier, so that each lazily initialised module keeps its path, and
  // minus the build's plugins, which change the text of a few files, not which modules are initialised when. Its
  // two helpers that initialise a module (__esm for ours, __commonJS for CommonJS packages) are wrapped to record it.
  const bundle = join(work, 'probe-bundle.cjs');
  const recorder = join(work, 'init-probe.cjs');
  beforeAll(() => {
    const built = buildSync({
      entryPoints: [join(root, 'tools', 'agent-session.ts')],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['postgres'],
      write: false,
      logLevel: 'silent',
    }).outputFiles[0]!.text;
    const firstUse = /^var \w+ = __(esm|commonJS)\(\{$/m.exec(built);
    if (firstUse === null) throw new Error('Expected esbuild to wrap lazily initialised modules in __esm / __commonJS');
    writeFileSync(
      bundle,
      `${built.slice(0, firstUse.index)}__esm = __recordInit(__esm);\n__commonJS = __recordInit(__commonJS);\n` +
        built.slice(firstUse.index),
    );
    writeFileSync(
      recorder,
      [
        'const wrapped = new Set();',
        'const initialised = new Set();',
        'globalThis.__recordInit = (helper) => (modules, ...rest) => {',
        '  const name = Object.keys(modules)[0];',
        '  wrapped.add(name);',
        '  const init = helper(modules, ...rest);',
        '  return (...args) => (initialised.add(name), init(...args));',
        '};',
        "process.on('exit', () => require('node:fs').writeFileSync(process.env.INIT_PROBE_OUT,",
        '  JSON.stringify({ wrapped: [...wrapped], initialised: [...initialised] })));',
      ].join('\n'),
    );
  });
  let runs = 0;
  const initialised = (args: readonly string[]): { wrapped: Set<string>; initialised: Set<string> } => {
    const out = join(work, `inits-${runs++}.json`);
    const result = spawnSync(process.execPath, ['--require', recorder, bundle, ...args, '--dir', store], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '', INIT_PROBE_OUT: out },
    });
    expect(result.stderr).toBe('');
    const report = JSON.parse(readFileSync(out, 'utf8')) as { wrapped: string[]; initialised: string[] };
    return { wrapped: new Set(report.wrapped), initialised: new Set(report.initialised) };
  };

  const commandModules = readdirSync(join(root, 'src', 'cli', 'commands')).map((file) => `src/cli/commands/${file}`);
  /** Modules of other commands that a call of get, should-resume, update or list, or help, does not need. */
  const ELSEWHERE = [
    'src/core/views/report/html.ts', // report
    'src/core/views/report/buckets.ts',
    'src/core/views/stats.ts', // stats, report
    'src/core/views/machine-description.ts', // machine (with xstate)
    'src/core/phase-machine.ts',
    'src/cli/init/settings.ts', // init
    'src/cli/init/settings-file.ts',
    'src/core/transfer.ts', // export, import
    'src/cli/transfer-file.ts',
    'src/core/views/inbox.ts', // pending, report
    'src/core/views/timeline.ts', // show, report
    'src/core/views/explain.ts', // show, should-resume --explain
    'src/cli/story.ts',
    'src/core/views/time-text.ts', // date-fns' format: show, pending, report, --explain
    'src/store/postgres/pg-store.ts', // a PostgreSQL store only
    'src/store/postgres/schema.ts',
  ];

  it.each(CASES.map(([args, command]) => [args.join(' '), command] as const))('%s', (line, command) => {
    const { wrapped, initialised: ran } = initialised(line.split(' '));
    const commands = commandModules.filter((file) => ran.has(file));
    expect(commands).toEqual(command === null ? [] : [`src/cli/commands/${command}.ts`]);
    for (const file of ELSEWHERE) {
      // Present as a module initialised on demand (a module evaluated at load would not be listed at all)...
      expect(wrapped).toContain(file);
      // ...and not initialised by this command.
      expect(ran).not.toContain(file);
    }
    expect([...ran].filter((file) => file.includes('node_modules/xstate/'))).toEqual([]);
  });

  // Issue 44 item 2: Claude Code's status line runs `statusline` as often as a hook: no parser, no other command.
  it('statusline initialises neither the CLI parser (yargs) nor main.ts; the parser path (--dir first) does', () => {
    const quick = initialised(['statusline']).initialised;
    expect([...quick].filter((file) => file.includes('node_modules/yargs') || file === 'src/cli/main.ts')).toEqual([]);
    expect(quick).toContain('src/core/views/told.ts');
    const parsed = initialised(['--dir', store, 'statusline']).initialised;
    expect(parsed).toContain('src/cli/main.ts');
    expect([...parsed].some((file) => file.includes('node_modules/yargs'))).toBe(true);
  });

  it('the probe sees what a command initialises: report its HTML and stats, machine its description and xstate', () => {
    const report = initialised(['report', '--out', join(work, 'report.html')]).initialised;
    expect(report).toContain('src/core/views/report/html.ts');
    expect(report).toContain('src/core/views/stats.ts');
    const machine = initialised(['machine']).initialised;
    expect(machine).toContain('src/core/views/machine-description.ts');
    expect([...machine].some((file) => file.includes('node_modules/xstate/'))).toBe(true);
  });
});
