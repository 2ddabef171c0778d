// Generates src/core/phase-table.ts from the XState machine (src/core/phase-machine.ts), so the bins decide on a
// plain table instead of evaluating xstate at every start (docs/performance.md). The machine stays the source:
// tests/unit/core/machine-source.test.ts checks the file is exactly what this writes. Run by scripts/build.mjs.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const TABLE_FILE = 'src/core/phase-table.ts';

/** Writes the table when it differs from the machine's; returns true when it changed the file. */
export async function writePhaseTable() {
  const result = await build({
    stdin: {
      contents: "export { phaseMachine, phaseTableOf, renderPhaseTable } from './src/core/phase-machine';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
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
  const { phaseMachine, phaseTableOf, renderPhaseTable } = module.exports;
  const text = renderPhaseTable(phaseTableOf(phaseMachine));
  let current = null;
  try {
    current = readFileSync(TABLE_FILE, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (current === text) return false;
  writeFileSync(TABLE_FILE, text);
  process.stderr.write(`${TABLE_FILE} regenerated from the phase machine\n`);
  return true;
}
