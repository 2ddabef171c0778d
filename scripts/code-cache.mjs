// The bins' loader, as build.mjs writes it: a few constants, then scripts/loader/loader-body.cjs, which reads the
// bundle beside it and compiles it with a V8 code cache made by the user's own Node (scripts/loader/make-cache.cjs,
// shipped beside the bins). Plain JS: it runs before anything is built.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The bundle is compiled as a CommonJS module body, exactly as Node would wrap it. */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const WRAPPER_TAIL = '\n})';

const BODY = readFileSync(new URL('./loader/loader-body.cjs', import.meta.url), 'utf8').replace(
  /^\/\* global .*\n/,
  '',
);

/** The file beside each bin that holds its bundle: `<name>.bundle` (no `.js`: it is not a program to run). */
export function bundleFileName(name) {
  return `${name}.bundle`;
}

/**
 * The bin: the loader of bundle `source`. The bundle is a side file, not a string inside the loader: Node would decode
 * and V8 scan a 150-440 KB string literal on every start (+3.5 M instructions per hook call, +10.7 M per CLI call,
 * callgrind), where reading the ASCII bundle as latin1 is a copy. A cache belongs to one exact source: V8 itself only
 * compares the source length, so the cache's name carries a hash of the source (BUNDLE_HASH) and a rebuilt bundle
 * never runs with the bytecode of an older one. `hook`: a missing bundle (a bin copied out of dist/ alone) is one line
 * on stderr and exit 0 with nothing on stdout (a hook never fails its host); the CLI exits 5 (E_IO).
 */
export function loaderSource(name, source, { hook }) {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return `#!/usr/bin/env node
const NAME = ${JSON.stringify(name)};
const BUNDLE_HASH = ${JSON.stringify(hash)};
const MISSING_EXIT_CODE = ${hook ? 0 : 5};
${BODY}`;
}
