// Writes plugin/: the Claude Code plugin and, the same folder, the npm package a user installs (README: `npm install
// -g ~/agent-session/plugin`), both committed and prebuilt, so neither route installs a dependency or builds anything
// (`claude plugin` reads the folder as it is and runs no npm install). What it writes:
// - plugin/dist/: the bins (scripts/bundles.mjs binFiles: loaders, bundles, the code-cache maker, the PostgreSQL driver;
//   the same files as dist/, nothing of the building machine's Node in them) and the library, index.cjs (libraryFile);
// - plugin/types/: the library's declarations (typeFiles);
// - plugin/package.json: the package's manifest, from package.json (no dependency: the bundles hold them; no script;
//   the Agent SDK an optional peer), and plugin/LICENSE, a copy;
// - plugin/hooks/hooks.json: its hooks, from the table of events (src/core/events.ts: the wiring `init` writes).
// `--check` builds in memory and compares with what is committed, exit 1 naming each file that differs
// (tests/e2e/plugin.test.ts runs it: the plugin never drifts from the source); `--out DIR` checks or writes another
// folder for the bins. Run `npm run build:plugin` after changing the source, and commit plugin/.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binFiles, libraryFile, typeFiles } from './bundles.mjs';
import { loadTs } from './generated.mjs';

const outAt = process.argv.indexOf('--out');
const OUT = outAt > 0 ? process.argv[outAt + 1] : 'plugin/dist';
const check = process.argv.includes('--check');
const HOOKS = 'plugin/hooks/hooks.json';
const TYPES = 'plugin/types';

const files = { ...(await binFiles()), 'index.cjs': { text: await libraryFile(), mode: 0o644 } };
// Whole files of plugin/ besides the bins' folder, by path.
const whole = {
  [HOOKS]: await pluginHooks(),
  'plugin/package.json': packageManifest(),
  'plugin/LICENSE': readFileSync('LICENSE', 'utf8'),
};
const types = typeFiles();
if (check) {
  const stale = Object.entries(whole)
    .filter(([path, text]) => readOrNull(path) !== text)
    .map(([path]) => path);
  const present = listOrEmpty(OUT);
  const differs = Object.entries(files)
    .filter(([file, { text }]) => !present.includes(file) || !readFileSync(join(OUT, file)).equals(Buffer.from(text)))
    .map(([file]) => join(OUT, file));
  const extra = present.filter((file) => !(file in files)).map((file) => join(OUT, file));
  const typesPresent = listTree(TYPES);
  const typesDiffer = Object.entries(types)
    .filter(([file, text]) => readOrNull(join(TYPES, file)) !== text)
    .map(([file]) => join(TYPES, file));
  const typesExtra = typesPresent.filter((file) => !(file in types)).map((file) => join(TYPES, file));
  const all = [...stale, ...differs, ...extra, ...typesDiffer, ...typesExtra];
  if (all.length > 0) {
    process.stderr.write(
      `Expected plugin/ to be built from the current source; differs: ${all.join(', ')} ` +
        '(run `npm run build:plugin` and commit plugin/)\n',
    );
    process.exitCode = 1;
  }
} else {
  for (const [path, text] of Object.entries(whole)) writeFileSync(path, text);
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (!(file in files)) rmSync(join(OUT, file));
  for (const [file, { text, mode }] of Object.entries(files)) {
    writeFileSync(join(OUT, file), text);
    chmodSync(join(OUT, file), mode);
  }
  rmSync(TYPES, { recursive: true, force: true });
  for (const [file, text] of Object.entries(types)) {
    mkdirSync(dirname(join(TYPES, file)), { recursive: true });
    writeFileSync(join(TYPES, file), text);
  }
}

/**
 * The plugin's hooks/hooks.json: Claude Code's wiring (src/cli/init/settings.ts WIRINGS, the rows of
 * src/core/events.ts that name Claude Code), each bin run through the plugin root, with init's timeout.
 */
async function pluginHooks() {
  const { WIRINGS, HOOK_TIMEOUT_SECONDS } = await loadTs(
    "export { WIRINGS, HOOK_TIMEOUT_SECONDS } from './src/cli/init/settings';",
  );
  const hooks = {};
  for (const { event, matcher, bin } of WIRINGS) {
    // Through hooks/node.sh, which finds a node where a desktop-started Claude Code has none on PATH (or says so).
    const command = `sh "\${CLAUDE_PLUGIN_ROOT}/hooks/node.sh" "\${CLAUDE_PLUGIN_ROOT}/dist/${bin}.cjs"`;
    hooks[event] = [
      {
        ...(matcher === undefined ? {} : { matcher }),
        hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }],
      },
    ];
  }
  const description =
    "agent-session's hooks: the wiring `agent-session init` writes for Claude Code, generated from " +
    'src/core/events.ts by scripts/build-plugin.mjs (do not edit: `build-plugin.mjs --check` compares).';
  return `${JSON.stringify({ description, hooks }, null, 2)}\n`;
}

/**
 * plugin/package.json: what a user's install needs of package.json, pointed at the plugin's folders. No dependency
 * (the bundles hold them) and no script (nothing runs at install: npm 11 warns of any), so `npm install -g` of the
 * folder takes a second and warns of nothing on any Node line.
 */
function packageManifest() {
  const root = JSON.parse(readFileSync('package.json', 'utf8'));
  const manifest = {
    name: root.name,
    version: root.version,
    description: root.description,
    license: root.license,
    engines: root.engines,
    type: root.type,
    main: 'dist/index.cjs',
    types: 'types/index.d.ts',
    exports: {
      '.': { types: './types/index.d.ts', require: './dist/index.cjs', default: './dist/index.cjs' },
      './package.json': './package.json',
    },
    bin: root.bin,
    peerDependencies: root.peerDependencies,
    peerDependenciesMeta: root.peerDependenciesMeta,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function readOrNull(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

function listOrEmpty(dir) {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

/** Every file under `dir`, as paths relative to it ([] when it does not exist). */
function listTree(dir) {
  const out = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  if (listOrEmpty(dir).length > 0) walk('');
  return out;
}
