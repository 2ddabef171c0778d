// Generates each `X-parsers.ts` from the zod schemas of `X-schema.ts` (scripts/zod-codegen.ts), so the bins parse
// without evaluating zod at every start (docs/performance.md). The schemas stay the source:
// tests/unit/scripts/zod-codegen.test.ts checks each file is exactly what this writes. Run by scripts/build.mjs.
import { format, resolveConfig } from 'prettier';
import { loadTs, writeGenerated } from './generated.mjs';

/**
 * Writes every parsers file that differs from its schemas'; returns the files it changed. With `check`, writes
 * nothing and returns the files that would change.
 */
export async function writeParsers({ check = false } = {}) {
  const { codegen, SCHEMA_MODULES } = await loadSchemas();
  const changed = [];
  for (const [source, parsers] of Object.entries(SCHEMA_MODULES)) {
    const file = codegen.parsersFileOf(source);
    const text = await formatted(file, codegen.renderParsersOf(source, parsers));
    if (!writeGenerated(file, text, { check })) continue;
    changed.push(file);
    if (!check) process.stderr.write(`${file} regenerated from ${source}\n`);
  }
  return changed;
}

/** The text as prettier writes it with the project's settings (what `npm run format:check` expects). */
async function formatted(file, text) {
  return format(text, { ...(await resolveConfig(file)), filepath: file });
}

function loadSchemas() {
  return loadTs(
    [
      "export * as codegen from './scripts/zod-codegen';",
      "export { SCHEMA_MODULES } from './scripts/parser-schemas';",
    ].join('\n'),
  );
}

// `node scripts/parsers.mjs --check`: exit 1 naming the files that differ from what their schemas give.
if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2] === '--check') {
  const stale = await writeParsers({ check: true });
  for (const file of stale) process.stderr.write(`${file} differs from what its zod schemas give: run npm run build\n`);
  process.exitCode = stale.length === 0 ? 0 : 1;
}
