// What every esbuild bundle of agent-session shares: the bins' entries, the plugins that adapt yargs, zod and the
// PostgreSQL driver to one CommonJS file for Node 20, the options, and binFiles: the files of the bins, the same for
// dist/ (build.mjs: the npm package) and plugin/dist/ (build-plugin.mjs: the Claude Code plugin, committed). Nothing
// in them depends on the building machine (no code cache: each user's Node makes its own, scripts/loader/).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleFileName, loaderSource, WRAPPER_HEAD, WRAPPER_TAIL } from './code-cache.mjs';
import { loadTs } from './generated.mjs';

/** Each bin and its entry point. */
export const entries = {
  'agent-session': 'tools/agent-session.ts',
  'pre-delegate': 'hooks/pre-delegate.ts',
  'subagent-stop': 'hooks/subagent-stop.ts',
};
// yargs' ESM shim finds its locale files from `import.meta.url`, which a CommonJS bundle does not have: it then
// falls back to the working folder and reads `<cwd>/../../../locales/<LANG>.json`, so a folder above wherever the
// CLI runs could rewrite (or break) its messages. Pointed inside dist/, where no locales folder exists, yargs reads
// no file and uses its built-in English texts. (`__filename`, the bin's own path: the shim declares a `__dirname` of
// its own.)
// The shim also imports `assert` for two internal checks, and reads `process.stdout.columns` when it loads, which
// makes process.stdout (on a pipe: `net` and the stream machinery). Together ~15 M instructions on every CLI call
// (callgrind), now that the CLI writes fd 1 directly (src/cli/process-io.ts): the checks become two plain functions,
// the read a getter (yargs asks only to lay out help without `.wrap()`, which the CLI always sets).
const SHIM_EDITS = [
  ['fileURLToPath(import.meta.url)', "__filename + '/../yargs/lib/platform-shims/esm.mjs'"],
  [
    "import { notStrictEqual, strictEqual } from 'assert'",
    "const notStrictEqual = (a, b, m) => { if (a === b) throw new Error(m ?? 'yargs: an internal check failed'); };\n" +
      "const strictEqual = (a, b, m) => { if (a !== b) throw new Error(m ?? 'yargs: an internal check failed'); };",
  ],
  [
    "stdColumns: typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null",
    "get stdColumns() { return typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null }",
  ],
  // Outside a node_modules folder (dist/ of a checkout) the shim would call process.cwd() as it loads, which throws in
  // a removed working folder before the CLI can say so: a getter, read only by yargs' package.json lookup (inside a
  // try), which the CLI never needs (it gives its version).
  ['mainFilename: mainFilename || process.cwd(),', 'get mainFilename() { return mainFilename || process.cwd() },'],
];
export const yargsLocalesInDist = {
  name: 'yargs-locales-in-dist',
  setup(build) {
    build.onLoad({ filter: /yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of SHIM_EDITS) {
        if (!text.includes(from)) throw new Error(`Expected yargs' ESM shim to have ${from}; check the yargs update`);
        text = text.replace(from, to);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

// src/core/state.ts imports zod's English locale by its CommonJS path (jest cannot load the ESM one), which
// requires zod's CommonJS core a second time: 16 KB more in every bundle, evaluated at start-up. Bundles take the
// ESM file, the same messages on the one zod core.
export const zodLocaleOnce = {
  name: 'zod-locale-once',
  setup(build) {
    build.onResolve({ filter: /^zod\/v4\/locales\/en\.cjs$/ }, (args) =>
      build.resolve('zod/v4/locales/en.js', { kind: args.kind, resolveDir: args.resolveDir }),
    );
  },
};
/**
 * The build's identity: a hash of the package's version and of every source file the bins are made of. A PostgreSQL
 * hook talks only to a relay of its own build (src/store/relay/relay-protocol.ts): after a rebuild or an upgrade, a
 * relay still running older code is never asked (its socket has another name), and stops when idle.
 */
export function buildId() {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync('package.json', 'utf8')).version);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(`\0${path}\0`).update(readFileSync(path));
    }
  };
  for (const dir of ['src', 'hooks', 'tools']) walk(dir);
  return hash.digest('hex').slice(0, 16);
}

