import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `<dir>/probe.cjs`, a `--require` preload that prints at exit (on stderr) whether the process loaded Node's
 * network modules (`LOADED [...]`: postgres.js needs net and tls) and which files named postgres.cjs it required
 * (`DRIVER [...]`: the bins' `require` is Node's, so dist/postgres.cjs lands in its cache). Returns its path.
 */
export function writeDriverProbe(dir: string): string {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    // The list is taken before anything is written: process.stderr on a pipe would itself load `net`.
    "const { writeSync } = require('node:fs');\n" +
      "process.on('exit', () => { const loaded = process.moduleLoadList.filter((m) => /^NativeModule (net|tls)$/.test(m));\n" +
      "  writeSync(2, 'LOADED ' + JSON.stringify(loaded) + '\\n');\n" +
      "  const driver = Object.keys(require.cache).filter((file) => file.endsWith('postgres.cjs'));\n" +
      "  writeSync(2, 'DRIVER ' + JSON.stringify(driver) + '\\n'); });\n",
  );
  return probe;
}
