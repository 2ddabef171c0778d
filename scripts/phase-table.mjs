// Generates src/generated/phase-table.ts from the XState machine (src/core/phase-machine.ts), so the bins decide on a
// plain table instead of evaluating xstate at every start (docs/performance.md). The machine stays the source:
// tests/unit/core/machine-source.test.ts checks the file is exactly what this writes. Run by scripts/build.mjs.
import { loadTs, writeGenerated } from './generated.mjs';

const TABLE_FILE = 'src/generated/phase-table.ts';

/** Writes the table when it differs from the machine's; returns true when it changed the file. */
export async function writePhaseTable() {
  const { phaseMachine, phaseTableOf, renderPhaseTable } = await loadTs(
    "export { phaseMachine, phaseTableOf, renderPhaseTable } from './src/core/phase-machine';",
  );
  const text = renderPhaseTable(phaseTableOf(phaseMachine));
  if (!writeGenerated(TABLE_FILE, text)) return false;
  process.stderr.write(`${TABLE_FILE} regenerated from the phase machine\n`);
  return true;
}