/** This build's identity (buildId), computed once. */
export const BUILD_ID = buildId();

/** What every bundle here shares: one CommonJS file for Node 20, no license comments, the build's identity. */
export const forNode = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.AGENT_SESSION_BUILD_ID': JSON.stringify(BUILD_ID) },
  // Module paths as reached, not resolved: a checkout whose node_modules is a link (a git worktree sharing another's)
  // builds the same bytes as a clone, so the committed plugin/ does not depend on where it was built.
  preserveSymlinks: true,
};

// The PostgreSQL driver (postgres.js) is its own file, dist/postgres.cjs, required at run time from the bundle's
// folder: bundled inline it is never evaluated on the file store (src/app/postgres.ts requires the PostgreSQL
// store lazily), but it made every bin's source and V8 code cache larger (+39 KB cache, +4 M instructions per hook
// call on the file store: docs/performance.md). Only the driver is split out, not src/store/postgres/: that code
// throws the bundle's own SessionError, which a second copy of src/core/ would not be (`instanceof`). ts-node and
// jest run src/ and resolve `postgres` from node_modules as before.
export const PG_DRIVER_FILE = './postgres.cjs';
export const postgresDriverApart = {
  name: 'postgres-driver-apart',
  setup(build) {
    build.onResolve({ filter: /^postgres$/ }, () => ({ path: PG_DRIVER_FILE, external: true }));
  },
};

// esbuild gives each module of a bundle its own `require("node:fs")` and `require("node:path")`, run as that module
// initialises: 32 calls through Node's CommonJS loader in every hook call, enough to make the loader's functions hot
// for V8's baseline compiler. Each returns the same cached object, so a bundle requires each once, before any module:
// -1.0 M instructions per hook call on Node 22 (callgrind, docs/performance.md).
const BUILTINS_ONCE = { 'node:fs': '__nodeFs', 'node:path': '__nodePath' };
const STRICT = '"use strict";';

/** A bundle's text with each of BUILTINS_ONCE required once, at its top (after the strict-mode directive). */
export function builtinsOnce(text) {
  if (!text.startsWith(STRICT)) throw new Error(`Expected an esbuild bundle to start with ${STRICT}`);
  let body = text.slice(STRICT.length);
  const declared = [];
  for (const [id, name] of Object.entries(BUILTINS_ONCE)) {
    if (body.includes(name)) throw new Error(`Expected no \`${name}\` in a bundle before builtinsOnce`);
    const call = `require(${JSON.stringify(id)})`;
    // Only calls of the bundle's own `require` (never text inside a string): each is preceded by `=`, `,` or `(`.
    const uses = body.split(call).length - 1;
    const asCode = body.match(new RegExp(`[=,(]${call.replace(/[()."]/g, (c) => `\\${c}`)}`, 'g'))?.length ?? 0;
    if (uses !== asCode)
      throw new Error(`Expected every ${call} of a bundle to be a call, found ${uses - asCode} in text`);
    if (uses === 0) continue;
    body = body.replaceAll(call, name);
    declared.push(`${name}=${call}`);
  }
  return declared.length === 0 ? text : `${STRICT}var ${declared.join(',')};${body}`;
}

/**
 * One bin's two files from its entry: the bundle (`<name>.bundle`, ASCII, wrapped as a CommonJS module body) and its
 * loader (`<name>.cjs`). `hook`: a hook's loader (a missing bundle exits 0). scripts/bench.mjs builds its lean hook
 * with this too, so that reference loads exactly as the bins do.
 * @returns `{ [file]: text }`, the bundle first
 */
