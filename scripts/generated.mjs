// What the generators (phase-table.mjs, parsers.mjs) share: loading the TypeScript sources they read (the sources
// stay the one place the rules are written), and writing a generated file only when its text changed.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The exports of the module whose text is `contents`. */
export async function loadTs(contents) {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}

/**
 * Writes `text` to `file` unless the file holds it already; with `check`, writes nothing. Returns whether the file
 * differed (was, or would be, rewritten).
 */
export function writeGenerated(file, text, { check = false } = {}) {
  let current = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (current === text) return false;
  if (!check) writeFileSync(file, text);
  return true;
}