export async function binOf(name, entry, { hook }) {
  const result = await build({
    entryPoints: [entry],
    ...forNode,
    minify: true,
    // ASCII output keeps the source a one-byte string for V8, read as latin1 by the loader.
    charset: 'ascii',
    write: false,
    plugins: [zodLocaleOnce, yargsLocalesInDist, postgresDriverApart],
  });
  const source = `${WRAPPER_HEAD}${builtinsOnce(result.outputFiles[0].text)}${WRAPPER_TAIL}`;
  if (Buffer.byteLength(source) !== source.length)
    throw new Error(`Expected the ${name} bundle to be ASCII (charset: 'ascii')`);
  return {
    [bundleFileName(name)]: source,
    [`${name}.cjs`]: loaderSource(name, source, { hook, build: BUILD_ID }),
  };
}

/**
 * The bins' files, by name, with their text and mode: for each bin its loader (`<name>.cjs`, executable) and its
 * bundle (binOf), the code-cache maker the loaders start, and the PostgreSQL driver (required from the bundles' folder
 * on that path only).
 */
export async function binFiles() {
  const files = {};
  await Promise.all(
    Object.entries(entries).map(async ([name, entry]) => {
      const bin = await binOf(name, entry, { hook: name !== 'agent-session' });
      for (const [file, text] of Object.entries(bin))
        files[file] = { text, mode: file.endsWith('.cjs') ? 0o755 : 0o644 };
    }),
  );
  const { EVENTS } = await loadTs("export { EVENTS } from './src/core/events';");
  files['make-cache.cjs'] = { text: makeCacheFile(EVENTS), mode: 0o644 };
  const driver = await build({ entryPoints: ['postgres'], ...forNode, minify: true, write: false });
  files[PG_DRIVER_FILE.replace('./', '')] = { text: driver.outputFiles[0].text, mode: 0o644 };
  return files;
}

/** Where the build writes the table of events into make-cache.cjs (its empty EVENTS). */
const EVENTS_LINE = /^const EVENTS = \[\];$/m;

/**
 * make-cache.cjs with the rows of the table of events written in (`rows`: src/core/events.ts EVENTS; event, bin,
 * hosts), so that the code cache holds a run of every event of each bin.
 * @throws when make-cache.cjs has no sample payload of a row's event
 */
export function makeCacheFile(rows) {
  const path = new URL('./loader/make-cache.cjs', import.meta.url);
  const { EVENT_SAMPLES } = createRequire(import.meta.url)(fileURLToPath(path));
  const missing = rows.filter((row) => !Object.hasOwn(EVENT_SAMPLES, row.event)).map((row) => row.event);
  if (missing.length > 0)
    throw new Error(`Expected scripts/loader/make-cache.cjs EVENT_SAMPLES to have a run of ${missing.join(', ')}`);
  const text = readFileSync(path, 'utf8');
  if (!EVENTS_LINE.test(text)) throw new Error('Expected `const EVENTS = [];` in scripts/loader/make-cache.cjs');
  const table = rows.map(({ event, bin, hosts }) => ({ event, bin, hosts }));
  return text.replace(EVENTS_LINE, `const EVENTS = ${JSON.stringify(table)};`);
}

/**
 * The library, `require('agent-session')` (src/index.ts), as one CommonJS file: not minified, so a user's stack traces
 * stay readable; the Agent SDK, an optional peer, loaded by import() at run time from the app's node_modules, never
 * bundled; the PostgreSQL driver beside it (postgresDriverApart), as the bins have it.
 */
export async function libraryFile() {
  const result = await build({
    entryPoints: ['src/index.ts'],
    external: ['@anthropic-ai/claude-agent-sdk'],
    ...forNode,
    write: false,
    plugins: [zodLocaleOnce, postgresDriverApart],
  });
  return result.outputFiles[0].text;
}

/**
 * The library's type declarations (esbuild emits none): tsc -p tsconfig.build.json into a temporary folder, read
 * back as `{ [path under the types folder]: text }`.
 */
export function typeFiles() {
  const out = mkdtempSync(join(tmpdir(), 'agent-session-types-'));
  try {
    execFileSync(
      process.execPath,
      [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', out],
      { stdio: 'inherit' },
    );
    const files = {};
    const walk = (rel) => {
      for (const entry of readdirSync(join(out, rel), { withFileTypes: true })) {
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else files[path] = readFileSync(join(out, path), 'utf8');
      }
    };
    walk('');
    return files;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
